// Validation throughput: parse a file of game records and replay every
// throw under its ruleset, the work `scribe validate` does. The corpus is
// generated in memory (random legal games of several presets, written as
// canonical TSN and as JSON); the figures are plies (actions: one throw and
// its move or pass) per second and bytes per second of CPU time, i.e. per
// core (the Time column is wall time, longer on a busy machine).
//
// The same program writes the corpus to files for the command-line
// comparison (bench/README.md):
//   validate_bench --write_corpus=corpus.tsn [--write_json=corpus.json]
//                  [--games=N] [--seed=S]
// and then exits without running the benchmarks.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "engine/position.h"
#include "engine/random.h"
#include "engine/ruleset.h"
#include "records/formats.h"
#include "records/referee.h"
#include "records/tsn.h"
#include "scribe/v1/record.pb.h"

namespace scribe {
namespace {

// The presets games are drawn from, finkel most often (it is the game most
// records are of). turnover starts with a throw-off.
constexpr const char* kPresets[] = {"finkel", "finkel", "finkel", "finkel", "masters",
                                    "blitz",  "sawah",  "murray", "skiriuk", "turnover"};
constexpr int kNumPresets = sizeof(kPresets) / sizeof(kPresets[0]);

struct CorpusOptions {
  int games = 3000;
  uint64_t seed = 20261129;
};

// One random legal game, as `scribe play` makes it, with the tags a
// tournament record carries.
v1::GameRecord RandomGame(const char* preset, int number, Rng* rng) {
  const Rules& rules = **LoadRuleset(preset);
  v1::GameRecord record;
  record.set_ruleset(preset);
  auto& tags = *record.mutable_tags();
  tags["Event"] = "Scribe validation benchmark";
  tags["Date"] = "2026.11.29";
  tags["Round"] = absl::StrCat(number + 1);
  tags["Light"] = absl::StrCat("Player ", rng->Below(1000));
  tags["Dark"] = absl::StrCat("Player ", rng->Below(1000));
  Side first = kLight;
  if (rules.opening == v1::OPENING_THROW_OFF) {
    while (true) {
      v1::OpeningThrow* t = record.add_opening();
      t->set_light(rng->Throw(rules));
      t->set_dark(rng->Throw(rules));
      if (t->light() != t->dark()) {
        first = t->light() > t->dark() ? kLight : kDark;
        break;
      }
    }
    record.set_first_player(ToPlayer(first));
  }
  Position pos = StartPosition(rules, first);
  MoveList moves;
  while (!IsOver(rules, pos)) {
    v1::Action* a = record.add_actions();
    const int roll = rng->Throw(rules);
    a->set_roll(roll);
    LegalMoves(rules, pos, roll, &moves);
    if (moves.empty()) {
      PassTurn(&pos);
      continue;
    }
    const Move m = moves[rng->Below(moves.size())];
    a->set_from(m.from);
    a->set_to(m.to);
    ApplyMove(rules, &pos, m);
  }
  tags["Result"] = SideName(*Winner(rules, pos));
  return record;
}

struct Corpus {
  std::string tsn;
  std::string json;
  int64_t games = 0;
  int64_t plies = 0;
};

Corpus MakeCorpus(const CorpusOptions& options) {
  Rng rng(options.seed);
  std::vector<v1::GameRecord> records;
  records.reserve(options.games);
  Corpus corpus;
  for (int g = 0; g < options.games; ++g) {
    records.push_back(RandomGame(kPresets[g % kNumPresets], g, &rng));
    corpus.plies += records.back().actions_size();
  }
  corpus.games = options.games;
  auto tsn = WriteRecords(Format::kTsn, records);
  if (!tsn.ok()) {
    std::cerr << "validate_bench: writing TSN: " << tsn.status() << "\n";
    std::exit(1);
  }
  corpus.tsn = *std::move(tsn);
  auto json = WriteRecords(Format::kJson, records);
  if (!json.ok()) {
    std::cerr << "validate_bench: writing JSON: " << json.status() << "\n";
    std::exit(1);
  }
  corpus.json = *std::move(json);
  return corpus;
}

CorpusOptions& Options() {
  static CorpusOptions options;
  return options;
}

const Corpus& TheCorpus() {
  static const Corpus* corpus = new Corpus(MakeCorpus(Options()));
  return *corpus;
}

void SetCounters(benchmark::State& state, const Corpus& corpus, size_t bytes) {
  state.SetItemsProcessed(state.iterations() * corpus.plies);
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(bytes));
  state.counters["games"] = benchmark::Counter(static_cast<double>(corpus.games));
  state.counters["plies"] = benchmark::Counter(static_cast<double>(corpus.plies));
  state.counters["MB"] = benchmark::Counter(static_cast<double>(bytes) / 1e6);
}

// The whole of `scribe validate` for one file, but reading and printing:
// parse, replay every throw, check the written form.
void BM_ValidateTsn(benchmark::State& state) {
  const Corpus& corpus = TheCorpus();
  {
    const v1::FileReport report = ValidateFile("corpus.tsn", corpus.tsn, Format::kTsn).report;
    if (!report.valid()) {
      state.SkipWithError(absl::StrCat("the corpus is not valid: ", report.findings(0).message()).c_str());
      return;
    }
  }
  for (auto _ : state) {
    v1::FileReport report = ValidateFile("corpus.tsn", corpus.tsn, Format::kTsn).report;
    benchmark::DoNotOptimize(report);
  }
  SetCounters(state, corpus, corpus.tsn.size());
}
BENCHMARK(BM_ValidateTsn)->Unit(benchmark::kMillisecond);

// Parsing alone.
void BM_ReadTsn(benchmark::State& state) {
  const Corpus& corpus = TheCorpus();
  for (auto _ : state) {
    ParsedRecords parsed = ReadTsn(corpus.tsn);
    benchmark::DoNotOptimize(parsed);
  }
  SetCounters(state, corpus, corpus.tsn.size());
}
BENCHMARK(BM_ReadTsn)->Unit(benchmark::kMillisecond);

// The referee alone, over records already parsed (no written-form checks).
void BM_RefereeOnly(benchmark::State& state) {
  const Corpus& corpus = TheCorpus();
  const ParsedRecords parsed = ReadTsn(corpus.tsn);
  RefereeOptions options;
  options.build_replay = false;
  for (auto _ : state) {
    for (const v1::GameRecord& record : parsed.records) {
      RefereeResult result = Referee(record, nullptr, options);
      benchmark::DoNotOptimize(result);
    }
  }
  SetCounters(state, corpus, corpus.tsn.size());
}
BENCHMARK(BM_RefereeOnly)->Unit(benchmark::kMillisecond);

// The same games as one JSON array of records.
void BM_ValidateJson(benchmark::State& state) {
  const Corpus& corpus = TheCorpus();
  {
    const v1::FileReport report = ValidateFile("corpus.json", corpus.json, Format::kJson).report;
    if (!report.valid()) {
      state.SkipWithError(absl::StrCat("the corpus is not valid: ", report.findings(0).message()).c_str());
      return;
    }
  }
  for (auto _ : state) {
    v1::FileReport report = ValidateFile("corpus.json", corpus.json, Format::kJson).report;
    benchmark::DoNotOptimize(report);
  }
  SetCounters(state, corpus, corpus.json.size());
}
BENCHMARK(BM_ValidateJson)->Unit(benchmark::kMillisecond);

void BM_ReadJson(benchmark::State& state) {
  const Corpus& corpus = TheCorpus();
  for (auto _ : state) {
    ParsedRecords parsed = ReadRecords(Format::kJson, corpus.json);
    benchmark::DoNotOptimize(parsed);
  }
  SetCounters(state, corpus, corpus.json.size());
}
BENCHMARK(BM_ReadJson)->Unit(benchmark::kMillisecond);

bool WriteFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) {
    std::cerr << "validate_bench: cannot write " << path << "\n";
    return false;
  }
  return true;
}

// Takes this program's own flags out of argv (Google Benchmark refuses the
// ones it does not know). Returns -1 to go on with the benchmarks, else the
// exit status.
int HandleOwnFlags(int* argc, char** argv) {
  std::string tsn_path, json_path;
  int kept = 1;
  for (int i = 1; i < *argc; ++i) {
    absl::string_view arg = argv[i];
    if (absl::ConsumePrefix(&arg, "--write_corpus=")) {
      tsn_path = std::string(arg);
    } else if (absl::ConsumePrefix(&arg, "--write_json=")) {
      json_path = std::string(arg);
    } else if (absl::ConsumePrefix(&arg, "--games=")) {
      if (!absl::SimpleAtoi(arg, &Options().games) || Options().games < 1) {
        std::cerr << "validate_bench: --games needs a positive number\n";
        return 2;
      }
    } else if (absl::ConsumePrefix(&arg, "--seed=")) {
      if (!absl::SimpleAtoi(arg, &Options().seed)) {
        std::cerr << "validate_bench: --seed needs a number\n";
        return 2;
      }
    } else {
      argv[kept++] = argv[i];
    }
  }
  *argc = kept;
  if (tsn_path.empty() && json_path.empty()) return -1;
  const Corpus& corpus = TheCorpus();
  if (!tsn_path.empty() && !WriteFile(tsn_path, corpus.tsn)) return 1;
  if (!json_path.empty() && !WriteFile(json_path, corpus.json)) return 1;
  std::cout << corpus.games << " games, " << corpus.plies << " plies; TSN " << corpus.tsn.size()
            << " bytes, JSON " << corpus.json.size() << " bytes\n";
  return 0;
}

}  // namespace
}  // namespace scribe

int main(int argc, char** argv) {
  if (const int status = scribe::HandleOwnFlags(&argc, argv); status >= 0) return status;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
