#include "cli/review_work.h"

#include <cctype>
#include <iostream>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "cli/common.h"
#include "cli/record_output.h"
#include "review/review_html.h"

namespace scribe {
namespace {

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

// The analysis of a review: chances from --table, else a search of --depth
// (default kDefaultReviewDepth), and the players' review.
AnalysisOptions Options(const ReviewCommandOptions& o, const StopCheck& stop) {
  AnalysisOptions options;
  options.chances = std::make_shared<const EvaluatorSource>([&o](const std::shared_ptr<const Rules>& rules) {
    return TableOrSearch(o.table, o.depth >= 0 ? o.depth : kDefaultReviewDepth, rules);
  });
  options.review_options.key_moves = o.key_moves;
  options.score_moves = false;  // (a review shows values, not the heuristic's scores)
  options.stop = stop;
  return options;
}

}  // namespace

Reviewer::Reviewer(const ReviewCommandOptions& o, const RulesPolicy& io, const StopCheck& stop,
                   std::vector<FileWork>* work)
    : o_(o),
      io_(io),
      stop_(stop),
      work_(*work),
      analyzer_(Options(o, stop)) {}

std::vector<size_t> Reviewer::Judge(size_t f) {
  FileWork& w = work_[f];
  if (!w.judged) {
    w.judged = true;
    std::string text;
    if (!w.read_error.empty() || !ReadFile(w.path, &text, &w.read_error)) return {};
    w.file = JudgeFile(w.path, text, InputFormat(o_.from, w.path, text), io_,
                       {.referee = {.build_replay = false, .keep_positions = true},
                        .limits = {.stop = stop_}});
    w.games.resize(w.file.records.size());
  }
  if (collection_ && o_.format == "json") w.protos.resize(w.file.records.size());
  std::vector<size_t> legal;
  for (size_t k = 0; k < w.file.records.size(); ++k) {
    if (w.file.records[k].verdict.valid()) legal.push_back(k);
  }
  return legal;
}

void Reviewer::Review(size_t f, size_t k) {
  FileWork& w = work_[f];
  JudgedRecord judged = std::move(w.file.records[k]);
  w.file.records[k] = JudgedRecord();
  const std::string source = w.file.entries > 1 ? absl::StrCat(w.path, "#", judged.index + 1) : w.path;
  auto analysis = analyzer_.Analyze(judged);
  if (!analysis.ok()) {
    // No evaluator for the rules (a table of other rules) is a usage error.
    if (analysis.status().code() == absl::StatusCode::kFailedPrecondition) usage_error_ = true;
    return Failed(analysis.status());
  }
  CollectionGame g;
  g.source = source;
  const auto& tags = judged.record.tags();
  if (auto it = tags.find("Event"); it != tags.end()) g.event = it->second;
  if (auto it = tags.find("Date"); it != tags.end()) g.date = it->second;
  g.rules = analysis->annotated.rules;
  if (!o_.html.empty() && !WritePage(judged, *analysis, &g)) return;
  g.review = *std::move(analysis->review);
  // A collection's JSON is made game by game, each by the thread that
  // reviewed it.
  if (!w.protos.empty()) w.protos[k] = CollectionGameToProto(g);
  w.games[k] = std::move(g);
}

bool Reviewer::WritePage(const JudgedRecord& judged, const Analysis& analysis, CollectionGame* g) {
  std::string path = o_.html;
  PageOptions page_options{.style = Style(), .index_link = "", .source = g->source};
  if (collection_) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      g->page = PageName(g->source, &taken_);
    }
    path = absl::StrCat(o_.html, "/", g->page);
    page_options.index_link = "index.html";
  }
  auto page = ReviewPage(judged.record, analysis.annotated, *analysis.review, page_options);
  if (!page.ok()) {
    Failed(page.status());
    return false;
  }
  if (!WriteOutputFile("review", path, *page)) write_failed_ = true;
  return true;
}

void Reviewer::Failed(const absl::Status& status) {
  std::lock_guard<std::mutex> lock(mu_);
  if (first_error_.empty()) first_error_ = std::string(status.message());
}

std::vector<CollectionGame> Gather(std::vector<FileWork>& work, bool* all_read, bool* all_valid) {
  std::vector<CollectionGame> games;
  for (FileWork& w : work) {
    if (!w.read_error.empty()) {
      std::cerr << "scribe: " << TerminalText(w.read_error) << "\n";
      *all_read = false;
      continue;
    }
    for (const v1::Finding& finding : w.file.report.findings()) std::cerr << FindingToText(w.path, finding) << "\n";
    if (w.file.entries == 0 && w.file.report.findings_size() == 0) {
      std::cerr << "scribe: review: " << TerminalText(w.path) << ": no records\n";
      *all_valid = false;
    }
    *all_valid = *all_valid && w.file.report.valid();
    for (std::optional<CollectionGame>& g : w.games) {
      if (g) games.push_back(std::move(*g));
    }
  }
  return games;
}

}  // namespace scribe
