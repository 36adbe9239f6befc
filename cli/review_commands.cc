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
#include <iostream>
#include <memory>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "analysis/table.h"
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
    std::shared_ptr<const Evaluator> made;
    if (!o_.table.empty()) {
      auto table = TableEvaluator::Open(o_.table, rules);
      if (!table.ok()) {
        return absl::Status(table.status().code(), absl::StrCat("--table: ", table.status().message()));
      }
      made = std::move(*table);
    } else {
      made = std::make_shared<SearchEvaluator>(rules, o_.depth >= 0 ? o_.depth : kDefaultReviewDepth);
    }
    made_.push_back(made);
    return made;
  }

 private:
  const ReviewCommandOptions& o_;
  std::mutex mu_;
  std::vector<std::shared_ptr<const Evaluator>> made_;
};

// One legal record to review, and what became of it.
struct Job {
  std::string source;
  JudgedRecord judged;
  absl::StatusOr<AnnotatedRecord> annotated = absl::UnknownError("not reviewed");
  std::optional<GameReview> review;
};

void RunParallel(size_t count, int threads, const std::function<void(size_t)>& work) {
  std::atomic<size_t> next{0};
  const auto loop = [&] {
    for (size_t i = next++; i < count; i = next++) work(i);
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(loop);
  loop();
  for (std::thread& t : pool) t.join();
}

// A page file name for a game: its file's base name (without folders and
// extension, letters, digits, '-' and '_' kept), its record number when the
// file holds several, unique within the collection.
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

int CmdReview(const ReviewCommandOptions& o) {
  auto io = ReaderOptions(o.ruleset, o.tiles);
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

  // Read and judge every file; the legal records become jobs, the rest are
  // reported where they are wrong.
  std::vector<JudgedFile> judged(files.size());
  std::vector<std::string> read_errors(files.size());
  RunParallel(files.size(), threads, [&](size_t i) {
    std::string text;
    read_errors[i] = entries[i].error;  // a folder's entry the walk could not take
    if (!read_errors[i].empty() || !ReadFile(files[i], &text, &read_errors[i])) return;
    judged[i] = JudgeFile(files[i], text, InputFormat(o.from, files[i], text), *io,
                          {.keep_records = true, .referee = {.build_replay = false, .keep_positions = true}});
  });
  bool all_valid = true;
  std::vector<Job> jobs;
  for (size_t i = 0; i < files.size(); ++i) {
    if (!read_errors[i].empty()) {
      std::cerr << "scribe: " << TerminalText(read_errors[i]) << "\n";
      all_read = false;
      continue;
    }
    JudgedFile& file = judged[i];
    for (const v1::Finding& finding : file.report.findings()) std::cerr << FindingToText(files[i], finding) << "\n";
    if (file.entries == 0 && file.report.findings_size() == 0) {
      std::cerr << "scribe: review: " << TerminalText(files[i]) << ": no records\n";
      all_valid = false;
    }
    all_valid = all_valid && file.report.valid();
    collection = collection || file.records.size() > 1;
    for (JudgedRecord& r : file.records) {
      if (!r.verdict.valid()) continue;
      const std::string source = file.entries > 1 ? absl::StrCat(files[i], "#", r.index + 1) : files[i];
      jobs.push_back({source, std::move(r)});
    }
    file = JudgedFile();
  }
  if (jobs.empty()) {
    std::cerr << "scribe: review: no legal record to review\n";
    return all_read ? kExitInvalid : kExitUsage;
  }

  // Review every legal record, in parallel.
  Evaluators evaluators(o);
  ReviewOptions options;
  options.key_moves = o.key_moves;
  std::atomic<bool> usage_error{false};
  std::mutex error_mu;
  std::string first_error;
  Progress progress(collection ? jobs.size() : 0);
  std::mutex progress_mu;
  RunParallel(jobs.size(), threads, [&](size_t i) {
    Job& job = jobs[i];
    job.annotated = AnnotateRecord(job.judged);
    if (job.annotated.ok()) {
      auto evaluator = evaluators.For(job.annotated->rules);
      absl::Status s = evaluator.ok() ? AddWinningChances(job.judged.record, **evaluator, &*job.annotated)
                                      : evaluator.status();
      if (s.ok()) {
        auto review = ReviewGame(job.judged.record, *job.annotated, options);
        if (review.ok()) job.review = std::move(*review);
        s = review.status();
      }
      if (!s.ok()) {
        if (!evaluator.ok()) usage_error = true;
        std::lock_guard<std::mutex> lock(error_mu);
        if (first_error.empty()) first_error = s.ToString();
      }
    }
    std::lock_guard<std::mutex> lock(progress_mu);
    progress.Step();
  });
  progress.Finish();
  if (usage_error) {
    std::cerr << "scribe: review: " << TerminalText(first_error) << "\n";
    return kExitUsage;
  }
  if (!first_error.empty()) {
    std::cerr << "scribe: review: " << TerminalText(first_error) << "\n";
    all_valid = false;
  }

  const SquareStyle style = o.tiles ? SquareStyle::kTiles : SquareStyle::kPathNumbers;
  if (!collection) {
    Job& job = jobs.front();
    if (!job.review) return kExitInvalid;
    if (!o.html.empty()) {
      auto page = ReviewPage(job.judged.record, *job.annotated, *job.review, {.style = style, .source = job.source});
      if (!page.ok()) {
        std::cerr << "scribe: review: " << TerminalText(page.status().message()) << "\n";
        return kExitInvalid;
      }
      if (!WriteOutputFile("review", o.html, *page)) return kExitUsage;
    }
    if (o.format == "json") {
      std::cout << MessageToJson(ReviewToProto(*job.review, *job.annotated->rules)) << "\n";
    } else if (o.html.empty() || o.format == "text") {
      std::cout << TerminalText(ReviewText(*job.review, *job.annotated->rules, style), true);
    }
    return !all_read ? kExitUsage : all_valid ? kExitOk : kExitInvalid;
  }

  // A collection: every reviewed game, then the players over them.
  std::vector<CollectionGame> games;
  std::set<std::string> taken = {"index.html"};
  for (Job& job : jobs) {
    if (!job.review) continue;
    CollectionGame g;
    g.source = job.source;
    if (!o.html.empty()) g.page = PageName(job.source, &taken);
    const auto& tags = job.judged.record.tags();
    if (auto it = tags.find("Event"); it != tags.end()) g.event = it->second;
    if (auto it = tags.find("Date"); it != tags.end()) g.date = it->second;
    g.rules = job.annotated->rules;
    g.review = *job.review;
    games.push_back(std::move(g));
  }
  if (!o.html.empty()) {
    if (mkdir(o.html.c_str(), 0777) != 0 && errno != EEXIST) {
      std::cerr << "scribe: review: cannot make the folder " << TerminalText(o.html) << ": " << strerror(errno)
                << "\n";
      return kExitUsage;
    }
    std::atomic<bool> write_failed{false};
    size_t g = 0;
    std::vector<std::pair<Job*, const CollectionGame*>> pages;
    for (Job& job : jobs) {
      if (job.review) pages.push_back({&job, &games[g++]});
    }
    RunParallel(pages.size(), threads, [&](size_t i) {
      const auto [job, game] = pages[i];
      auto page = ReviewPage(job->judged.record, *job->annotated, *job->review,
                             {.style = style, .index_link = "index.html", .source = job->source});
      if (!page.ok() || !WriteOutputFile("review", absl::StrCat(o.html, "/", game->page), *page)) {
        write_failed = true;
      }
    });
    if (write_failed) return kExitUsage;
  }
  CollectionReview summary = SummarizeCollection(std::move(games));
  if (!o.html.empty() && !WriteOutputFile("review", o.html + "/index.html", CollectionPage(summary))) {
    return kExitUsage;
  }
  if (o.format == "json") {
    std::cout << MessageToJson(CollectionToProto(summary)) << "\n";
  } else {
    std::cout << TerminalText(CollectionText(summary), true);
  }
  return !all_read ? kExitUsage : all_valid ? kExitOk : kExitInvalid;
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
  auto* table = review->add_option("--table", r.table, "exact winning chances from this solved table (scribe solve)");
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
