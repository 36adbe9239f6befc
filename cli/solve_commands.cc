#include "cli/solve_commands.h"

#include <sys/resource.h>

#include <iostream>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_format.h"
#include "analysis/open_table.h"
#include "analysis/rgu.h"
#include "analysis/table.h"
#include "cli/common.h"
#include "cli/interrupt.h"
#include "engine/ruleset.h"
#include "engine/solver.h"
#include "engine/state_count.h"
#include "engine/state_index.h"

namespace scribe {
namespace {

struct SolveCliOptions {
  std::string ruleset;
  std::string out;
  int threads = 2;
  double tolerance = 1e-6;
  int policy_sweeps = SolveOptions().policy_sweeps;
  double policy_memory_mib = SolveOptions().policy_bytes / 1048576.0;
  double max_memory_gib = 8;
  bool flat_start = false;
  bool quiet = false;
};

struct TableCountOptions {
  std::string ruleset;
  double max_memory_gib = 8;
};

struct TableInfoOptions {
  std::string table;
};

struct TableConvertOptions {
  std::string table;
  std::string out;
  std::string to = "rgu";
  std::string ruleset;  // empty: the table's own rules
};

double PeakRssMiB() {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024.0;  // kilobytes on Linux
}

int CmdSolve(const SolveCliOptions& args) {
  // A solve takes minutes: SIGINT (or SIGTERM) stops it at once, leaving no
  // table (the table is written only once solved, to a temporary file
  // renamed into place).
  const StopCheck stop = StopOnInterrupt();
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
  options.policy_sweeps = args.policy_sweeps;
  options.estimated_start = !args.flat_start;
  options.policy_bytes = static_cast<uint64_t>(args.policy_memory_mib * 1048576.0);
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
  options.stop = stop;
  auto solution = Solve(**rules, **index, options);
  if (Interrupted()) {
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
      "solve time   %.1f s (%d threads)\nsweeps       %d in all (%d of them policy sweeps), at most %d for a layer pair\n"
      "backups      %d, %.1f%% of them with every move\n"
      "residual     %.2e (tolerance %.0e)\npeak memory  %.0f MiB\n"
      "start        %.4f%% for the side to move first\n",
      args.ruleset, (*rules)->digest, (*index)->size(), args.out, (*index)->size() * 2 / 1048576.0,
      solution->seconds, args.threads, solution->sweeps, solution->policy_sweeps, solution->max_layer_sweeps, solution->backups,
      solution->backups > 0 ? 100.0 * solution->full_backups / solution->backups : 100.0, solution->residual,
      args.tolerance, PeakRssMiB(), 100.0 * start);
  return kExitOk;
}

int TableError(absl::string_view message) {
  std::cerr << "scribe: table: " << TerminalText(message) << "\n";
  return kExitUsage;
}

std::string SourceText(const TableInfo& info) {
  const bool rgu = absl::StartsWith(info.format, "RoyalUr");
  if (info.source == TableSource::kSolved) return rgu ? "solved by Scribe, exported as an .rgu" : "solved by Scribe";
  return rgu ? "RoyalUr's trainer (a RoyalUr table, read as it is)"
             : "RoyalUr's trainer (imported from a RoyalUr table, .rgu)";
}

int CmdTableInfo(const TableInfoOptions& args) {
  auto table = OpenTable(args.table);
  if (!table.ok()) return TableError(table.status().message());
  const TableInfo& info = (*table)->info();
  const Rules& rules = (*table)->rules();
  const std::string residual = info.tolerance > 0 ? absl::StrFormat("%.2e", info.tolerance) : "unknown";
  std::cout << absl::StrFormat(
      "ruleset      %s\ndigest       %s\npreset       %s\nsource       %s\nformat       %s\n"
      "precision    percent16 (chance x 65535, rounded); solved to a residual of %s\npositions    %d\n",
      TerminalText(RulesetName(rules)), TerminalText(info.digest), MatchingPreset(rules).value_or("none"), SourceText(info),
      info.format, residual, info.positions);
  if (info.entries != info.positions) std::cout << absl::StrFormat("entries      %d\n", info.entries);
  if (!info.notes.empty()) std::cout << "notes        " << TerminalText(info.notes) << "\n";
  std::cout << absl::StrFormat(
      "file         %d bytes\nsolve time   %s\nresidual     %s\nstart        %.4f%% for the side to move first\n",
      info.file_bytes, info.seconds > 0 ? absl::StrFormat("%.1f s", info.seconds) : std::string("unknown"), residual,
      100.0 * (*table)->Value(StartPosition(rules)));
  return kExitOk;
}

// 10474772403 -> "10,474,772,403".
std::string Grouped(uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

// How big a solve of the rules would be, before trying it.
int CmdTableCount(const TableCountOptions& args) {
  auto rules = CliRuleset(args.ruleset);
  if (!rules.ok()) return RulesetError(rules.status());
  auto count = CountPositions(**rules);
  if (!count.ok()) return TableError(count.status().message());
  const double gib = 1024.0 * 1024 * 1024;
  const double solve_gib = count->positions * sizeof(float) / gib;
  const SolveMemory memory = SolveMemoryNeeded(**rules, count->positions, count->pair_positions, SolveOptions());
  const double peak_gib = memory.total() / gib;
  auto index = StateIndex::Create(**rules);
  std::string solvable;
  if (!index.ok()) {
    solvable = "no: this build's index cannot rank these rules (docs/analysis.md, \"Rulesets not solved\")";
  } else if (peak_gib > args.max_memory_gib) {
    solvable = absl::StrFormat("no: a solve needs %.1f GiB at its peak, more than --max-memory %.1f GiB", peak_gib,
                               args.max_memory_gib);
  } else {
    solvable = absl::StrFormat("yes: scribe solve --ruleset %s (within --max-memory %.1f GiB)",
                               TerminalText(args.ruleset), args.max_memory_gib);
  }
  const int a = count->pair_mover_off, b = count->pair_opponent_off;
  std::cout << absl::StrFormat(
      "ruleset      %s\ndigest       %s\npositions    %s (neither side finished, seen from the side to move)\n"
      "largest pair layers (%d, %d)%s: %s positions (pieces borne off by the mover, by the opponent)\n"
      "values       %.2f GiB while solving (4 bytes a position); a table of %.2f GiB (2 bytes)\n"
      "solve memory %.2f GiB at the peak: the values, and the largest pair's order %.2f GiB, changes %.2f GiB, "
      "policies %.2f GiB\n"
      "index        %s\nsolvable     %s\n",
      TerminalText(RulesetName(**rules)), (*rules)->digest, Grouped(count->positions), a, b,
      a == b ? "" : absl::StrFormat(" and (%d, %d)", b, a), Grouped(count->pair_positions), solve_gib,
      count->positions * sizeof(uint16_t) / gib, peak_gib, memory.pair_order / gib, memory.pair_changes / gib,
      memory.policies / gib,
      index.ok() ? "ranks these rules" : TerminalText(index.status().message()), solvable);
  return kExitOk;
}

// The rules named by --ruleset, or null for the table's own.
absl::StatusOr<std::shared_ptr<const Rules>> ExpectedRules(const std::string& ruleset) {
  if (ruleset.empty()) return std::shared_ptr<const Rules>();
  return CliRuleset(ruleset);
}

int CmdTableImport(const TableConvertOptions& args) {
  auto expected = ExpectedRules(args.ruleset);
  if (!expected.ok()) return RulesetError(expected.status());
  auto table = RguTable::Open(args.table, *expected);
  if (!table.ok()) return TableError(table.status().message());
  if (auto status = WriteAsScribeTable(**table, args.out); !status.ok()) return TableError(status.message());
  const TableInfo& info = (*table)->info();
  std::cout << absl::StrFormat("ruleset      %s\ndigest       %s\npositions    %d (of the file's %d entries)\n"
                               "table        %s\n",
                               TerminalText(RulesetName((*table)->rules())), info.digest, info.positions,
                               info.entries, TerminalText(args.out));
  return kExitOk;
}

int CmdTableExport(const TableConvertOptions& args) {
  auto expected = ExpectedRules(args.ruleset);
  if (!expected.ok()) return RulesetError(expected.status());
  auto table = OpenTable(args.table, *expected);
  if (!table.ok()) return TableError(table.status().message());
  if (auto status = WriteRgu(args.out, **table); !status.ok()) return TableError(status.message());
  auto written = RguTable::Open(args.out, (*table)->shared_rules());
  if (!written.ok()) return TableError(written.status().message());
  std::cout << absl::StrFormat("ruleset      %s\ndigest       %s\nentries      %d (%d positions)\nfile         %s\n",
                               TerminalText(RulesetName((*table)->rules())), (*written)->info().digest,
                               (*written)->info().entries, (*written)->info().positions, TerminalText(args.out));
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
  solve->add_option("--policy-sweeps", s.policy_sweeps,
                    "after each full sweep, this many that back up only the best moves it found (0: every sweep full)")
      ->check(CLI::Range(0, 100));
  solve->add_option("--policy-memory", s.policy_memory_mib,
                    "MiB for the best moves kept between sweeps (4 bytes a throw a position of a layer pair; "
                    "positions past it get full backups)")
      ->check(CLI::NonNegativeNumber);
  solve->add_option("--max-memory", s.max_memory_gib, "refuse rulesets needing more GiB than this")
      ->check(CLI::PositiveNumber);
  solve->add_flag("--flat-start", s.flat_start,
                  "start every position at 50%, not at the estimate from the solved layers next to it (for comparison)");
  solve->add_flag("--quiet", s.quiet, "no progress on standard error");

  CLI::App* table = registry.AddGroup(app, "table", "Inspect, import and export solved tables");
  auto [info, i] = registry.Add(*table, "info",
                                "What a table file holds: ruleset, preset, source, precision, positions, solve",
                                CmdTableInfo);
  info->add_option("FILE", i.table, "table file (Scribe's or RoyalUr's .rgu)")->required();
  auto [count, c] = registry.Add(*table, "count",
                                 "How many positions a ruleset has, and whether a solve of it fits (any ruleset)",
                                 CmdTableCount);
  count->add_option("--ruleset", c.ruleset, "ruleset reference or file")->required();
  count->add_option("--max-memory", c.max_memory_gib, "the memory a solve may use, in GiB (as scribe solve's)")
      ->check(CLI::PositiveNumber);
  auto [import, im] =
      registry.Add(*table, "import", "A RoyalUr table (.rgu) as a Scribe table file", CmdTableImport);
  import->add_option("FILE", im.table, "RoyalUr table (.rgu)")->required();
  import->add_option("--out", im.out, "Scribe table file to write")->required();
  import->add_option("--ruleset", im.ruleset, "refuse a table for other rules");
  auto [exp, ex] = registry.Add(*table, "export", "A solved table in another format (RoyalUr's .rgu)", CmdTableExport);
  exp->add_option("FILE", ex.table, "table file (Scribe's or RoyalUr's)")->required();
  exp->add_option("--to", ex.to, "the format to write")->required()->check(CLI::IsMember({"rgu"}));
  exp->add_option("--out", ex.out, "file to write")->required();
  exp->add_option("--ruleset", ex.ruleset, "refuse a table for other rules");
}

}  // namespace scribe
