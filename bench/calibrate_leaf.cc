// Calibrates the search's leaf estimate (engine/search.h): plays games
// between two bots (heuristic against heuristic by default) in every preset,
// keeps every position before a throw with whether its side to move went on
// to win, fits the estimate's five constants (scale, tempo, contact, threat,
// risk) by maximum
// likelihood, overall (every ruleset weighing the same) and per ruleset,
// and shows how well the chances the shipped constants predict match the
// outcomes (by bins of predicted chance). docs/suggest.md has its output.
//
//   calibrate_leaf [--games N] [--seed S] [--light BOT] [--dark BOT] [--ruleset REF]...
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "engine/bots.h"
#include "engine/evaluate.h"
#include "engine/random.h"
#include "engine/ruleset.h"
#include "engine/search.h"

namespace scribe {
namespace {

struct Sample {
  LeafFeatures features;
  bool won;  // the side to move went on to win
};

struct Set {
  std::string ruleset;
  std::unique_ptr<SearchEvaluator> leaf;  // depth 0: the leaf estimate
  std::vector<Sample> samples;
};

// The mean over the sets of each one's mean log-likelihood of its outcomes
// (every ruleset weighs the same, however long its games).
double LogLikelihood(const std::vector<const Set*>& sets, const LeafParameters& leaf) {
  double total = 0;
  for (const Set* set : sets) {
    double sum = 0;
    for (const Sample& s : set->samples) {
      const double p = std::clamp(set->leaf->LeafFromFeatures(s.features, leaf), 1e-12, 1 - 1e-12);
      sum += s.won ? std::log(p) : std::log(1 - p);
    }
    total += set->samples.empty() ? 0 : sum / set->samples.size();
  }
  return sets.empty() ? 0 : total / sets.size();
}

// Golden-section search for the maximum of f on [lo, hi].
template <typename F>
double Maximise(F f, double lo, double hi) {
  const double g = (std::sqrt(5.0) - 1) / 2;
  double a = lo, b = hi;
  double c = b - g * (b - a), d = a + g * (b - a);
  double fc = f(c), fd = f(d);
  for (int i = 0; i < 32; ++i) {
    if (fc > fd) {
      b = d, d = c, fd = fc;
      c = b - g * (b - a), fc = f(c);
    } else {
      a = c, c = d, fc = fd;
      d = a + g * (b - a), fd = f(d);
    }
  }
  return (a + b) / 2;
}

struct Fit {
  LeafParameters leaf;
  double loglik;
};

// Coordinate ascent, one constant at a time, from the shipped ones.
Fit FitConstants(const std::vector<const Set*>& sets) {
  LeafParameters p;
  struct Axis {
    double LeafParameters::*field;
    double lo, hi;
  };
  const Axis axes[] = {{&LeafParameters::scale, 0.05, 8.0},  {&LeafParameters::tempo, -2.0, 4.0},
                       {&LeafParameters::contact, 0.0, 20.0}, {&LeafParameters::threat, -1.0, 3.0},
                       {&LeafParameters::risk, -1.0, 1.0}};
  for (int round = 0; round < 10; ++round) {
    for (const Axis& axis : axes) {
      p.*axis.field = Maximise(
          [&](double v) {
            LeafParameters q = p;
            q.*axis.field = v;
            return LogLikelihood(sets, q);
          },
          axis.lo, axis.hi);
    }
  }
  return Fit{p, LogLikelihood(sets, p)};
}

// Observed win rate by bins of predicted chance (tenths).
void PrintCalibration(const std::vector<const Set*>& sets, const LeafParameters& leaf) {
  long long n[10] = {}, won[10] = {};
  double predicted[10] = {};
  double brier = 0;
  long long total = 0;
  for (const Set* set : sets) {
    for (const Sample& s : set->samples) {
      const double p = set->leaf->LeafFromFeatures(s.features, leaf);
      const int bin = std::min(9, static_cast<int>(p * 10));
      ++n[bin];
      won[bin] += s.won;
      predicted[bin] += p;
      brier += (p - s.won) * (p - s.won);
      ++total;
    }
  }
  std::printf("| predicted | positions | mean predicted | observed |\n|---|---|---|---|\n");
  for (int b = 0; b < 10; ++b) {
    if (n[b] == 0) continue;
    std::printf("| %.1f-%.1f | %lld | %.3f | %.3f |\n", b / 10.0, (b + 1) / 10.0, n[b], predicted[b] / n[b],
                static_cast<double>(won[b]) / n[b]);
  }
  std::printf("Brier score %.4f over %lld positions (a coin: 0.25)\n", brier / total, total);
}

int Main(int argc, char** argv) {
  CLI::App app{"Fit the search's leaf estimate to game outcomes"};
  int games = 2000;
  uint64_t seed = 20261130;
  std::string light_spec = "heuristic", dark_spec = "heuristic";
  std::vector<std::string> refs = {"finkel", "finkel-blank4", "masters", "blitz", "sawah", "sawah-tablet",
                                   "sawah-marks", "turnover", "murray", "skiriuk"};
  app.add_option("--games", games, "games per ruleset");
  app.add_option("--seed", seed, "dice seed");
  app.add_option("--light", light_spec, "light's bot");
  app.add_option("--dark", dark_spec, "dark's bot");
  app.add_option("--ruleset", refs, "rulesets (default: every preset)");
  CLI11_PARSE(app, argc, argv);

  std::vector<Set> sets;
  for (const std::string& ref : refs) {
    auto rules = LoadRuleset(ref);
    if (!rules.ok()) {
      std::fprintf(stderr, "%s: %s\n", ref.c_str(), std::string(rules.status().message()).c_str());
      return 2;
    }
    auto light_parsed = ParseBotSpec(light_spec);
    auto dark_parsed = ParseBotSpec(dark_spec);
    if (!light_parsed.ok() || !dark_parsed.ok()) {
      std::fprintf(stderr, "bad bot\n");
      return 2;
    }
    auto light = MakeBot(*light_parsed, *rules, nullptr, seed + 1);
    auto dark = MakeBot(*dark_parsed, *rules, nullptr, seed + 2);
    if (!light.ok() || !dark.ok()) {
      std::fprintf(stderr, "cannot make the bots\n");
      return 2;
    }
    const Rules& r = **rules;
    Set set;
    set.ruleset = ref;
    set.leaf = std::make_unique<SearchEvaluator>(*rules, 0);
    Rng dice(seed);
    Bot* bots[2] = {light->get(), dark->get()};
    for (int g = 0; g < games; ++g) {
      Position pos = StartPosition(r, FirstToThrow(r, g, dice));
      std::vector<std::pair<Sample, Side>> seen;
      while (!IsOver(r, pos)) {
        seen.push_back({Sample{set.leaf->Features(pos), false}, pos.to_move});
        const int roll = dice.Throw(r);
        const auto move = bots[pos.to_move]->Choose(pos, roll);
        if (!move) PassTurn(&pos);
        else ApplyMove(r, &pos, *move);
      }
      const Side winner = *Winner(r, pos);
      for (auto& [sample, side] : seen) {
        sample.won = side == winner;
        set.samples.push_back(sample);
      }
    }
    sets.push_back(std::move(set));
  }

  std::printf("%s against %s, %d games per ruleset, seed %llu\n\n", light_spec.c_str(), dark_spec.c_str(), games,
              static_cast<unsigned long long>(seed));
  // Log-likelihoods are per position, in nats; a coin (always 1/2) scores
  // log(1/2) = -0.6931.
  const LeafParameters shipped;
  std::printf("| ruleset | positions | its own fit: scale, tempo, contact, threat, risk | log-lik, own fit | log-lik, shipped |\n");
  std::printf("|---|---|---|---|---|\n");
  std::vector<const Set*> all;
  for (const Set& set : sets) {
    all.push_back(&set);
    const Fit fit = FitConstants({&set});
    std::printf("| %s | %zu | %.3f, %.3f, %.3f, %.3f, %.3f | %.4f | %.4f |\n", set.ruleset.c_str(),
                set.samples.size(), fit.leaf.scale, fit.leaf.tempo, fit.leaf.contact, fit.leaf.threat, fit.leaf.risk,
                fit.loglik, LogLikelihood({&set}, shipped));
  }
  const Fit fit = FitConstants(all);
  std::printf("| all (each ruleset the same weight) | | %.3f, %.3f, %.3f, %.3f, %.3f | %.4f | %.4f |\n\n",
              fit.leaf.scale, fit.leaf.tempo, fit.leaf.contact, fit.leaf.threat, fit.leaf.risk, fit.loglik,
              LogLikelihood(all, shipped));
  std::printf("Shipped constants: scale %.3f, tempo %.3f, contact %.3f, threat %.3f, risk %.3f\n\n", shipped.scale,
              shipped.tempo, shipped.contact, shipped.threat, shipped.risk);
  std::printf("Every ruleset:\n\n");
  PrintCalibration(all, shipped);
  for (const Set& set : sets) {
    if (set.ruleset != "finkel") continue;
    std::printf("\nfinkel alone:\n\n");
    PrintCalibration({&set}, shipped);
  }
  return 0;
}

}  // namespace
}  // namespace scribe

int main(int argc, char** argv) { return scribe::Main(argc, argv); }
