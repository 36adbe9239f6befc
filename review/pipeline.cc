#include "review/pipeline.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/ruleset.h"
#include "engine/search.h"
#include "engine/status_macros.h"

namespace scribe {

std::shared_ptr<const EvaluatorSource> EvaluatorSource::TablesElseSearch(std::shared_ptr<const TablesByDigest> tables,
                                                                         std::optional<int> search_depth,
                                                                         StopCheck stop) {
  return std::make_shared<const EvaluatorSource>([tables = std::move(tables), search_depth, stop = std::move(stop)](
                                                     const std::shared_ptr<const Rules>& rules)
                                                     -> absl::StatusOr<std::shared_ptr<const Evaluator>> {
    if (tables != nullptr) {
      if (const auto it = tables->find(rules->digest); it != tables->end()) return it->second;
    }
    if (!search_depth) {
      return absl::FailedPreconditionError(
          absl::StrCat("exact values need a solved table of ", RulesetName(*rules), " (digest ", rules->digest, ")"));
    }
    return std::shared_ptr<const Evaluator>(
        std::make_shared<const SearchEvaluator>(rules, *search_depth, LeafParameters{}, stop));
  });
}

EvaluatorSource::EvaluatorSource(Maker make) : make_(std::move(make)) {}

absl::StatusOr<std::shared_ptr<const Evaluator>> EvaluatorSource::For(const std::shared_ptr<const Rules>& rules) const {
  std::lock_guard<std::mutex> lock(mu_);
  if (const auto it = made_.find(rules->digest); it != made_.end()) return it->second;
  auto made = make_(rules);
  if (made.ok()) made_.emplace(rules->digest, *made);
  return made;
}

Analyzer::Analyzer(AnalysisOptions options) : options_(std::move(options)) {}

absl::StatusOr<std::shared_ptr<const Evaluator>> Analyzer::EvaluatorFor(
    const std::shared_ptr<const Rules>& rules) const {
  if (options_.chances == nullptr) return absl::FailedPreconditionError("no winning chances were asked for");
  return options_.chances->For(rules);
}

absl::StatusOr<Analysis> Analyzer::Analyze(const JudgedRecord& judged) const {
  if (StopRequested(options_.stop)) return Stopped();
  Analysis analysis;
  auto annotated = AnnotateRecord(judged, options_.weights, options_.stop, options_.score_moves);
  if (!annotated.ok()) return annotated.status();
  analysis.annotated = *std::move(annotated);
  if (options_.chances == nullptr) return analysis;
  auto evaluator = EvaluatorFor(analysis.annotated.rules);
  if (!evaluator.ok()) return evaluator.status();
  if (absl::Status added = AddWinningChances(judged.record, **evaluator, &analysis.annotated, options_.thresholds,
                                             options_.stop);
      !added.ok()) {
    return added;
  }
  if (!options_.review) return analysis;
  auto review = ReviewGame(judged.record, analysis.annotated, options_.review_options);
  if (!review.ok()) return review.status();
  analysis.review = *std::move(review);
  return analysis;
}

absl::StatusOr<std::array<PlayerFigures, 2>> Analyzer::Figures(const JudgedRecord& judged) const {
  if (StopRequested(options_.stop)) return Stopped();
  SCRIBE_RETURN_IF_ERROR(CheckAnnotatable(judged));
  auto evaluator = EvaluatorFor(judged.verdict.rules);
  if (!evaluator.ok()) return evaluator.status();
  return PlayersFigures(judged, **evaluator, options_.stop);
}

int DefaultAnalysisThreads() {
  return std::max(1, static_cast<int>(std::min(8u, std::thread::hardware_concurrency())));
}

absl::Status RunCollection(const CollectionWork& work, int threads, const StopCheck& stop) {
  std::mutex mu;
  std::condition_variable cv;
  std::deque<std::pair<size_t, size_t>> waiting;  // records opened, not yet taken
  std::vector<size_t> left(work.inputs, 0);       // each input's records not yet analysed
  size_t next_input = 0;
  int opening = 0;
  bool stopped = false;
  const auto progress = [&](bool record, bool input_done) {
    if (work.progress) work.progress(record, input_done);
  };
  const auto loop = [&] {
    std::unique_lock<std::mutex> lock(mu);
    while (true) {
      if (!stopped && StopRequested(stop)) {
        stopped = true;
        cv.notify_all();
      }
      if (stopped) break;
      if (!waiting.empty()) {
        const auto [input, k] = waiting.front();
        waiting.pop_front();
        lock.unlock();
        work.analyze(input, k);
        lock.lock();
        progress(true, --left[input] == 0);
        continue;
      }
      if (next_input < work.inputs) {
        const size_t input = next_input++;
        ++opening;
        lock.unlock();
        const std::vector<size_t> records = work.open(input);
        lock.lock();
        --opening;
        for (size_t k : records) waiting.emplace_back(input, k);
        left[input] = records.size();
        if (records.empty()) progress(false, true);
        cv.notify_all();
        continue;
      }
      if (opening == 0) break;
      cv.wait(lock);
    }
    cv.notify_all();
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(loop);
  loop();
  for (std::thread& t : pool) t.join();
  return stopped ? Stopped() : absl::OkStatus();
}

}  // namespace scribe
