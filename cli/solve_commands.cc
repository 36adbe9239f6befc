#include "cli/solve_commands.h"

#include <signal.h>
#include <sys/resource.h>

#include <atomic>
#include <iostream>
#include <string>

#include "absl/strings/str_format.h"
#include "analysis/table.h"
#include "cli/common.h"
#include "engine/ruleset.h"
#include "engine/solver.h"
#include "engine/state_index.h"

namespace scribe {
namespace {

struct SolveCliOptions {
  std::string ruleset;
  std::string out;
  int threads = 2;
  double tolerance = 1e-6;
  double max_memory_gib = 8;
  bool quiet = false;
};

struct TableInfoOptions {
  std::string table;
};

// Set by SIGINT or SIGTERM while solving: the solve polls it and stops
// within milliseconds, and nothing is written.
std::atomic<bool> interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");

extern "C" void OnInterrupt(int) { interrupted.store(true); }

// Exit status of a solve stopped by a signal (128 + SIGINT, as a shell's).
constexpr int kExitInterrupted = 130;

double PeakRssMiB() {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024.0;  // kilobytes on Linux
}

int CmdSolve(const SolveCliOptions& args) {
  // A solve takes minutes: SIGINT (or SIGTERM) stops it at once, leaving no
  // table (the table is written only once solved, to a temporary file
  // renamed into place).
  struct sigaction on_interrupt = {};
  on_interrupt.sa_handler = OnInterrupt;
  sigemptyset(&on_interrupt.sa_mask);
  sigaction(SIGINT, &on_interrupt, nullptr);
  sigaction(SIGTERM, &on_interrupt, nullptr);
  auto rules = CliRuleset(args.ruleset);
  if (!rules.ok()) return RulesetError(rules.status());
  auto index = StateIndex::Create(**rules);
  if (!index.ok()) {
    std::cerr << "scribe: solve: " << TerminalText(index.status().message())
              << " (`scribe suggest` and `scribe annotate --depth N` estimate such rulesets by search)\n";
    return kExitUsage;
  }
  SolveOptions options;
  options.threads = args.threads;
  options.tolerance = args.tolerance;
  options.max_bytes = static_cast<uint64_t>(args.max_memory_gib * 1073741824.0);
  if (!args.quiet) {
    std::cerr << absl::StrFormat("solving %s (%s): %d positions, %.1f MiB of values while solving\n",
                                 args.ruleset, (*rules)->digest, (*index)->size(),
                                 (*index)->size() * 4 / 1048576.0);
    options.progress = [](const SolveProgress& p) {
      std::cerr << absl::StrFormat("  layers (%d,%d)%s: %2d sweeps, change %.1e; %5.1f%% done, %.1f s\n",
                                   p.mover_off, p.opponent_off,
                                   p.mover_off == p.opponent_off
                                       ? "      "
                                       : absl::StrFormat("+(%d,%d)", p.opponent_off, p.mover_off),
                                   p.sweeps, p.residual, 100.0 * p.positions_done / p.positions_total,
                                   p.seconds);
    };
  }
  options.stop = [] { return interrupted.load(); };
  auto solution = Solve(**rules, **index, options);
  if (interrupted.load()) {
    std::cerr << "scribe: solve: interrupted; no table written\n";
    return kExitInterrupted;
  }
  if (!solution.ok()) {
    std::cerr << "scribe: solve: " << TerminalText(solution.status().message()) << "\n";
    return kExitUsage;
  }
  if (auto status = WriteTable(args.out, **rules, *solution); !status.ok()) {
    std::cerr << "scribe: solve: " << TerminalText(status.message()) << "\n";
    return kExitUsage;
  }
  const double start = solution->values[(*index)->Rank(StartPosition(**rules))];
  std::cout << absl::StrFormat(
      "ruleset      %s\ndigest       %s\npositions    %d\ntable        %s (%.1f MiB)\n"
      "solve time   %.1f s (%d threads)\nsweeps       %d in all, at most %d for a layer pair\n"
      "residual     %.2e (tolerance %.0e)\npeak memory  %.0f MiB\n"
      "start        %.4f%% for the side to move first\n",
      args.ruleset, (*rules)->digest, (*index)->size(), args.out, (*index)->size() * 2 / 1048576.0,
      solution->seconds, args.threads, solution->sweeps, solution->max_layer_sweeps, solution->residual,
      args.tolerance, PeakRssMiB(), 100.0 * start);
  return kExitOk;
}

int CmdTableInfo(const TableInfoOptions& args) {
  auto table = TableEvaluator::Open(args.table);
  if (!table.ok()) {
    std::cerr << "scribe: table: " << TerminalText(table.status().message()) << "\n";
    return kExitUsage;
  }
  const TableInfo& info = (*table)->info();
  const Rules& rules = (*table)->rules();
  std::cout << absl::StrFormat(
      "ruleset      %s\ndigest       %s\npositions    %d\nfile         %d bytes\nsolve time   %.1f s\n"
      "residual     %.2e\nstart        %.4f%% for the side to move first\n",
      TerminalText(RulesetName(rules)), TerminalText(info.digest), info.positions, info.file_bytes,
      info.seconds, info.tolerance, 100.0 * (*table)->Value(StartPosition(rules)));
  return kExitOk;
}

}  // namespace

void AddSolveCommands(CLI::App& app, CommandRegistry& registry) {
  auto [solve, s] = registry.Add(
      app, "solve", "Solve a ruleset: every position's exact winning chance under perfect play, into a table file",
      CmdSolve);
  solve->add_option("--ruleset", s.ruleset, "ruleset reference or file")->required();
  solve->add_option("--out", s.out, "table file to write")->required();
  solve->add_option("--threads", s.threads, "threads sharing each sweep")->check(CLI::Range(1, 64));
  solve->add_option("--tolerance", s.tolerance, "stop when no value changes by more than this")
      ->check(CLI::Range(1e-9, 1e-2));
  solve->add_option("--max-memory", s.max_memory_gib, "refuse rulesets needing more GiB than this")
      ->check(CLI::PositiveNumber);
  solve->add_flag("--quiet", s.quiet, "no progress on standard error");

  CLI::App* table = registry.AddGroup(app, "table", "Inspect a solved table");
  auto [info, i] =
      registry.Add(*table, "info", "What a table file holds: ruleset, digest, positions, solve", CmdTableInfo);
  info->add_option("FILE", i.table, "table file")->required();
}

}  // namespace scribe
