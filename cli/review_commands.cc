// scribe review: the review of a game for its players, or of a collection
// (docs/review.md).
#include "cli/review_commands.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <functional>
#include <mutex>
#include <optional>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <iostream>
#include <memory>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "cli/common.h"
#include "cli/record_output.h"
#include "engine/search.h"
#include "records/formats.h"
#include "records/json_record.h"
#include "review/annotate.h"
#include "review/collection.h"
#include "review/review.h"
#include "review/review_html.h"
#include "review/review_text.h"

namespace scribe {
namespace {

// Without --table or --depth, chances come from a search this deep.
constexpr int kDefaultReviewDepth = 2;

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

// The evaluators of a review: one table shared by every thread (it is
// read-only and mapped once), or a search per ruleset.
class Evaluators {
 public:
  explicit Evaluators(const ReviewCommandOptions& o) : o_(o) {}

  // The evaluator for `rules`; a table for other rules is refused.
  absl::StatusOr<std::shared_ptr<const Evaluator>> For(const std::shared_ptr<const Rules>& rules) {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& e : made_) {
      if (e->rules().digest == rules->digest) return e;
    }
    auto made = TableOrSearch(o_.table, o_.depth >= 0 ? o_.depth : kDefaultReviewDepth, rules);
    if (made.ok()) made_.push_back(*made);
    return made;
  }

 private:
  const ReviewCommandOptions& o_;
  std::mutex mu_;
  std::vector<std::shared_ptr<const Evaluator>> made_;
};

// A page file name for a game: its file's base name (without folders and
// extension; letters, digits, '-' and '_' kept), "-N" for the N-th record
// of a file with several, unique within the collection.
std::string PageName(const std::string& source, std::set<std::string>* taken) {
  std::string base = source.substr(source.find_last_of('/') + 1);
  const size_t hash = base.find('#');
  const std::string record = hash == std::string::npos ? "" : base.substr(hash + 1);
  base = base.substr(0, hash);
  if (const size_t dot = base.find_last_of('.'); dot != std::string::npos && dot > 0) base.resize(dot);
  if (!record.empty()) base += "-" + record;
  std::string name;
  for (char c : base) name += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') ? c : '_';
  if (name.empty()) name = "game";
  std::string candidate = name + ".html";
  for (int k = 2; !taken->insert(candidate).second; ++k) candidate = absl::StrCat(name, "-", k, ".html");
  return candidate;
}

// One file of the review: read and judged once, then each of its legal
// records reviewed (by whichever thread is free) and dropped, so that only
// the reviews stay in memory, never every game's positions.
struct FileWork {
  std::string path;
  std::string read_error;
  bool judged = false;
  JudgedFile file;
  std::vector<std::optional<CollectionGame>> games;  // by record, in file order
  std::vector<std::string> json;                      // each game's JSON (a collection as JSON)
  std::atomic<int> left{0};                          // records not yet reviewed
};

class Reviewer {
 public:
  Reviewer(const ReviewCommandOptions& o, const RulesPolicy& io, bool collection, std::vector<FileWork>* work)
      : o_(o), io_(io), collection_(collection), work_(*work), evaluators_(o) {
    options_.key_moves = o.key_moves;
  }

  // Reads and judges file f (once).
  void Judge(size_t f) {
    FileWork& w = work_[f];
    if (w.judged) return;
    w.judged = true;
    std::string text;
    if (!w.read_error.empty() || !ReadFile(w.path, &text, &w.read_error)) return;
    w.file = JudgeFile(w.path, text, InputFormat(o_.from, w.path, text), io_,
                       {.referee = {.build_replay = false, .keep_positions = true}, .limits = {}});
    w.games.resize(w.file.records.size());
    if (collection_ && o_.format == "json") w.json.resize(w.file.records.size());
  }

  // Reviews record k of file f, writes its page, keeps its review and drops
  // the rest.
  void Review(size_t f, size_t k) {
    FileWork& w = work_[f];
    JudgedRecord judged = std::move(w.file.records[k]);
    w.file.records[k] = JudgedRecord();
    const std::string source = w.file.entries > 1 ? absl::StrCat(w.path, "#", judged.index + 1) : w.path;
    auto annotated = AnnotateRecord(judged);
    absl::Status status = annotated.status();
    if (annotated.ok()) {
      auto evaluator = evaluators_.For(annotated->rules);
      if (!evaluator.ok()) usage_error_ = true;
      status = evaluator.ok() ? AddWinningChances(judged.record, **evaluator, &*annotated) : evaluator.status();
    }
    std::optional<GameReview> review;
    if (status.ok()) {
      auto r = ReviewGame(judged.record, *annotated, options_);
      status = r.status();
      if (r.ok()) review = std::move(*r);
    }
    if (!status.ok()) return Failed(status);
    CollectionGame g;
    g.source = source;
    const auto& tags = judged.record.tags();
    if (auto it = tags.find("Event"); it != tags.end()) g.event = it->second;
    if (auto it = tags.find("Date"); it != tags.end()) g.date = it->second;
    g.rules = annotated->rules;
    if (!o_.html.empty()) {
      std::string path = o_.html;
      PageOptions page_options{.style = Style(), .index_link = "", .source = source};
      if (collection_) {
        {
          std::lock_guard<std::mutex> lock(mu_);
          g.page = PageName(source, &taken_);
        }
        path = absl::StrCat(o_.html, "/", g.page);
        page_options.index_link = "index.html";
      }
      auto page = ReviewPage(judged.record, *annotated, *review, page_options);
      if (!page.ok()) return Failed(page.status());
      if (!WriteOutputFile("review", path, *page)) write_failed_ = true;
    }
    g.review = std::move(*review);
    // A collection's JSON is written game by game, each by the thread that
    // reviewed it.
    if (!w.json.empty()) w.json[k] = MessageToJson(CollectionGameToProto(g));
    w.games[k] = std::move(g);
  }

  SquareStyle Style() const { return o_.tiles ? SquareStyle::kTiles : SquareStyle::kPathNumbers; }
  bool usage_error() const { return usage_error_; }
  bool write_failed() const { return write_failed_; }
  const std::string& first_error() const { return first_error_; }

 private:
  void Failed(const absl::Status& status) {
    std::lock_guard<std::mutex> lock(mu_);
    if (first_error_.empty()) first_error_ = std::string(status.message());
  }

  const ReviewCommandOptions& o_;
  const RulesPolicy& io_;
  const bool collection_;
  std::vector<FileWork>& work_;
  Evaluators evaluators_;
  ReviewOptions options_;
  std::atomic<bool> usage_error_{false}, write_failed_{false};
  std::mutex mu_;
  std::string first_error_;
  std::set<std::string> taken_ = {"index.html"};
};

// Every file judged and every legal record reviewed by `threads` threads:
// a free thread takes a waiting record first, else the next file, whose
// legal records then wait for the threads. The progress counts records
// (`by_record`) or files.
void ReviewAll(Reviewer& reviewer, std::vector<FileWork>& work, int threads, Progress& progress, bool by_record) {
  std::mutex mu;
  std::condition_variable cv;
  std::deque<std::pair<size_t, size_t>> waiting;
  size_t next_file = 0;
  int judging = 0;
  const auto loop = [&] {
    std::unique_lock<std::mutex> lock(mu);
    while (true) {
      if (!waiting.empty()) {
        const auto [f, k] = waiting.front();
        waiting.pop_front();
        lock.unlock();
        reviewer.Review(f, k);
        const bool last = --work[f].left == 0;
        lock.lock();
        if (by_record || last) progress.Step();
        continue;
      }
      if (next_file < work.size()) {
        const size_t f = next_file++;
        ++judging;
        lock.unlock();
        reviewer.Judge(f);
        lock.lock();
        --judging;
        int legal = 0;
        for (size_t k = 0; k < work[f].file.records.size(); ++k) {
          if (!work[f].file.records[k].verdict.valid()) continue;
          waiting.emplace_back(f, k);
          ++legal;
        }
        work[f].left = legal;
        if (legal == 0 && !by_record) progress.Step();
        cv.notify_all();
        continue;
      }
      if (judging == 0) break;
      cv.wait(lock);
    }
    cv.notify_all();
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(loop);
  loop();
  for (std::thread& t : pool) t.join();
}

int CmdReview(const ReviewCommandOptions& o) {
  auto io = ReaderOptions(o.ruleset);
  if (!io.ok()) return RulesetError(io.status());
  std::vector<PathEntry> entries;
  bool all_read = ExpandPaths(o.files, &entries);
  std::vector<std::string> files;
  for (const PathEntry& entry : entries) files.push_back(entry.path);
  bool collection = files.size() > 1;
  for (const std::string& f : o.files) {
    struct stat st;
    if (stat(f.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) collection = true;
  }
  const int threads =
      o.threads > 0 ? o.threads : std::max(1, static_cast<int>(std::min(8u, std::thread::hardware_concurrency())));
  std::vector<FileWork> work(files.size());
  for (size_t i = 0; i < files.size(); ++i) {
    work[i].path = files[i];
    work[i].read_error = entries[i].error;  // a folder's entry the walk could not take
  }

  // One file is judged first, to know whether it holds one game or several.
  size_t records = 0;
  if (files.size() == 1) {
    Reviewer(o, *io, collection, &work).Judge(0);
    records = work[0].file.records.size();
    collection = collection || records > 1;
    if (collection && o.format == "json") work[0].json.resize(records);
  }
  if (collection && !o.html.empty() && mkdir(o.html.c_str(), 0777) != 0 && errno != EEXIST) {
    std::cerr << "scribe: review: cannot make the folder " << TerminalText(o.html) << ": " << strerror(errno)
              << "\n";
    return kExitUsage;
  }
  Reviewer reviewer(o, *io, collection, &work);
  {
    const bool by_record = files.size() == 1;
    Progress progress(collection ? (by_record ? records : files.size()) : 0);
    ReviewAll(reviewer, work, threads, progress, by_record);
    progress.Finish();
  }

  // What could not be read or reviewed, in file order; the reviews.
  bool all_valid = true;
  std::vector<CollectionGame> games;
  for (FileWork& w : work) {
    if (!w.read_error.empty()) {
      std::cerr << "scribe: " << TerminalText(w.read_error) << "\n";
      all_read = false;
      continue;
    }
    for (const v1::Finding& finding : w.file.report.findings()) std::cerr << FindingToText(w.path, finding) << "\n";
    if (w.file.entries == 0 && w.file.report.findings_size() == 0) {
      std::cerr << "scribe: review: " << TerminalText(w.path) << ": no records\n";
      all_valid = false;
    }
    all_valid = all_valid && w.file.report.valid();
    for (std::optional<CollectionGame>& g : w.games) {
      if (g) games.push_back(std::move(*g));
    }
  }
  if (!reviewer.first_error().empty()) {
    std::cerr << "scribe: review: " << TerminalText(reviewer.first_error()) << "\n";
    if (reviewer.usage_error()) return kExitUsage;
    all_valid = false;
  }
  if (reviewer.write_failed()) return kExitUsage;
  if (games.empty()) {
    std::cerr << "scribe: review: no legal record to review\n";
    return all_read ? kExitInvalid : kExitUsage;
  }
  const int status = !all_read ? kExitUsage : all_valid ? kExitOk : kExitInvalid;

  if (!collection) {
    const CollectionGame& g = games.front();
    if (o.format == "json") {
      std::cout << MessageToJson(ReviewToProto(g.review, *g.rules)) << "\n";
    } else {
      std::cout << TerminalText(ReviewText(g.review, *g.rules, reviewer.Style()), true);
    }
    return status;
  }
  std::vector<std::string> json;
  for (FileWork& w : work) {
    for (size_t k = 0; k < w.json.size(); ++k) {
      if (w.games[k]) json.push_back(std::move(w.json[k]));
    }
  }
  CollectionReview summary = SummarizeCollection(std::move(games));
  if (!o.html.empty() && !WriteOutputFile("review", o.html + "/index.html", CollectionPage(summary))) {
    return kExitUsage;
  }
  if (o.format == "json") {
    // MessageToJson(CollectionToProto(summary)), byte for byte: the games
    // (field 1) first, then the rest as printed without them.
    CollectionReview rest;
    rest.players = summary.players;
    rest.exact = summary.exact;
    rest.evaluator = summary.evaluator;
    const std::string tail = MessageToJson(CollectionToProto(rest));
    std::cout << "{\"games\":[";
    for (size_t i = 0; i < json.size(); ++i) std::cout << (i ? "," : "") << json[i];
    std::cout << "]" << (tail.size() > 2 ? "," : "") << tail.substr(1) << "\n";
  } else {
    std::cout << TerminalText(CollectionText(summary), true);
  }
  return status;
}

}  // namespace

void AddReviewCommands(CLI::App& app, CommandRegistry& registry) {
  auto [review, r] = registry.Add(app, "review",
                                  "Review games for their players: accuracy, luck, key moves; one game or a collection",
                                  CmdReview);
  review->add_option("FILE", r.files, "record files or directories (several games: a collection)")->required();
  review->add_option("--format", r.format, "text (a report) or json")->check(CLI::IsMember({"text", "json"}));
  review->add_option("--ruleset", r.ruleset, "use this ruleset (reference or file)");
  review->add_option("--from", r.from, "input format (default: by file name and content)")
      ->check(CLI::IsMember(FormatNames()));
  review->add_flag("--tiles", r.tiles, "write squares as tile names (A4) instead of path numbers");
  auto* table = review->add_option("--table", r.table,
                                   "exact winning chances from this solved table (scribe solve, or RoyalUr's .rgu)");
  review->add_option("--depth", r.depth,
                     absl::StrCat("chances estimated by a search this many throws deep (default ",
                                  kDefaultReviewDepth, " without --table)"))
      ->check(CLI::Range(0, kMaxSearchDepth))
      ->excludes(table);
  review->add_option("--html", r.html, "write a web page: a file for one game, a folder for a collection");
  review->add_option("--key-moves", r.key_moves, "at most this many key moves per game")->check(CLI::Range(0, 100));
  review->add_option("--threads", r.threads, "games reviewed at once (default: the cores)")->check(CLI::Range(1, 64));
}

}  // namespace scribe
