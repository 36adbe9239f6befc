// The game database's gRPC service (proto/scribe/v1/game_database.proto):
// thin handlers over the games library (games/import.h, games/query.h) on
// a pool of the database's connections (service/store_pool.h). It shares
// the server's admission, shutdown and metrics with ScribeService
// (service/call.h Gate), and its loaded solved tables (the explorer's
// exact chances). Writes are allowed by service/writers.h.
#ifndef SCRIBE_SERVICE_DATABASE_SERVICE_H_
#define SCRIBE_SERVICE_DATABASE_SERVICE_H_

#include <memory>
#include <string>

#include "engine/evaluator.h"
#include "review/pipeline.h"
#include "scribe/v1/game_database.grpc.pb.h"
#include "service/call.h"
#include "service/options.h"
#include "service/parsing_service.h"
#include "service/players_refresher.h"
#include "service/store_pool.h"
#include "service/writers.h"

namespace scribe::service {

class IdleWatch;  // idle_watch.h

struct DatabaseOptions {
  WritePolicy writers;
  // Games an import stream commits at once: a stream cut short keeps the
  // batches committed before (a client sends the same records again).
  int batch_games = 4000;
  // Players' totals and ratings are recounted from every game (about 6 s
  // at 1,000,000 games) after streams that added games, at most once
  // every this many seconds; 0: at the end of each such stream, before it
  // answers (tests).
  int players_seconds = 30;
  // The nice value of an import's threads (0: the server's): reads first.
  int import_nice = 10;
  // An import stream that sends nothing this long is ended (0: never).
  int stream_idle_seconds = 60;
};

// A database error of a call: the connection is not given back (it may
// be broken) and the status is what the database said, as a gRPC code.
grpc::Status DatabaseError(StorePool::Lease& lease, const absl::Status& status);

class GameDatabaseImpl final : public ParsingService {
 public:
  // `gate` and `tables` are the ScribeService's of the same server.
  GameDatabaseImpl(std::unique_ptr<StorePool> pool, DatabaseOptions options, const ServiceOptions& limits,
                   Gate* gate, std::shared_ptr<const EvaluatorSource::TablesByDigest> tables);

  // The methods of v1::GameDatabase, each registered under its name
  // (service/parsing_service.h).
  grpc::Status ImportGames(grpc::ServerContext* context, RequestReader<v1::ImportGamesRequest>* reader,
                           v1::ImportGamesResponse* response);
  grpc::Status ListGames(grpc::ServerContext* context, const v1::ListGamesRequest* request,
                         v1::ListGamesResponse* response);
  grpc::Status GetGame(grpc::ServerContext* context, const v1::GetGameRequest* request,
                       v1::GetGameResponse* response);
  grpc::Status ExplorePosition(grpc::ServerContext* context, const v1::ExplorePositionRequest* request,
                               v1::ExplorePositionResponse* response);
  grpc::Status GetPlayer(grpc::ServerContext* context, const v1::GetPlayerRequest* request,
                         v1::GetPlayerResponse* response);

  // Ends the players' refresher (its last recount included): before the
  // pool goes.
  void Stop() { refresher_.Stop(); }

 private:
  // The body of ImportGames (database_import.cc), watched for a client
  // that goes quiet.
  grpc::Status Import(Call& call, RequestReader<v1::ImportGamesRequest>* reader,
                      v1::ImportGamesResponse* response, IdleWatch& idle);

  std::unique_ptr<StorePool> pool_;
  DatabaseOptions options_;
  ServiceOptions limits_;
  std::shared_ptr<const EvaluatorSource::TablesByDigest> tables_;
  PlayersRefresher refresher_;
};

}  // namespace scribe::service

#endif  // SCRIBE_SERVICE_DATABASE_SERVICE_H_
