// The game database's read calls (ListGames, GetGame, ExplorePosition,
// GetPlayer); ImportGames is in database_import.cc.
#include "service/database_service.h"

#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/position.h"
#include "engine/ruleset.h"
#include "games/query.h"
#include "records/formats.h"
#include "records/position_string.h"
#include "service/database_requests.h"
#include "service/errors.h"
#include "service/requests.h"
#include "service/responses.h"

namespace scribe::service {

grpc::Status DatabaseError(StorePool::Lease& lease, const absl::Status& status) {
  lease.Discard();
  return FromAbsl(status);
}

namespace {

// The rules a request names, among those the database holds: null with
// no violation when the database holds no game of them (nothing matches),
// or when none is named and the database holds several (then a violation
// when `required`) or none.
struct StoredRules {
  const games::KnownRules* rules = nullptr;
  bool none_stored = false;  // named, but the database holds no game of them
};
absl::StatusOr<StoredRules> RulesOf(StorePool::Lease& lease, const v1::RulesetSelector& selector, bool required,
                                    std::vector<FieldViolation>* violations) {
  StoredRules out;
  if (selector.kind_case() != v1::RulesetSelector::KIND_NOT_SET) {
    const std::shared_ptr<const Rules> rules = ResolveSelector(selector, "ruleset", false, violations);
    if (rules == nullptr) return out;
    absl::StatusOr<const games::KnownRules*> known = lease.rules().ByDigest(rules->digest);
    if (known.ok()) {
      out.rules = *known;
    } else if (known.status().code() == absl::StatusCode::kNotFound) {
      out.none_stored = true;
    } else {
      return known.status();
    }
    return out;
  }
  if (!required) return out;
  absl::StatusOr<std::vector<games::RulesetRow>> rows = lease.store().Rulesets();
  if (!rows.ok()) return rows.status();
  if (rows->size() == 1) {
    absl::StatusOr<const games::KnownRules*> known = lease.rules().ById(rows->front().id);
    if (!known.ok()) return known.status();
    out.rules = *known;
  } else if (rows->empty()) {
    out.none_stored = true;
  } else {
    violations->push_back({"ruleset", "the database holds games of several rulesets: name one"});
  }
  return out;
}

// A position string of `rules` ("" the start), or a violation under `field`.
std::optional<Position> PositionOf(const Rules& rules, const std::string& text, const std::string& field,
                                   std::vector<FieldViolation>* violations) {
  if (text.empty()) return StartPosition(rules);
  CheckName(text, field, violations);
  if (!violations->empty()) return std::nullopt;
  absl::StatusOr<Position> pos = ParsePositionString(rules, text);
  if (pos.ok()) return *pos;
  violations->push_back({field, std::string(pos.status().message())});
  return std::nullopt;
}

v1::Player Winner(int result) { return result == 1 ? v1::LIGHT : result == 2 ? v1::DARK : v1::PLAYER_UNSPECIFIED; }

absl::Status SetStoredGame(StorePool::Lease& lease, const games::GameRow& g, std::optional<int> ply,
                           v1::StoredGame* out) {
  absl::StatusOr<const games::KnownRules*> known = lease.rules().ById(g.ruleset);
  if (!known.ok()) return known.status();
  out->set_id(g.id);
  out->set_ruleset_digest((*known)->rules->digest);
  out->set_ruleset(RulesetName(*(*known)->rules));
  out->set_light(g.light);
  out->set_dark(g.dark);
  out->set_event(g.event);
  out->set_date(g.date);
  out->set_winner(Winner(g.result));
  out->set_plies(g.plies);
  if (ply.has_value()) out->set_ply(*ply);
  if (g.figures[0].has_value()) out->set_light_accuracy(g.figures[0]->accuracy);
  if (g.figures[1].has_value()) out->set_dark_accuracy(g.figures[1]->accuracy);
  return absl::OkStatus();
}

}  // namespace

GameDatabaseImpl::GameDatabaseImpl(std::unique_ptr<StorePool> pool, DatabaseOptions options,
                                   const ServiceOptions& limits, Gate* gate,
                                   std::shared_ptr<const EvaluatorSource::TablesByDigest> tables)
    : ParsingService(v1::GameDatabase::service_full_name(), gate),
      pool_(std::move(pool)),
      options_(std::move(options)),
      limits_(limits),
      tables_(std::move(tables)),
      refresher_(pool_.get(), options_.players_seconds) {
  ClientStream("ImportGames", this, &GameDatabaseImpl::ImportGames);
  Unary("ListGames", this, &GameDatabaseImpl::ListGames);
  Unary("GetGame", this, &GameDatabaseImpl::GetGame);
  Unary("ExplorePosition", this, &GameDatabaseImpl::ExplorePosition);
  Unary("GetPlayer", this, &GameDatabaseImpl::GetPlayer);
}

grpc::Status GameDatabaseImpl::ListGames(grpc::ServerContext* context, const v1::ListGamesRequest* request,
                                         v1::ListGamesResponse* response) {
  return gate().Serve("ListGames", context, [&](Call&) {
    std::vector<FieldViolation> violations;
    games::SearchQuery query;
    ReadFilter(request->filter(), &query.games, &violations);
    const GamesPage page = ReadGamesPage(*request, &violations);
    if (request->order() != v1::GAME_ORDER_UNSPECIFIED && request->order() != v1::GAME_ORDER_ID &&
        request->order() != v1::GAME_ORDER_DATE) {
      violations.push_back({"order", "not a GameOrder this server knows"});
    }
    if (!violations.empty()) return BadRequest(violations);
    query.games.order = request->order() == v1::GAME_ORDER_DATE ? games::GameQuery::Order::kDate
                                                                 : games::GameQuery::Order::kId;
    query.games.descending = request->descending();
    query.offset = page.offset;
    query.limit = page.size;
    absl::StatusOr<StorePool::Lease> lease = pool_->Acquire();
    if (!lease.ok()) return FromAbsl(lease.status());
    const v1::GameFilter& filter = request->filter();
    const bool by_position = !filter.position().empty();
    absl::StatusOr<StoredRules> rules = RulesOf(*lease, filter.ruleset(), by_position, &violations);
    if (!rules.ok()) return DatabaseError(*lease, rules.status());
    if (rules->rules != nullptr) {
      query.games.ruleset = rules->rules->id;
      if (by_position) {
        std::optional<Position> pos = PositionOf(*rules->rules->rules, filter.position(), "filter.position", &violations);
        if (pos.has_value()) query.position = games::PositionTarget{rules->rules, *pos};
      }
    }
    if (!violations.empty()) return BadRequest(violations);
    if (rules->none_stored) return grpc::Status::OK;  // no game of those rules: an empty page
    absl::StatusOr<games::SearchResult> result = games::Search(lease->store(), query);
    if (!result.ok()) return DatabaseError(*lease, result.status());
    response->set_total_size(result->total);
    for (const games::SearchHit& hit : result->hits) {
      absl::Status s = SetStoredGame(*lease, hit.game, hit.ply, response->add_games());
      if (!s.ok()) return DatabaseError(*lease, s);
    }
    const int64_t next = page.offset + static_cast<int64_t>(result->hits.size());
    if (!result->hits.empty() && next < result->total && next <= kMaxGamesOffset) {
      response->set_next_page_token(GamesPageToken(*request, next));
    }
    return grpc::Status::OK;
  });
}

grpc::Status GameDatabaseImpl::GetGame(grpc::ServerContext* context, const v1::GetGameRequest* request,
                                       v1::GetGameResponse* response) {
  return gate().Serve("GetGame", context, [&](Call&) {
    std::vector<FieldViolation> violations;
    if (request->id() <= 0) violations.push_back({"id", "a game's id is positive"});
    std::optional<Format> format = Format::kTsn;
    if (request->format() != v1::RECORD_FORMAT_UNSPECIFIED) {
      format = ToFormat(request->format());
      if (!format) violations.push_back({"format", "this server does not write that format"});
    }
    if (!violations.empty()) return BadRequest(violations);
    absl::StatusOr<StorePool::Lease> lease = pool_->Acquire();
    if (!lease.ok()) return FromAbsl(lease.status());
    absl::StatusOr<std::vector<games::GameRow>> rows = lease->store().GamesById({request->id()});
    if (!rows.ok()) return DatabaseError(*lease, rows.status());
    if (rows->empty()) {
      return Error(grpc::StatusCode::NOT_FOUND, absl::StrCat("no game has the id ", request->id()), "GAME_NOT_FOUND");
    }
    absl::Status s = SetStoredGame(*lease, rows->front(), std::nullopt, response->mutable_game());
    absl::StatusOr<std::vector<v1::GameRecord>> records = games::Records(lease->store(), lease->rules(), {request->id()});
    if (!s.ok() || !records.ok()) return DatabaseError(*lease, s.ok() ? records.status() : s);
    absl::StatusOr<std::string> text = WriteRecords(*format, *records, {.tile_names = request->tile_names()});
    if (!text.ok()) return FromAbsl(text.status());
    response->set_text(*text);
    *response->mutable_record() = std::move(records->front());
    absl::StatusOr<std::vector<games::SourceRow>> sources = lease->store().Sources(request->id());
    if (!sources.ok()) return DatabaseError(*lease, sources.status());
    for (const games::SourceRow& source : *sources) {
      v1::GameSource* out = response->add_sources();
      out->set_source(source.file);
      out->set_record(source.index);
    }
    return grpc::Status::OK;
  });
}

grpc::Status GameDatabaseImpl::ExplorePosition(grpc::ServerContext* context,
                                               const v1::ExplorePositionRequest* request,
                                               v1::ExplorePositionResponse* response) {
  return gate().Serve("ExplorePosition", context, [&](Call&) {
    std::vector<FieldViolation> violations;
    absl::StatusOr<StorePool::Lease> lease = pool_->Acquire();
    if (!lease.ok()) return FromAbsl(lease.status());
    absl::StatusOr<StoredRules> rules = RulesOf(*lease, request->ruleset(), true, &violations);
    if (!rules.ok()) return DatabaseError(*lease, rules.status());
    if (!violations.empty()) return BadRequest(violations);
    if (rules->rules == nullptr) {
      return Error(grpc::StatusCode::NOT_FOUND, "the database holds no game of this ruleset", "RULESET_NOT_STORED");
    }
    const Rules& r = *rules->rules->rules;
    std::optional<Position> pos = PositionOf(r, request->position(), "position", &violations);
    if (!pos.has_value()) return BadRequest(violations);
    const auto table = tables_->find(r.digest);
    const Evaluator* evaluator = table == tables_->end() ? nullptr : table->second.get();
    absl::StatusOr<games::Exploration> explored =
        games::Explore(lease->store(), games::PositionTarget{rules->rules, *pos}, evaluator);
    if (!explored.ok()) return DatabaseError(*lease, explored.status());
    response->set_games(explored->games);
    response->set_ruleset_digest(r.digest);
    response->set_position(PositionToString(r, *pos));
    for (const games::ExploredMove& m : explored->moves) {
      v1::ExploredMove* out = response->add_moves();
      out->set_roll(m.roll);
      out->set_games(m.games);
      out->set_light_wins(m.light_wins);
      out->set_dark_wins(m.dark_wins);
      if (m.accuracy.has_value()) out->set_accuracy(*m.accuracy);
      if (m.chance.has_value()) out->set_chance(*m.chance);
      if (m.roll >= 0 && m.from >= 0) {
        out->mutable_move()->set_from(m.from);
        out->mutable_move()->set_to(m.to);
      }
      if (std::optional<Position> after = games::PositionAfter(r, *pos, m)) {
        out->set_position_after(PositionToString(r, *after));
      }
    }
    return grpc::Status::OK;
  });
}

grpc::Status GameDatabaseImpl::GetPlayer(grpc::ServerContext* context, const v1::GetPlayerRequest* request,
                                         v1::GetPlayerResponse* response) {
  return gate().Serve("GetPlayer", context, [&](Call&) {
    std::vector<FieldViolation> violations;
    if (request->name().empty()) violations.push_back({"name", "a player's name is required"});
    CheckName(request->name(), "name", &violations);
    if (!violations.empty()) return BadRequest(violations);
    absl::StatusOr<StorePool::Lease> lease = pool_->Acquire();
    if (!lease.ok()) return FromAbsl(lease.status());
    absl::StatusOr<games::PlayerPage> page = games::Player(lease->store(), request->name());
    if (!page.ok()) return DatabaseError(*lease, page.status());
    const games::PlayerTotals& t = page->totals;
    if (t.games == 0) {
      return Error(grpc::StatusCode::NOT_FOUND, "no stored game has a player of this name", "PLAYER_NOT_FOUND");
    }
    response->set_name(request->name());
    response->set_games(t.games);
    response->set_wins(t.wins);
    response->set_losses(t.losses);
    response->set_unfinished(t.unfinished);
    response->set_as_light(t.as_light);
    response->set_reviewed(t.reviewed);
    if (t.reviewed > 0) {
      response->set_accuracy(t.accuracy);
      response->set_error_rate(t.error_rate);
      response->set_performance(t.performance);
    }
    response->set_first_date(t.first_date);
    response->set_last_date(t.last_date);
    for (const games::RatingRow& row : page->ratings) {
      v1::RatingPoint* point = response->add_ratings();
      point->set_period(row.period);
      point->set_rating(row.rating);
      point->set_deviation(row.deviation);
      point->set_volatility(row.volatility);
      point->set_games(row.games);
    }
    return grpc::Status::OK;
  });
}

}  // namespace scribe::service
