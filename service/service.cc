// The handlers: each reads its request (service/requests.h), does the work
// with the libraries, and fills its response; Serve wraps every one.
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

// A record input the call could not take: the violations as a BadRequest,
// or, with none, the call stopped (service/records_io.h).
grpc::Status Refused(const Call& call, const std::vector<FieldViolation>& violations) {
  return violations.empty() ? call.Stopped() : BadRequest(violations);
}

}  // namespace

template <typename Body>
grpc::Status ScribeServiceImpl::Serve(const char* method, grpc::ServerContext* context, Body body) {
  Call call(context, &in_flight_, options_.max_concurrent_calls, &stopping_);
  grpc::Status status;
  if (call.admitted()) {
    status = body(call);
  } else {
    metrics_->RecordShed(method);
    status = Overloaded();
  }
  metrics_->Record(method, status.error_code(), call.micros());
  return status;
}

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

grpc::Status ScribeServiceImpl::ValidateRecord(grpc::ServerContext* context, const v1::ValidateRecordRequest* request,
                                               v1::ValidateRecordResponse* response) {
  return Serve("ValidateRecord", context, [&](Call& call) {
    std::vector<FieldViolation> violations;
    Input input;
    if (!ReadInput(request->input(), "input", options_, &input, &violations)) return BadRequest(violations);
    const CallLimits limits = LimitsFor(ValidateAnswer(), options_, InputBytes(request->input()), call.stop());
    int entries = 0;
    v1::FileReport report;
    if (!Validate(input, "input", limits, &report, &entries, &violations)) return Refused(call, violations);
    SetReport(report, response);
    response->set_records(entries);
    if (!CheckAnswer(*response, limits, "input", &violations)) return BadRequest(violations);
    return grpc::Status::OK;
  });
}

grpc::Status ScribeServiceImpl::ValidateRecords(
    grpc::ServerContext* context,
    grpc::ServerReaderWriter<v1::ValidateRecordsResponse, v1::ValidateRecordsRequest>* stream) {
  return Serve("ValidateRecords", context, [&](Call& call) {
    v1::ValidateRecordsRequest request;
    while (stream->Read(&request)) {
      if (call.cancelled()) return call.Stopped();
      v1::ValidateRecordsResponse response;
      response.set_id(request.id());
      std::vector<FieldViolation> violations;
      Input input;
      v1::FileReport report;
      if (!ReadInput(request.input(), "input", options_, &input, &violations) ||
          !Validate(input, "input", LimitsFor(ValidateAnswer(), options_, InputBytes(request.input()), call.stop()),
                    &report, nullptr, &violations)) {
        if (violations.empty()) return call.Stopped();
        SetBadRequest(violations, &response);  // garbage in the stream still gets its one result
      } else {
        SetReport(report, &response);
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
    std::vector<JudgedRecord> records;
    const CallLimits limits =
        LimitsFor(AnnotateAnswer(text_format.has_value()), options_, InputBytes(request->input()), call.stop());
    if (!ReadInput(request->input(), "input", options_, &input, &violations) || !violations.empty()) {
      return BadRequest(violations);
    }
    if (!LegalRecords(input, "input", {.build_replay = false, .keep_positions = true}, limits, &records,
                      &violations)) {
      return Refused(call, violations);
    }

    std::vector<AnnotatedRecord> annotated;
    for (const JudgedRecord& record : records) {
      auto one = scribe::AnnotateRecord(record, {}, call.stop());
      if (call.cancelled()) return call.Stopped();
      if (!one.ok()) return BadRequest({{"input", std::string(one.status().message())}});
      annotated.push_back(*std::move(one));
    }
    if (chances) {
      const grpc::Status added = AddChances(*this, call, *chances, options_.max_search_actions, records, &annotated);
      if (!added.ok()) return added;
    }
    // The annotations change comments only: each verdict stands.
    std::vector<JudgedRecord> annotated_records;
    for (size_t k = 0; k < records.size(); ++k) {
      v1::Annotation* annotation = response->add_annotations();
      *annotation = AnnotationToProto(annotated[k], records[k].record.ruleset());
      // With winning chances, the players' review (docs/review.md).
      if (annotated[k].values) {
        auto review = ReviewGame(records[k].record, annotated[k]);
        if (!review.ok()) return BadRequest({{"input", std::string(review.status().message())}});
        *annotation->mutable_review() = ReviewToProto(*review, *annotated[k].rules);
      }
      annotated_records.push_back(
          {WithAnnotations(records[k].record, annotated[k]), std::move(records[k].verdict), records[k].index});
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
    std::vector<JudgedRecord> records;
    const CallLimits limits = LimitsFor(ReplayAnswer(), options_, InputBytes(request->input()), call.stop());
    if (!ReadInput(request->input(), "input", options_, &input, &violations)) return BadRequest(violations);
    if (!LegalRecords(input, "input", {.build_replay = true}, limits, &records, &violations)) {
      return Refused(call, violations);
    }
    for (JudgedRecord& record : records) *response->add_replays() = std::move(record.verdict.replay);
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
    std::vector<JudgedRecord> records;
    if (!ReadInput(request->input(), "input", options_, &input, &violations) || !to) return BadRequest(violations);
    const CallLimits limits = LimitsFor(ConvertAnswer(*to), options_, InputBytes(request->input()), call.stop());
    if (!LegalRecords(input, "input", {.build_replay = false}, limits, &records, &violations)) {
      return Refused(call, violations);
    }
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

grpc::Status ScribeServiceImpl::ListLegalMoves(grpc::ServerContext* context, const v1::ListLegalMovesRequest* request,
                                               v1::ListLegalMovesResponse* response) {
  return Serve("ListLegalMoves", context, [&](Call&) {
    std::vector<FieldViolation> violations;
    std::shared_ptr<const Rules> rules;
    Position pos;
    if (!RefereeInputs(request->ruleset(), request->position(), request->roll(), &rules, &pos, &violations)) {
      return BadRequest(violations);
    }
    MoveList moves;
    LegalMoves(*rules, pos, request->roll(), &moves);
    for (const Move& m : moves) *response->add_moves() = ToProtoMove(m);
    response->set_player(ToPlayer(pos.to_move));
    return grpc::Status::OK;
  });
}

grpc::Status ScribeServiceImpl::MakeMove(grpc::ServerContext* context, const v1::MakeMoveRequest* request,
                                         v1::MakeMoveResponse* response) {
  return Serve("MakeMove", context, [&](Call&) {
    std::vector<FieldViolation> violations;
    std::shared_ptr<const Rules> rules;
    Position pos;
    if (!RefereeInputs(request->ruleset(), request->position(), request->roll(), &rules, &pos, &violations)) {
      return BadRequest(violations);
    }
    if (IsOver(*rules, pos)) return BadRequest({{"position", "the game is over: no more moves"}});
    MoveList legal;
    LegalMoves(*rules, pos, request->roll(), &legal);
    if (!request->has_move()) {
      if (!legal.empty()) {
        return BadRequest({{"move", absl::StrCat("a move is legal, so the throw cannot pass: expected one of ",
                                                 DescribeMoves(legal))}});
      }
      PassTurn(&pos);
    } else {
      const std::optional<Move> chosen = CheckMove(request->move(), request->roll(), legal, &violations);
      if (!chosen) return BadRequest(violations);
      const MoveResult result = ApplyMove(*rules, &pos, *chosen);
      response->set_captured(result.captured);
      response->set_extra_roll(result.extra_roll);
      response->set_placed(result.placed);
    }
    response->set_position(PositionToString(*rules, pos));
    if (auto winner = Winner(*rules, pos)) {
      response->set_winner(ToPlayer(*winner));
    } else {
      response->set_next_player(ToPlayer(pos.to_move));
    }
    return grpc::Status::OK;
  });
}

grpc::Status ScribeServiceImpl::SuggestMoves(grpc::ServerContext* context, const v1::SuggestMovesRequest* request,
                                             v1::SuggestMovesResponse* response) {
  return Serve("SuggestMoves", context, [&](Call& call) {
    std::vector<FieldViolation> violations;
    std::shared_ptr<const Rules> rules;
    Position pos;
    if (RefereeInputs(request->ruleset(), request->position(), request->roll(), &rules, &pos, &violations) &&
        IsOver(*rules, pos)) {
      violations.push_back({"position", "the game is over: no more moves"});
    }
    const EvaluationChoice choice = CheckEvaluation(request->evaluation(), "evaluation", options_, &violations);
    const std::optional<BotSpec> strength = CheckStrength(request->strength(), options_, &violations);
    if (!violations.empty()) return BadRequest(violations);

    // A search polls the call: one the client gave up stops within it.
    const std::shared_ptr<const Evaluator> evaluator = ChooseEvaluator(*this, choice, rules, call.stop());
    if (evaluator == nullptr) return NoTable(*rules, "exact values");
    std::unique_ptr<Bot> bot;
    if (strength) {
      const grpc::Status made =
          MakeOpponent(*this, *strength, rules, request->has_seed() ? request->seed() : 1, call.stop(), &bot);
      if (!made.ok()) return made;
    }

    const int roll = request->roll();
    const std::vector<ValuedMove> ranked = RankMovesByValue(*evaluator, pos, roll);
    if (call.cancelled()) return call.Stopped();
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
      const std::optional<Move> chosen = bot->Choose(pos, roll);
      if (call.cancelled()) return call.Stopped();
      if (chosen) *response->mutable_chosen_move() = ToProtoMove(*chosen);
    }
    return grpc::Status::OK;
  });
}

}  // namespace scribe::service
