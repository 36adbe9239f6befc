// The gRPC service: thin handlers over the records and engine libraries.
// Each handler turns the request into library calls and the results into
// the response; errors go through service/errors.h.
#ifndef SCRIBE_SERVICE_SERVICE_H_
#define SCRIBE_SERVICE_SERVICE_H_

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/evaluator.h"
#include "scribe/v1/scribe_service.grpc.pb.h"
#include "service/metrics.h"

namespace scribe::service {

struct ServiceOptions {
  // Calls doing work at once; more get RESOURCE_EXHAUSTED at once instead
  // of queueing (health checks are not counted).
  int max_concurrent_calls = 64;
  // Longest record text, in bytes, and most actions in one record.
  int64_t max_record_bytes = 16 << 20;
  int max_record_actions = 200000;
  // The deepest search (in throws) a request may ask for: SuggestMoves'
  // and AnnotateRecord's evaluation depth, and "search:N" opponents.
  int max_search_depth = 3;
  // Most actions one AnnotateRecord call annotates with a search's winning
  // chances (a table's exact values have no such limit: they are looked
  // up). At depth 3 an action costs 3 to 7 ms of a core: 1000 is one long
  // game of any preset, a few seconds.
  int max_search_actions = 1000;
  // Solved tables (service/tables.h), at most one per ruleset digest:
  // exact winning chances for their rulesets.
  std::vector<std::shared_ptr<const Evaluator>> tables;
};

class ScribeServiceImpl final : public v1::ScribeService::Service {
 public:
  // Of two tables of the same ruleset in `options.tables`, the first is
  // used (OpenTables refuses them).
  explicit ScribeServiceImpl(ServiceOptions options, Metrics* metrics);

  grpc::Status ValidateRecord(grpc::ServerContext* context, const v1::ValidateRecordRequest* request,
                              v1::ValidateRecordResponse* response) override;
  grpc::Status ValidateRecords(
      grpc::ServerContext* context,
      grpc::ServerReaderWriter<v1::ValidateRecordsResponse, v1::ValidateRecordsRequest>* stream) override;
  grpc::Status AnnotateRecord(grpc::ServerContext* context, const v1::AnnotateRecordRequest* request,
                              v1::AnnotateRecordResponse* response) override;
  grpc::Status ReplayRecord(grpc::ServerContext* context, const v1::ReplayRecordRequest* request,
                            v1::ReplayRecordResponse* response) override;
  grpc::Status ConvertRecord(grpc::ServerContext* context, const v1::ConvertRecordRequest* request,
                             v1::ConvertRecordResponse* response) override;
  grpc::Status ListRulesets(grpc::ServerContext* context, const v1::ListRulesetsRequest* request,
                            v1::ListRulesetsResponse* response) override;
  grpc::Status GetRuleset(grpc::ServerContext* context, const v1::GetRulesetRequest* request,
                          v1::GetRulesetResponse* response) override;
  grpc::Status ListLegalMoves(grpc::ServerContext* context, const v1::ListLegalMovesRequest* request,
                              v1::ListLegalMovesResponse* response) override;
  grpc::Status MakeMove(grpc::ServerContext* context, const v1::MakeMoveRequest* request,
                        v1::MakeMoveResponse* response) override;
  grpc::Status SuggestMoves(grpc::ServerContext* context, const v1::SuggestMovesRequest* request,
                            v1::SuggestMovesResponse* response) override;

  int in_flight() const { return in_flight_.load(); }

  // The loaded table for a ruleset digest; null when there is none.
  std::shared_ptr<const Evaluator> TableFor(const std::string& digest) const;

 private:
  friend class Admission;
  ServiceOptions options_;
  std::map<std::string, std::shared_ptr<const Evaluator>> tables_;  // by digest
  Metrics* metrics_;
  std::atomic<int> in_flight_{0};
};

}  // namespace scribe::service

#endif  // SCRIBE_SERVICE_SERVICE_H_
