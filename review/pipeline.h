// The analysis of judged records, written once: each legal record's
// annotation (review/annotate.h), its winning chances from the evaluator
// of its rules, and the players' review (review/review.h); and a
// collection of records analysed over several threads.
//
//   judged records (records/formats.h)
//     -> Analyzer::Analyze: AnnotateRecord, AddWinningChances, ReviewGame
//     -> Analysis { annotated, review }
//
// `scribe annotate`, `scribe review` and the service's AnnotateRecord only
// call it and print or answer. The evaluator of a ruleset comes from an
// EvaluatorSource: a solved table of those rules when one is at hand, else
// a search's estimate; one per ruleset, made once and shared by every
// thread. Everything here polls a StopCheck (engine/stop.h: a deadline, a
// cancelled call, Ctrl-C) and returns CANCELLED once it says stop.
#ifndef SCRIBE_REVIEW_PIPELINE_H_
#define SCRIBE_REVIEW_PIPELINE_H_

#include <array>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/evaluator.h"
#include "engine/rules.h"
#include "engine/stop.h"
#include "records/judged.h"
#include "review/annotate.h"
#include "review/review.h"

namespace scribe {

// Where winning chances come from: for each ruleset, one evaluator, made
// the first time the ruleset is asked for and then shared. Thread-safe.
class EvaluatorSource {
 public:
  // Makes the evaluator of rules that have none yet; its error is For's.
  using Maker =
      std::function<absl::StatusOr<std::shared_ptr<const Evaluator>>(const std::shared_ptr<const Rules>& rules)>;

  // Solved tables by their rules' digest, else a search `search_depth`
  // throws deep polling `stop` (engine/search.h); with no search depth,
  // rules without a table are FAILED_PRECONDITION ("exact values need a
  // solved table of ...").
  using TablesByDigest = std::map<std::string, std::shared_ptr<const Evaluator>>;
  static std::shared_ptr<const EvaluatorSource> TablesElseSearch(std::shared_ptr<const TablesByDigest> tables,
                                                                 std::optional<int> search_depth,
                                                                 StopCheck stop = {});

  // Each ruleset's evaluator made by `make` (the command line opens the
  // table file it was given for the rules, or makes a search).
  explicit EvaluatorSource(Maker make);

  // The evaluator of `rules` (by digest).
  absl::StatusOr<std::shared_ptr<const Evaluator>> For(const std::shared_ptr<const Rules>& rules) const;

 private:
  Maker make_;
  mutable std::mutex mu_;
  mutable std::map<std::string, std::shared_ptr<const Evaluator>> made_;
};

struct AnalysisOptions {
  // Winning chances (and with them the review) from this source; none:
  // the annotation alone.
  std::shared_ptr<const EvaluatorSource> chances;
  // With chances: the players' review too.
  bool review = true;
  ReviewOptions review_options;
  MarkThresholds thresholds;
  EvaluationWeights weights;
  // The heuristic's rank and score of each move in the annotation
  // (AnnotateRecord's score_moves), which annotations show; without, the
  // values and the review are the same, for a third less work (reviews
  // and their pages; the database's import uses Figures).
  bool score_moves = true;
  StopCheck stop;
};

// One record analysed.
struct Analysis {
  AnnotatedRecord annotated;         // with values when there were chances
  std::optional<GameReview> review;  // with chances and AnalysisOptions::review
};

class Analyzer {
 public:
  explicit Analyzer(AnalysisOptions options);

  // The evaluator of `rules` (FAILED_PRECONDITION without chances), for a
  // caller that checks every record's before any work (the service bounds
  // a search's work first) or prints with it (annotate's JSON).
  absl::StatusOr<std::shared_ptr<const Evaluator>> EvaluatorFor(const std::shared_ptr<const Rules>& rules) const;

  // The analysis of a judged legal record (judged with
  // RefereeOptions::keep_positions): INVALID_ARGUMENT when it is not a
  // legal game, FAILED_PRECONDITION when its rules have no evaluator,
  // CANCELLED once the stop says stop.
  absl::StatusOr<Analysis> Analyze(const JudgedRecord& judged) const;

  // The players' figures alone (review/review.h PlayersFigures) from the
  // evaluator of the record's rules: what Analyze's review says of them,
  // for a fraction of its work. Fails as Analyze does.
  absl::StatusOr<std::array<PlayerFigures, 2>> Figures(const JudgedRecord& judged) const;

  const AnalysisOptions& options() const { return options_; }

 private:
  AnalysisOptions options_;
};

// A collection analysed over threads: inputs (files, or any source of
// judged records) opened one at a time and their records analysed by
// whichever thread is free. A free thread takes a waiting record first,
// else opens the next input, so only the records of the inputs being
// worked on are held, never the whole collection.
struct CollectionWork {
  size_t inputs = 0;
  // Reads and judges input i; returns the records of it to analyse (their
  // indices in the input, in order).
  std::function<std::vector<size_t>(size_t input)> open;
  // Analyses record k of input i (and keeps or writes what it needs).
  std::function<void(size_t input, size_t k)> analyze;
  // Called under the runner's lock after each record analysed (`record`
  // true) and after an input with nothing to analyse was opened (`record`
  // false); `input_done` when it was the input's last: for a progress bar.
  std::function<void(bool record, bool input_done)> progress;
};

// The threads a collection is analysed over when the user names none: the
// machine's cores, at most 8 (a review is CPU-bound; past 8 the shared
// evaluator's cache is what is contended).
int DefaultAnalysisThreads();

// Runs `work` on `threads` threads (at least one: the caller's). Polls
// `stop` before each step: once it says stop, no thread starts more work,
// and the result is CANCELLED (what was analysed stays analysed).
absl::Status RunCollection(const CollectionWork& work, int threads, const StopCheck& stop = {});

}  // namespace scribe

#endif  // SCRIBE_REVIEW_PIPELINE_H_
