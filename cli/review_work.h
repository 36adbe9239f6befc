// The work of `scribe review` (cli/review_commands.cc): the files read and
// judged, each legal record reviewed by review/pipeline.h's Analyzer on
// whichever thread is free, its page written, and what could not be read
// or reviewed gathered in file order.
#ifndef SCRIBE_CLI_REVIEW_WORK_H_
#define SCRIBE_CLI_REVIEW_WORK_H_

#include <atomic>
#include <cstddef>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engine/stop.h"
#include "records/formats.h"
#include "records/judged.h"
#include "review/collection.h"
#include "review/pipeline.h"
#include "records/squares.h"

namespace scribe {

// Without --table or --depth, chances come from a search this deep.
inline constexpr int kDefaultReviewDepth = 2;

struct ReviewCommandOptions {
  std::vector<std::string> files;
  std::string format = "text";
  std::string ruleset;
  std::string from;
  bool tiles = false;
  std::string table;
  int depth = -1;
  std::string html;
  int key_moves = 5;
  int threads = 0;
};

// One file of the review: read and judged once, then each of its legal
// records reviewed (by whichever thread is free) and dropped, so that only
// the reviews stay in memory, never every game's positions.
struct FileWork {
  std::string path;
  std::string read_error;
  bool judged = false;
  JudgedFile file;
  std::vector<std::optional<CollectionGame>> games;  // by record, in file order
  std::vector<v1::CollectionGame> protos;             // each game's, for a collection as JSON
};

class Reviewer {
 public:
  Reviewer(const ReviewCommandOptions& o, const RulesPolicy& io, const StopCheck& stop, std::vector<FileWork>* work);

  // Set once it is known (a folder, several files, or a file of several
  // games): pages go into a folder with an index, JSON is a collection's.
  void SetCollection(bool collection) { collection_ = collection; }
  bool collection() const { return collection_; }

  // Reads and judges file f (once); its legal records, to review.
  std::vector<size_t> Judge(size_t f);

  // Reviews record k of file f, writes its page, keeps its review and drops
  // the rest.
  void Review(size_t f, size_t k);

  SquareStyle Style() const { return o_.tiles ? SquareStyle::kTiles : SquareStyle::kPathNumbers; }
  bool usage_error() const { return usage_error_; }
  bool write_failed() const { return write_failed_; }
  const std::string& first_error() const { return first_error_; }

 private:
  // The game's page: the file --html names, or a page in its folder.
  bool WritePage(const JudgedRecord& judged, const Analysis& analysis, CollectionGame* g);
  void Failed(const absl::Status& status);

  const ReviewCommandOptions& o_;
  const RulesPolicy& io_;
  const StopCheck stop_;
  bool collection_ = false;
  std::vector<FileWork>& work_;
  Analyzer analyzer_;
  std::atomic<bool> usage_error_{false}, write_failed_{false};
  std::mutex mu_;
  std::string first_error_;
  std::set<std::string> taken_ = {"index.html"};
};

// What could not be read or reviewed, in file order (on standard error);
// the reviews, in file order. Clears `*all_read` when a file could not be
// read, `*all_valid` when one was not a legal game.
std::vector<CollectionGame> Gather(std::vector<FileWork>& work, bool* all_read, bool* all_valid);

}  // namespace scribe

#endif  // SCRIBE_CLI_REVIEW_WORK_H_
