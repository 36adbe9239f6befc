// scribe review: the review of a game for its players, or of a collection
// (docs/review.md). The analysis is review/pipeline.h's; this file reads
// the files, writes the pages and prints the report.
#include "cli/review_commands.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "cli/common.h"
#include "cli/interrupt.h"
#include "cli/record_output.h"
#include "cli/review_work.h"
#include "engine/search.h"
#include "records/formats.h"
#include "records/json_record.h"
#include "review/collection.h"
#include "review/pipeline.h"
#include "review/review.h"
#include "review/review_html.h"
#include "review/review_text.h"

namespace scribe {
namespace {

// A collection's review as JSON (scribe.v1.CollectionReview): the games'
// messages, made by the reviewing threads, streamed in file order.
void PrintCollectionJson(const std::vector<FileWork>& work, const CollectionReview& summary) {
  JsonMessageStream json(std::cout, v1::CollectionReview::descriptor()->FindFieldByName("games"));
  json.Begin(v1::CollectionReview());
  for (const FileWork& w : work) {
    for (size_t k = 0; k < w.protos.size(); ++k) {
      if (w.games[k]) json.Add(w.protos[k]);
    }
  }
  CollectionReview rest;
  rest.players = summary.players;
  rest.exact = summary.exact;
  rest.evaluator = summary.evaluator;
  json.End(CollectionToProto(rest));
  std::cout << "\n";
}

// Every file judged and every legal record reviewed over `threads`
// threads (review/pipeline.h RunCollection), with a progress bar that
// counts records (one file) or files.
void ReviewAll(Reviewer& reviewer, std::vector<FileWork>& work, int threads, size_t records, const StopCheck& stop) {
  const bool by_record = work.size() == 1;
  Progress progress(reviewer.collection() ? (by_record ? records : work.size()) : 0);
  CollectionWork run{
      .inputs = work.size(),
      .open = [&](size_t f) { return reviewer.Judge(f); },
      .analyze = [&](size_t f, size_t k) { reviewer.Review(f, k); },
      .progress =
          [&](bool record, bool input_done) {
            if (by_record ? record : input_done) progress.Step();
          },
  };
  // Stopped by Ctrl-C: the caller says so.
  (void)RunCollection(run, threads, stop);
  progress.Finish();
}

int CmdReview(const ReviewCommandOptions& o) {
  auto io = ReaderOptions(o.ruleset);
  if (!io.ok()) return RulesetError(io.status());
  std::vector<PathEntry> entries;
  bool all_read = ExpandPaths(o.files, &entries);
  bool collection = entries.size() > 1;
  for (const std::string& f : o.files) {
    struct stat st;
    if (stat(f.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) collection = true;
  }
  const int threads = o.threads > 0 ? o.threads : DefaultAnalysisThreads();
  std::vector<FileWork> work(entries.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    work[i].path = entries[i].path;
    work[i].read_error = entries[i].error;  // a folder's entry the walk could not take
  }
  // Ctrl-C stops the review within milliseconds (the pages written so far
  // stay; no report is printed).
  const StopCheck stop = StopOnInterrupt();
  Reviewer reviewer(o, *io, stop, &work);

  // One file is judged first, to know whether it holds one game or several.
  size_t records = 0;
  if (work.size() == 1) {
    reviewer.Judge(0);
    records = work[0].file.records.size();
    collection = collection || records > 1;
  }
  reviewer.SetCollection(collection);
  if (collection && !o.html.empty() && mkdir(o.html.c_str(), 0777) != 0 && errno != EEXIST) {
    std::cerr << "scribe: review: cannot make the folder " << TerminalText(o.html) << ": " << strerror(errno)
              << "\n";
    return kExitUsage;
  }
  ReviewAll(reviewer, work, threads, records, stop);
  if (Interrupted()) {
    std::cerr << "scribe: review: interrupted; no report printed\n";
    return kExitInterrupted;
  }

  bool all_valid = true;
  std::vector<CollectionGame> games = Gather(work, &all_read, &all_valid);
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
  CollectionReview summary = SummarizeCollection(std::move(games));
  if (!o.html.empty() && !WriteOutputFile("review", o.html + "/index.html", CollectionPage(summary))) {
    return kExitUsage;
  }
  if (o.format == "json") {
    PrintCollectionJson(work, summary);
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
