// The handlers of the record and ruleset calls: each reads its request
// (service/requests.h), does the work with the libraries, and fills its
// response; Serve (service/service.h) wraps every one. The referee's calls
// are in service/referee_calls.cc.
#include "service/service.h"

#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/bots.h"
#include "engine/position.h"
#include "engine/ruleset.h"
#include "engine/search.h"
#include "review/annotate.h"
#include "review/annotation_text.h"
#include "review/review.h"
#include "records/formats.h"
#include "records/position_string.h"
#include "records/referee.h"
#include "service/call.h"
#include "service/chances.h"
#include "service/errors.h"
#include "service/limits.h"
#include "service/records_io.h"
#include "service/requests.h"
#include "service/responses.h"

namespace scribe::service {

namespace {

// A record input the call could not take (service/records_io.h): the call
// stopped (CANCELLED), else the violations as a BadRequest.
grpc::Status Refused(const Call& call, const absl::Status& status, const std::vector<FieldViolation>& violations) {
  return status.code() == absl::StatusCode::kCancelled ? call.Stopped() : BadRequest(violations);
}

}  // namespace

ScribeServiceImpl::ScribeServiceImpl(ServiceOptions options, Metrics* metrics)
    : ParsingService(v1::ScribeService::service_full_name(), &gate_),
      options_(std::move(options)),
      gate_(options_.max_concurrent_calls, metrics) {
  Unary("ValidateRecord", this, &ScribeServiceImpl::ValidateRecord);
  BidiStream("ValidateRecords", this, &ScribeServiceImpl::ValidateRecords);
  Unary("AnnotateRecord", this, &ScribeServiceImpl::AnnotateRecord);
  Unary("ReplayRecord", this, &ScribeServiceImpl::ReplayRecord);
  Unary("ConvertRecord", this, &ScribeServiceImpl::ConvertRecord);
  Unary("ListRulesets", this, &ScribeServiceImpl::ListRulesets);
  Unary("GetRuleset", this, &ScribeServiceImpl::GetRuleset);
  Unary("ListLegalMoves", this, &ScribeServiceImpl::ListLegalMoves);
  Unary("MakeMove", this, &ScribeServiceImpl::MakeMove);
  Unary("SuggestMoves", this, &ScribeServiceImpl::SuggestMoves);
  auto tables = std::make_shared<EvaluatorSource::TablesByDigest>();
  for (const std::shared_ptr<const Evaluator>& table : options_.tables) {
    if (table != nullptr) tables->emplace(table->rules().digest, table);
  }
  tables_ = std::move(tables);
}

std::shared_ptr<const Evaluator> ScribeServiceImpl::TableFor(const std::string& digest) const {
  const auto it = tables_->find(digest);
  return it == tables_->end() ? nullptr : it->second;
}

grpc::Status ScribeServiceImpl::ValidateRecord(grpc::ServerContext* context, const v1::ValidateRecordRequest* request,
                                               v1::ValidateRecordResponse* response) {
  return Serve("ValidateRecord", context, [&](Call& call) {
    std::vector<FieldViolation> violations;
    Input input;
    if (!ReadInput(request->input(), "input", options_, &input, &violations)) return BadRequest(violations);
    const CallLimits limits = LimitsFor(ValidateAnswer(), options_, InputBytes(request->input()), call.stop());
    auto validated = Validate(input, "input", limits, &violations);
    if (!validated.ok()) return Refused(call, validated.status(), violations);
    SetReport(validated->report, response);
    response->set_records(validated->entries);
    if (!CheckAnswer(*response, limits, "input", &violations)) return BadRequest(violations);
    return grpc::Status::OK;
  });
}

grpc::Status ScribeServiceImpl::ValidateRecords(
    grpc::ServerContext* context, RequestStream<v1::ValidateRecordsResponse, v1::ValidateRecordsRequest>* stream) {
  return Serve("ValidateRecords", context, [&](Call& call) {
    v1::ValidateRecordsRequest request;
    for (;;) {
      std::vector<FieldViolation> violations;
      const Received received = stream->Read(&request, &violations);
      if (received == Received::kEnd) break;
      if (call.cancelled()) return call.Stopped();
      v1::ValidateRecordsResponse response;
      response.set_id(request.id());  // (of a request that did not parse: when its id did)
      Input input;
      absl::StatusOr<Validated> validated = absl::InvalidArgumentError("the input cannot be read");
      if (received == Received::kMessage && ReadInput(request.input(), "input", options_, &input, &violations)) {
        validated = Validate(input, "input",
                             LimitsFor(ValidateAnswer(), options_, InputBytes(request.input()), call.stop()),
                             &violations);
      }
      if (!validated.ok()) {
        if (validated.status().code() == absl::StatusCode::kCancelled) return call.Stopped();
        SetBadRequest(violations, &response);  // garbage in the stream still gets its one result
      } else {
        SetReport(validated->report, &response);
      }
      if (!stream->Write(response)) return Cancelled("the client stopped reading");
    }
    return grpc::Status::OK;
  });
}

grpc::Status ScribeServiceImpl::AnnotateRecord(grpc::ServerContext* context, const v1::AnnotateRecordRequest* request,
                                               v1::AnnotateRecordResponse* response) {
  return Serve("AnnotateRecord", context, [&](Call& call) {
    std::vector<FieldViolation> violations;
    std::optional<Format> text_format;
    if (request->text_format() != v1::RECORD_FORMAT_UNSPECIFIED) {
      text_format = ToFormat(request->text_format());
      if (!text_format) violations.push_back({"text_format", "this server does not write that format"});
    }
    std::optional<EvaluationChoice> chances;
    if (request->has_winning_chances()) {
      chances = CheckEvaluation(request->winning_chances(), "winning_chances", options_, &violations);
    }
    Input input;
    const CallLimits limits =
        LimitsFor(AnnotateAnswer(text_format.has_value()), options_, InputBytes(request->input()), call.stop());
    if (!ReadInput(request->input(), "input", options_, &input, &violations) || !violations.empty()) {
      return BadRequest(violations);
    }
    auto legal = LegalRecords(input, "input", {.build_replay = false, .keep_positions = true}, limits, &violations);
    if (!legal.ok()) return Refused(call, legal.status(), violations);
    std::vector<JudgedRecord>& records = *legal;

    // The analysis (review/pipeline.h), with winning chances and the
    // review when asked for; a search's work is bounded before any is done.
    AnalysisOptions options;
    if (chances) options.chances = ChanceSource(*this, *chances, call.stop());
    options.stop = call.stop();
    const Analyzer analyzer(std::move(options));
    if (chances) {
      const grpc::Status bounded = CheckSearchBudget(analyzer, records, options_.max_search_actions);
      if (!bounded.ok()) return bounded;
    }
    // The annotations change comments only: each verdict stands.
    std::vector<JudgedRecord> annotated_records;
    for (JudgedRecord& record : records) {
      auto analysis = analyzer.Analyze(record);
      if (call.cancelled()) return call.Stopped();
      if (!analysis.ok()) return AnalysisError(analysis.status());
      v1::Annotation* annotation = response->add_annotations();
      *annotation = AnnotationToProto(analysis->annotated, record.record.ruleset());
      if (analysis->review) {
        *annotation->mutable_review() = ReviewToProto(*analysis->review, *analysis->annotated.rules);
      }
      annotated_records.push_back(
          {WithAnnotations(record.record, analysis->annotated), std::move(record.verdict), record.index});
    }
    if (text_format) {
      auto text = WriteRecords(*text_format, annotated_records);
      if (!text.ok()) return BadRequest({{"text_format", std::string(text.status().message())}});
      response->set_text(*std::move(text));
    }
    if (!CheckAnswer(*response, limits, "input", &violations)) return BadRequest(violations);
    return grpc::Status::OK;
  });
}

grpc::Status ScribeServiceImpl::ReplayRecord(grpc::ServerContext* context, const v1::ReplayRecordRequest* request,
                                             v1::ReplayRecordResponse* response) {
  return Serve("ReplayRecord", context, [&](Call& call) {
    std::vector<FieldViolation> violations;
    Input input;
    const CallLimits limits = LimitsFor(ReplayAnswer(), options_, InputBytes(request->input()), call.stop());
    if (!ReadInput(request->input(), "input", options_, &input, &violations)) return BadRequest(violations);
    auto records = LegalRecords(input, "input", {.build_replay = true}, limits, &violations);
    if (!records.ok()) return Refused(call, records.status(), violations);
    for (JudgedRecord& record : *records) *response->add_replays() = std::move(record.verdict.replay);
    if (!CheckAnswer(*response, limits, "input", &violations)) return BadRequest(violations);
    return grpc::Status::OK;
  });
}

grpc::Status ScribeServiceImpl::ConvertRecord(grpc::ServerContext* context, const v1::ConvertRecordRequest* request,
                                              v1::ConvertRecordResponse* response) {
  return Serve("ConvertRecord", context, [&](Call& call) {
    std::vector<FieldViolation> violations;
    const std::optional<Format> to = ToFormat(request->to());
    if (!to) violations.push_back({"to", "the format to convert to is required (TSN, JSON, RGN, ROYALUR_JSON)"});
    Input input;
    if (!ReadInput(request->input(), "input", options_, &input, &violations) || !to) return BadRequest(violations);
    const CallLimits limits = LimitsFor(ConvertAnswer(*to), options_, InputBytes(request->input()), call.stop());
    auto legal = LegalRecords(input, "input", {.build_replay = false}, limits, &violations);
    if (!legal.ok()) return Refused(call, legal.status(), violations);
    std::vector<JudgedRecord>& records = *legal;
    auto text = WriteRecords(*to, records, {.tile_names = request->tile_names()});
    if (!text.ok()) return BadRequest({{"to", std::string(text.status().message())}});
    response->set_text(*std::move(text));
    for (JudgedRecord& r : records) *response->add_records() = std::move(r.record);
    if (!CheckAnswer(*response, limits, "input", &violations)) return BadRequest(violations);
    return grpc::Status::OK;
  });
}

grpc::Status ScribeServiceImpl::ListRulesets(grpc::ServerContext* context, const v1::ListRulesetsRequest* request,
                                             v1::ListRulesetsResponse* response) {
  return Serve("ListRulesets", context, [&](Call&) {
    const auto& presets = Presets();
    const int total = static_cast<int>(presets.size());
    std::vector<FieldViolation> violations;
    const Page page = CheckPage(request->page_size(), request->page_token(), total, &violations);
    if (!violations.empty()) return BadRequest(violations);
    for (int i = page.start; i < page.end; ++i) *response->add_rulesets() = ToSummary(presets[i]);
    if (page.end < total) response->set_next_page_token(absl::StrCat(page.end));
    return grpc::Status::OK;
  });
}

grpc::Status ScribeServiceImpl::GetRuleset(grpc::ServerContext* context, const v1::GetRulesetRequest* request,
                                           v1::GetRulesetResponse* response) {
  return Serve("GetRuleset", context, [&](Call&) {
    const v1::RulesetSelector& selector = request->ruleset();
    // Getting a preset that does not exist is NOT_FOUND; a broken reference
    // or text is a bad request.
    if (selector.kind_case() == v1::RulesetSelector::kReference) {
      auto rules = LoadRuleset(selector.reference());
      if (!rules.ok() && rules.status().code() == absl::StatusCode::kNotFound) {
        return Error(grpc::StatusCode::NOT_FOUND, std::string(rules.status().message()), "RULESET_NOT_FOUND");
      }
    }
    std::vector<FieldViolation> violations;
    auto rules = ResolveSelector(selector, "ruleset", true, &violations);
    if (rules == nullptr) return BadRequest(violations);
    *response->mutable_ruleset() = rules->ruleset;
    response->set_digest(rules->digest);
    response->set_text(RulesetToText(rules->ruleset));
    return grpc::Status::OK;
  });
}

}  // namespace scribe::service
