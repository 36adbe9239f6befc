// The referee's handlers: the legal moves of a throw, the position after a
// move, and ranked moves with a computer opponent's choice; Serve
// (service/service.h) wraps every one.
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/bots.h"
#include "engine/position.h"
#include "engine/search.h"
#include "records/position_string.h"
#include "records/referee.h"
#include "records/squares.h"
#include "service/chances.h"
#include "service/errors.h"
#include "service/requests.h"
#include "service/responses.h"
#include "service/service.h"

namespace scribe::service {

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
    auto chosen_evaluator = ChanceSource(*this, choice, call.stop())->For(rules);
    if (!chosen_evaluator.ok()) return NoTable(*rules, "exact values");
    const std::shared_ptr<const Evaluator> evaluator = *std::move(chosen_evaluator);
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
