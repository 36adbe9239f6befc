#include "service/service.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/bots.h"
#include "engine/evaluator.h"
#include "engine/position.h"
#include "engine/ruleset.h"
#include "engine/search.h"
#include "review/annotate.h"
#include "review/annotation_text.h"
#include "records/formats.h"
#include "records/position_string.h"
#include "records/referee.h"
#include "records/utf8.h"
#include "service/errors.h"

namespace scribe::service {

// Admission control and metrics for one call: refuses at once with
// RESOURCE_EXHAUSTED when the server is full, and records the outcome.
class Admission {
 public:
  Admission(ScribeServiceImpl* service, const char* method)
      : service_(service), method_(method), start_(std::chrono::steady_clock::now()) {
    admitted_ = service_->in_flight_.fetch_add(1) < service_->options_.max_concurrent_calls;
    if (!admitted_) service_->metrics_->RecordShed(method_);
  }
  ~Admission() { service_->in_flight_.fetch_sub(1); }
  bool admitted() const { return admitted_; }
  grpc::Status Finish(grpc::Status status) {
    const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(
                            std::chrono::steady_clock::now() - start_)
                            .count();
    service_->metrics_->Record(method_, status.error_code(), micros);
    return status;
  }
  grpc::Status Shed() {
    return Finish(Error(grpc::StatusCode::RESOURCE_EXHAUSTED,
                        "the server is at its limit of concurrent calls; retry with backoff", "OVERLOADED"));
  }

 private:
  ScribeServiceImpl* service_;
  const char* method_;
  std::chrono::steady_clock::time_point start_;
  bool admitted_;
};

namespace {

constexpr int kDefaultPageSize = 50;
constexpr int kMaxPageSize = 1000;
// A search's depth when a request names none (capped by the server's).
constexpr int kDefaultSearchDepth = 2;
// The ErrorInfo reason of FAILED_PRECONDITION for exact values (or the
// perfect opponent) without a loaded table.
constexpr char kTableNotLoaded[] = "TABLE_NOT_LOADED";

std::optional<Format> ToFormat(v1::RecordFormat f) {
  switch (f) {
    case v1::RECORD_FORMAT_TSN: return FormatFromName("tsn");
    case v1::RECORD_FORMAT_JSON: return FormatFromName("json");
    case v1::RECORD_FORMAT_RGN: return FormatFromName("rgn");
    case v1::RECORD_FORMAT_ROYALUR_JSON: return FormatFromName("royalur-json");
    default: return std::nullopt;
  }
}

// The rules a selector names. Never reads a file: a reference is resolved
// among the built-in presets only.
std::shared_ptr<const Rules> ResolveSelector(const v1::RulesetSelector& selector, const std::string& field,
                                             bool required, std::vector<FieldViolation>* violations) {
  std::vector<FieldProblem> problems;
  absl::StatusOr<std::shared_ptr<const Rules>> rules;
  std::string where;
  switch (selector.kind_case()) {
    case v1::RulesetSelector::kReference:
      where = absl::StrCat(field, ".reference");
      rules = LoadRuleset(selector.reference(), &problems);
      break;
    case v1::RulesetSelector::kText:
      where = absl::StrCat(field, ".text");
      rules = LoadRulesetText(selector.text(), &problems);
      break;
    default:
      if (required) violations->push_back({field, "a ruleset is required: a reference such as \"finkel\" or a text"});
      return nullptr;
  }
  if (rules.ok()) return *rules;
  if (problems.empty()) violations->push_back({where, std::string(rules.status().message())});
  for (const FieldProblem& p : problems) {
    violations->push_back({where, p.field.empty() ? p.message : absl::StrCat(p.field, ": ", p.message)});
  }
  return nullptr;
}

// A record input, read: the records and the findings of reading, or
// violations when the request itself is unusable.
struct Input {
  Format format = Format::kJson;
  std::string text;
  RecordIo io;
  bool structured = false;
  v1::GameRecord record;
};

bool ReadInput(const v1::RecordInput& in, const std::string& field, const ServiceOptions& options, Input* out,
               std::vector<FieldViolation>* violations) {
  const size_t before = violations->size();
  if (in.has_ruleset()) {
    out->io.rules = ResolveSelector(in.ruleset(), absl::StrCat(field, ".ruleset"), false, violations);
    if (out->io.rules) {
      out->io.ruleset = out->io.rules->ruleset.id().empty() ? std::string("custom") : out->io.rules->ruleset.id();
    }
  }
  switch (in.kind_case()) {
    case v1::RecordInput::kText:
      if (static_cast<int64_t>(in.text().size()) > options.max_record_bytes) {
        violations->push_back({absl::StrCat(field, ".text"),
                               absl::StrCat(in.text().size(), " bytes is more than the ", options.max_record_bytes,
                                            " this server accepts")});
        break;
      }
      out->text = in.text();
      if (in.format() == v1::RECORD_FORMAT_UNSPECIFIED) {
        out->format = DetectFormat("", out->text);
      } else if (auto f = ToFormat(in.format())) {
        out->format = *f;
      } else {
        violations->push_back({absl::StrCat(field, ".format"), "this server does not read that format"});
      }
      break;
    case v1::RecordInput::kRecord:
      out->structured = true;
      out->record = in.record();
      if (out->record.actions_size() > options.max_record_actions) {
        violations->push_back({absl::StrCat(field, ".record.actions"),
                               absl::StrCat(out->record.actions_size(), " actions is more than the ",
                                            options.max_record_actions, " this server accepts")});
      }
      break;
    default:
      violations->push_back({field, "a record is required: text, or a structured record"});
  }
  return violations->size() == before;
}

// The findings of a structured record or of a text, as a file report;
// `entries` (when given) is set to how many records the input holds.
v1::FileReport Validate(const Input& input, int* entries = nullptr) {
  if (!input.structured) return ValidateText("", input.text, input.format, input.io, entries);
  if (entries != nullptr) *entries = 1;
  v1::FileReport report;
  RefereeOptions options;
  options.build_replay = false;
  v1::GameRecord record = input.record;
  if (record.ruleset().empty() && !input.io.ruleset.empty()) record.set_ruleset(input.io.ruleset);
  RefereeResult result = Referee(record, input.io.rules, options);
  for (v1::Finding& f : result.findings) *report.add_findings() = std::move(f);
  report.set_valid(report.findings_size() == 0);
  return report;
}

// The path of the first string field of a message (nested ones included)
// that is not UTF-8, empty when there is none.
std::string FirstNonUtf8Field(const google::protobuf::Message& message) {
  namespace pb = google::protobuf;
  const pb::Reflection* r = message.GetReflection();
  std::vector<const pb::FieldDescriptor*> fields;
  r->ListFields(message, &fields);
  for (const pb::FieldDescriptor* f : fields) {
    const int n = f->is_repeated() ? r->FieldSize(message, f) : 1;
    for (int i = 0; i < n; ++i) {
      const std::string where = f->is_repeated() ? absl::StrCat(f->name(), "[", i, "]") : f->name();
      if (f->type() == pb::FieldDescriptor::TYPE_STRING) {
        std::string scratch;
        const std::string& value = f->is_repeated() ? r->GetRepeatedStringReference(message, f, i, &scratch)
                                                    : r->GetStringReference(message, f, &scratch);
        if (!IsValidUtf8(value)) return where;
      } else if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
        const pb::Message& sub = f->is_repeated() ? r->GetRepeatedMessage(message, f, i) : r->GetMessage(message, f);
        const std::string inner = FirstNonUtf8Field(sub);
        if (!inner.empty()) return absl::StrCat(where, ".", inner);
      }
    }
  }
  return "";
}

// The records of an input that must be legal (replay, convert): violations
// naming the first finding otherwise.
bool LegalRecords(const Input& input, const std::string& field, std::vector<v1::GameRecord>* records,
                  std::vector<FieldViolation>* violations) {
  const v1::FileReport report = Validate(input);
  if (!report.valid()) {
    for (const v1::Finding& f : report.findings()) {
      std::string where;
      if (f.has_line()) where = absl::StrCat("line ", f.line(), ":", f.column(), ": ");
      if (f.has_action_index()) absl::StrAppend(&where, "action ", f.action_index(), ": ");
      violations->push_back({field, absl::StrCat(where, "[", f.code(), "] ", f.message())});
    }
    return false;
  }
  if (input.structured) {
    records->push_back(input.record);
    if (records->back().ruleset().empty()) records->back().set_ruleset(input.io.ruleset);
  } else {
    ParsedRecords parsed = ReadRecords(input.format, input.text, input.io);
    for (v1::GameRecord& r : parsed.records) {
      if (r.ruleset().empty()) r.set_ruleset(input.io.ruleset);
      records->push_back(std::move(r));
    }
  }
  // What is sent back (records, texts written from them) is proto3
  // strings, which a client's parser refuses unless they are UTF-8: a tag
  // value or comment in another encoding is refused here, not sent.
  const size_t before = violations->size();
  for (size_t k = 0; k < records->size(); ++k) {
    const std::string where = FirstNonUtf8Field((*records)[k]);
    if (!where.empty()) {
      violations->push_back({absl::StrCat(field, input.structured ? ".record" : ".text"),
                             absl::StrCat(records->size() > 1 ? absl::StrCat("record ", k, ": ") : std::string(),
                                          where, " is not UTF-8 text (send the record as UTF-8)")});
    }
  }
  return violations->size() == before;
}

// Resolves the ruleset and position of a referee request.
bool RefereeInputs(const v1::RulesetSelector& selector, const std::string& position, int roll,
                   std::shared_ptr<const Rules>* rules, Position* pos, std::vector<FieldViolation>* violations) {
  *rules = ResolveSelector(selector, "ruleset", true, violations);
  if (*rules == nullptr) return false;
  if (position.empty()) {
    *pos = StartPosition(**rules);
  } else {
    auto parsed = ParsePositionString(**rules, position);
    if (!parsed.ok()) {
      violations->push_back({"position", std::string(parsed.status().message())});
      return false;
    }
    *pos = *parsed;
  }
  if (!(*rules)->CanRoll(roll)) {
    std::vector<std::string> rolls;
    for (const RollOutcome& o : (*rules)->outcomes) rolls.push_back(absl::StrCat(o.roll));
    violations->push_back({"roll", absl::StrCat(roll, " is not a throw these dice can give (",
                                                absl::StrJoin(rolls, ", "), ")")});
    return false;
  }
  return true;
}

// A referee call (ListLegalMoves, MakeMove): admission, the ruleset and
// position of the request resolved, then `body` with them.
template <typename Request, typename Body>
grpc::Status RefereeCall(ScribeServiceImpl* service, const char* method, const Request& request, Body body) {
  Admission admission(service, method);
  if (!admission.admitted()) return admission.Shed();
  std::vector<FieldViolation> violations;
  std::shared_ptr<const Rules> rules;
  Position pos;
  if (!RefereeInputs(request.ruleset(), request.position(), request.roll(), &rules, &pos, &violations)) {
    return admission.Finish(BadRequest(violations));
  }
  return admission.Finish(body(*rules, pos));
}

// An Evaluation of a request, checked.
struct EvaluationChoice {
  v1::EvaluationMode mode = v1::EVALUATION_MODE_UNSPECIFIED;
  int depth = kDefaultSearchDepth;
};

// Violations under `field` for a mode this server does not know or a depth
// past its cap.
EvaluationChoice CheckEvaluation(const v1::Evaluation& evaluation, const std::string& field,
                                 const ServiceOptions& options, std::vector<FieldViolation>* violations) {
  EvaluationChoice choice;
  choice.mode = evaluation.mode();
  if (!v1::EvaluationMode_IsValid(evaluation.mode())) {
    violations->push_back({absl::StrCat(field, ".mode"),
                           absl::StrCat(evaluation.mode(), " is not an evaluation mode (EVALUATION_MODE_UNSPECIFIED, "
                                                           "EVALUATION_MODE_EXACT, EVALUATION_MODE_SEARCH)")});
  }
  choice.depth = std::min(kDefaultSearchDepth, options.max_search_depth);
  if (evaluation.has_depth()) {
    if (evaluation.depth() < 0 || evaluation.depth() > options.max_search_depth) {
      violations->push_back({absl::StrCat(field, ".depth"),
                             absl::StrCat(evaluation.depth(), " is not a depth this server searches (0 to ",
                                          options.max_search_depth, " throws)")});
    } else {
      choice.depth = evaluation.depth();
    }
  }
  return choice;
}

std::string RulesName(const Rules& rules) {
  return absl::StrCat("ruleset ", rules.ruleset.id().empty() ? std::string("custom") : rules.ruleset.id(),
                      " (digest ", rules.digest, ")");
}

// FAILED_PRECONDITION: `what` needs a table of `rules` and none is loaded.
grpc::Status NoTable(const Rules& rules, absl::string_view what) {
  return Error(grpc::StatusCode::FAILED_PRECONDITION,
               absl::StrCat(what, " need a solved table of ", RulesName(rules),
                            ", and this server has none loaded; ask for a search's estimate instead"),
               kTableNotLoaded);
}

// The evaluator a checked Evaluation names for `rules`: the loaded table
// of the rules, or a search; null when exact values are demanded and no
// table is loaded.
std::shared_ptr<const Evaluator> ChooseEvaluator(const ScribeServiceImpl& service, const EvaluationChoice& choice,
                                                 const std::shared_ptr<const Rules>& rules) {
  if (choice.mode != v1::EVALUATION_MODE_SEARCH) {
    if (std::shared_ptr<const Evaluator> table = service.TableFor(rules->digest)) return table;
    if (choice.mode == v1::EVALUATION_MODE_EXACT) return nullptr;
  }
  return std::make_shared<const SearchEvaluator>(rules, choice.depth);
}

v1::Move ToProtoMove(const Move& m) {
  v1::Move out;
  out.set_from(m.from);
  out.set_to(m.to);
  return out;
}

}  // namespace

ScribeServiceImpl::ScribeServiceImpl(ServiceOptions options, Metrics* metrics)
    : options_(std::move(options)), metrics_(metrics) {
  for (const std::shared_ptr<const Evaluator>& table : options_.tables) {
    if (table != nullptr) tables_.emplace(table->rules().digest, table);
  }
}

std::shared_ptr<const Evaluator> ScribeServiceImpl::TableFor(const std::string& digest) const {
  const auto it = tables_.find(digest);
  return it == tables_.end() ? nullptr : it->second;
}

grpc::Status ScribeServiceImpl::ValidateRecord(grpc::ServerContext*, const v1::ValidateRecordRequest* request,
                                               v1::ValidateRecordResponse* response) {
  Admission admission(this, "ValidateRecord");
  if (!admission.admitted()) return admission.Shed();
  std::vector<FieldViolation> violations;
  Input input;
  if (!ReadInput(request->input(), "input", options_, &input, &violations)) {
    return admission.Finish(BadRequest(violations));
  }
  int entries = 0;
  v1::FileReport report = Validate(input, &entries);
  response->set_valid(report.valid());
  response->set_records(entries);
  for (v1::Finding& f : *report.mutable_findings()) *response->add_findings() = std::move(f);
  return admission.Finish(grpc::Status::OK);
}

grpc::Status ScribeServiceImpl::ValidateRecords(
    grpc::ServerContext* context,
    grpc::ServerReaderWriter<v1::ValidateRecordsResponse, v1::ValidateRecordsRequest>* stream) {
  Admission admission(this, "ValidateRecords");
  if (!admission.admitted()) return admission.Shed();
  v1::ValidateRecordsRequest request;
  while (stream->Read(&request)) {
    if (context->IsCancelled()) {
      return admission.Finish(Error(grpc::StatusCode::CANCELLED, "the client cancelled the stream", "CANCELLED"));
    }
    v1::ValidateRecordsResponse response;
    response.set_id(request.id());
    std::vector<FieldViolation> violations;
    Input input;
    if (!ReadInput(request.input(), "input", options_, &input, &violations)) {
      // Garbage in the stream still gets its one result.
      response.set_valid(false);
      for (const FieldViolation& v : violations) {
        v1::Finding* f = response.add_findings();
        f->set_code("bad-request");
        f->set_message(absl::StrCat(v.field, ": ", v.description));
      }
    } else {
      v1::FileReport report = Validate(input);
      response.set_valid(report.valid());
      for (v1::Finding& f : *report.mutable_findings()) *response.add_findings() = std::move(f);
    }
    if (!stream->Write(response)) {
      return admission.Finish(Error(grpc::StatusCode::CANCELLED, "the client stopped reading", "CANCELLED"));
    }
  }
  return admission.Finish(grpc::Status::OK);
}

grpc::Status ScribeServiceImpl::AnnotateRecord(grpc::ServerContext* context, const v1::AnnotateRecordRequest* request,
                                               v1::AnnotateRecordResponse* response) {
  Admission admission(this, "AnnotateRecord");
  if (!admission.admitted()) return admission.Shed();
  std::vector<FieldViolation> violations;
  Input input;
  std::vector<v1::GameRecord> records;
  std::optional<Format> text_format;
  if (request->text_format() != v1::RECORD_FORMAT_UNSPECIFIED) {
    text_format = ToFormat(request->text_format());
    if (!text_format) violations.push_back({"text_format", "this server does not write that format"});
  }
  std::optional<EvaluationChoice> chances;
  if (request->has_winning_chances()) {
    chances = CheckEvaluation(request->winning_chances(), "winning_chances", options_, &violations);
  }
  if (!ReadInput(request->input(), "input", options_, &input, &violations) || !violations.empty() ||
      !LegalRecords(input, "input", &records, &violations)) {
    return admission.Finish(BadRequest(violations));
  }
  std::vector<AnnotatedRecord> annotated;
  for (const v1::GameRecord& record : records) {
    auto one = scribe::AnnotateRecord(record, input.io.rules);
    if (!one.ok()) return admission.Finish(BadRequest({{"input", std::string(one.status().message())}}));
    annotated.push_back(*std::move(one));
  }
  if (chances) {
    // Each record's evaluator (records may be under different rules), and
    // the work a search would do, bounded before any of it is done.
    std::vector<std::shared_ptr<const Evaluator>> evaluators;
    int64_t searched = 0;
    for (const AnnotatedRecord& a : annotated) {
      evaluators.push_back(ChooseEvaluator(*this, *chances, a.rules));
      if (evaluators.back() == nullptr) return admission.Finish(NoTable(*a.rules, "exact values"));
      if (!evaluators.back()->exact()) searched += static_cast<int64_t>(a.actions.size());
    }
    if (searched > options_.max_search_actions) {
      return admission.Finish(BadRequest(
          {{"winning_chances",
            absl::StrCat(searched, " actions are more than the ", options_.max_search_actions,
                         " this server annotates with a search's winning chances in one call; send fewer records, "
                         "or ask for exact values of rules it has a table of")}}));
    }
    for (size_t k = 0; k < records.size(); ++k) {
      // A search is long: a client that gave up stops it between records.
      if (context != nullptr && context->IsCancelled()) {
        return admission.Finish(Error(grpc::StatusCode::CANCELLED, "the client cancelled the call", "CANCELLED"));
      }
      const absl::Status added = AddWinningChances(records[k], *evaluators[k], &annotated[k]);
      if (!added.ok()) return admission.Finish(FromAbsl(added));
    }
  }
  std::vector<v1::GameRecord> annotated_records;
  for (size_t k = 0; k < records.size(); ++k) {
    *response->add_annotations() = AnnotationToProto(annotated[k], records[k].ruleset());
    annotated_records.push_back(WithAnnotations(records[k], annotated[k]));
  }
  if (text_format) {
    auto text = WriteRecords(*text_format, annotated_records, input.io);
    if (!text.ok()) return admission.Finish(BadRequest({{"text_format", std::string(text.status().message())}}));
    response->set_text(*std::move(text));
  }
  return admission.Finish(grpc::Status::OK);
}

grpc::Status ScribeServiceImpl::ReplayRecord(grpc::ServerContext*, const v1::ReplayRecordRequest* request,
                                             v1::ReplayRecordResponse* response) {
  Admission admission(this, "ReplayRecord");
  if (!admission.admitted()) return admission.Shed();
  std::vector<FieldViolation> violations;
  Input input;
  std::vector<v1::GameRecord> records;
  if (!ReadInput(request->input(), "input", options_, &input, &violations) ||
      !LegalRecords(input, "input", &records, &violations)) {
    return admission.Finish(BadRequest(violations));
  }
  for (const v1::GameRecord& record : records) {
    RefereeResult result = Referee(record, input.io.rules);
    *response->add_replays() = std::move(result.replay);
  }
  return admission.Finish(grpc::Status::OK);
}

grpc::Status ScribeServiceImpl::ConvertRecord(grpc::ServerContext*, const v1::ConvertRecordRequest* request,
                                              v1::ConvertRecordResponse* response) {
  Admission admission(this, "ConvertRecord");
  if (!admission.admitted()) return admission.Shed();
  std::vector<FieldViolation> violations;
  Input input;
  std::vector<v1::GameRecord> records;
  const std::optional<Format> to = ToFormat(request->to());
  if (!to) violations.push_back({"to", "the format to convert to is required (TSN, JSON, RGN, ROYALUR_JSON)"});
  if (!ReadInput(request->input(), "input", options_, &input, &violations) || !to ||
      !LegalRecords(input, "input", &records, &violations)) {
    return admission.Finish(BadRequest(violations));
  }
  RecordIo io = input.io;
  io.tile_names = request->tile_names();
  auto text = WriteRecords(*to, records, io);
  if (!text.ok()) return admission.Finish(BadRequest({{"to", std::string(text.status().message())}}));
  response->set_text(*std::move(text));
  for (v1::GameRecord& r : records) *response->add_records() = std::move(r);
  return admission.Finish(grpc::Status::OK);
}

grpc::Status ScribeServiceImpl::ListRulesets(grpc::ServerContext*, const v1::ListRulesetsRequest* request,
                                             v1::ListRulesetsResponse* response) {
  Admission admission(this, "ListRulesets");
  if (!admission.admitted()) return admission.Shed();
  const auto& presets = Presets();
  std::vector<FieldViolation> violations;
  if (request->page_size() < 0) violations.push_back({"page_size", "must not be negative"});
  int start = 0;
  if (!request->page_token().empty() &&
      (!absl::SimpleAtoi(request->page_token(), &start) || start < 0 || start > static_cast<int>(presets.size()))) {
    violations.push_back({"page_token", "not a token this server gave"});
  }
  if (!violations.empty()) return admission.Finish(BadRequest(violations));
  const int size = request->page_size() == 0 ? kDefaultPageSize : std::min(request->page_size(), kMaxPageSize);
  const int end = std::min<int>(start + size, static_cast<int>(presets.size()));
  for (int i = start; i < end; ++i) {
    const PresetInfo& p = presets[i];
    v1::RulesetSummary* s = response->add_rulesets();
    s->set_id(p.id);
    for (const std::string& a : p.aliases) s->add_aliases(a);
    s->set_title(p.title);
    s->set_source(p.source);
    auto rules = LoadRuleset(p.id);
    if (rules.ok()) s->set_digest((*rules)->digest);
  }
  if (end < static_cast<int>(presets.size())) response->set_next_page_token(absl::StrCat(end));
  return admission.Finish(grpc::Status::OK);
}

grpc::Status ScribeServiceImpl::GetRuleset(grpc::ServerContext*, const v1::GetRulesetRequest* request,
                                           v1::GetRulesetResponse* response) {
  Admission admission(this, "GetRuleset");
  if (!admission.admitted()) return admission.Shed();
  const v1::RulesetSelector& selector = request->ruleset();
  // Getting a preset that does not exist is NOT_FOUND; a broken reference
  // or text is a bad request.
  if (selector.kind_case() == v1::RulesetSelector::kReference) {
    auto rules = LoadRuleset(selector.reference());
    if (!rules.ok() && rules.status().code() == absl::StatusCode::kNotFound) {
      return admission.Finish(Error(grpc::StatusCode::NOT_FOUND, std::string(rules.status().message()),
                                    "RULESET_NOT_FOUND"));
    }
  }
  std::vector<FieldViolation> violations;
  auto rules = ResolveSelector(selector, "ruleset", true, &violations);
  if (rules == nullptr) return admission.Finish(BadRequest(violations));
  *response->mutable_ruleset() = rules->ruleset;
  response->set_digest(rules->digest);
  response->set_text(RulesetToText(rules->ruleset));
  return admission.Finish(grpc::Status::OK);
}

grpc::Status ScribeServiceImpl::ListLegalMoves(grpc::ServerContext*, const v1::ListLegalMovesRequest* request,
                                               v1::ListLegalMovesResponse* response) {
  return RefereeCall(this, "ListLegalMoves", *request, [&](const Rules& rules, Position pos) {
    MoveList moves;
    LegalMoves(rules, pos, request->roll(), &moves);
    for (const Move& m : moves) {
      v1::Move* out = response->add_moves();
      out->set_from(m.from);
      out->set_to(m.to);
    }
    response->set_player(ToPlayer(pos.to_move));
    return grpc::Status::OK;
  });
}

grpc::Status ScribeServiceImpl::MakeMove(grpc::ServerContext*, const v1::MakeMoveRequest* request,
                                         v1::MakeMoveResponse* response) {
  return RefereeCall(this, "MakeMove", *request, [&](const Rules& rules, Position pos) {
    if (IsOver(rules, pos)) {
      return BadRequest({{"position", "the game is over: no more moves"}});
    }
    MoveList legal;
    LegalMoves(rules, pos, request->roll(), &legal);
    if (!request->has_move()) {
      if (!legal.empty()) {
        return BadRequest({{"move", absl::StrCat("a move is legal, so the throw cannot pass: expected one of ",
                                                 DescribeMoves(legal))}});
      }
      PassTurn(&pos);
    } else {
      const v1::Move& mv = request->move();
      bool found = false;
      Move chosen;
      for (const Move& m : legal) {
        if (m.from == mv.from() && m.to == mv.to() && mv.has_from() && mv.has_to()) {
          found = true;
          chosen = m;
        }
      }
      if (!found) {
        return BadRequest(
            {{"move", absl::StrCat(mv.from(), "->", mv.to(), " is not legal for a throw of ", request->roll(), ": ",
                                   legal.empty() ? std::string("no move is; send no move to pass")
                                                 : absl::StrCat("expected one of ", DescribeMoves(legal)))}});
      }
      const MoveResult result = ApplyMove(rules, &pos, chosen);
      response->set_captured(result.captured);
      response->set_extra_roll(result.extra_roll);
      response->set_placed(result.placed);
    }
    response->set_position(PositionToString(rules, pos));
    if (auto winner = Winner(rules, pos)) {
      response->set_winner(ToPlayer(*winner));
    } else {
      response->set_next_player(ToPlayer(pos.to_move));
    }
    return grpc::Status::OK;
  });
}

grpc::Status ScribeServiceImpl::SuggestMoves(grpc::ServerContext*, const v1::SuggestMovesRequest* request,
                                             v1::SuggestMovesResponse* response) {
  Admission admission(this, "SuggestMoves");
  if (!admission.admitted()) return admission.Shed();
  std::vector<FieldViolation> violations;
  std::shared_ptr<const Rules> rules;
  Position pos;
  if (RefereeInputs(request->ruleset(), request->position(), request->roll(), &rules, &pos, &violations) &&
      IsOver(*rules, pos)) {
    violations.push_back({"position", "the game is over: no more moves"});
  }
  const EvaluationChoice choice = CheckEvaluation(request->evaluation(), "evaluation", options_, &violations);
  std::optional<BotSpec> strength;
  if (!request->strength().empty()) {
    auto spec = ParseBotSpec(request->strength());
    if (!spec.ok()) {
      // The parser knows the deepest search there is, not this server's.
      std::string description(spec.status().message());
      if (options_.max_search_depth < kMaxSearchDepth) {
        absl::StrAppend(&description, " (this server searches up to search:", options_.max_search_depth, ")");
      }
      violations.push_back({"strength", description});
    } else if (spec->kind == BotSpec::Kind::kSearch && spec->depth > options_.max_search_depth) {
      violations.push_back({"strength", absl::StrCat(request->strength(), " searches deeper than this server does (",
                                                     "search:0 to search:", options_.max_search_depth, ")")});
    } else {
      strength = *spec;
    }
  }
  if (!violations.empty()) return admission.Finish(BadRequest(violations));

  const std::shared_ptr<const Evaluator> evaluator = ChooseEvaluator(*this, choice, rules);
  if (evaluator == nullptr) return admission.Finish(NoTable(*rules, "exact values"));
  std::unique_ptr<Bot> bot;
  if (strength) {
    const std::shared_ptr<const Evaluator> table = TableFor(rules->digest);
    if (strength->kind == BotSpec::Kind::kPerfect && table == nullptr) {
      return admission.Finish(NoTable(*rules, "the perfect opponent's moves"));
    }
    auto made = MakeBot(*strength, rules, table, request->has_seed() ? request->seed() : 1);
    if (!made.ok()) return admission.Finish(BadRequest({{"strength", std::string(made.status().message())}}));
    bot = *std::move(made);
  }

  const int roll = request->roll();
  const std::vector<ValuedMove> ranked = RankMovesByValue(*evaluator, pos, roll);
  response->set_player(ToPlayer(pos.to_move));
  for (const ValuedMove& m : ranked) {
    v1::SuggestedMove* out = response->add_moves();
    *out->mutable_move() = ToProtoMove(m.move);
    out->set_chance(m.value);
  }
  if (ranked.empty()) response->set_pass_chance(ValueAfterPass(*evaluator, pos));
  response->set_exact(evaluator->exact());
  response->set_evaluator(evaluator->name());
  response->set_ruleset_digest(rules->digest);
  if (bot != nullptr) {
    response->set_strength(bot->name());
    if (const std::optional<Move> chosen = bot->Choose(pos, roll)) {
      *response->mutable_chosen_move() = ToProtoMove(*chosen);
    }
  }
  return admission.Finish(grpc::Status::OK);
}

}  // namespace scribe::service
