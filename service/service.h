// The gRPC service: thin handlers over the records and engine libraries.
// Each handler reads as request -> domain -> response: its request is
// checked by service/requests.h, its record input read by
// service/records_io.h, and Serve owns what every call shares (admission,
// cancellation, the status and the metrics); errors go through
// service/errors.h.
#ifndef SCRIBE_SERVICE_SERVICE_H_
#define SCRIBE_SERVICE_SERVICE_H_

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "engine/evaluator.h"
#include "review/pipeline.h"
#include "scribe/v1/scribe_service.grpc.pb.h"
#include "service/call.h"
#include "service/errors.h"
#include "service/metrics.h"
#include "service/options.h"
#include "service/parsing_service.h"

namespace scribe::service {

class ScribeServiceImpl final : public ParsingService {
 public:
  // Of two tables of the same ruleset in `options.tables`, the first is
  // used (OpenTables refuses them).
  explicit ScribeServiceImpl(ServiceOptions options, Metrics* metrics);

  // The methods of v1::ScribeService, each registered under its name
  // (service/parsing_service.h); called directly, a request is taken as
  // it is.

  grpc::Status ValidateRecord(grpc::ServerContext* context, const v1::ValidateRecordRequest* request,
                              v1::ValidateRecordResponse* response);
  grpc::Status ValidateRecords(grpc::ServerContext* context,
                               RequestStream<v1::ValidateRecordsResponse, v1::ValidateRecordsRequest>* stream);
  grpc::Status AnnotateRecord(grpc::ServerContext* context, const v1::AnnotateRecordRequest* request,
                              v1::AnnotateRecordResponse* response);
  grpc::Status ReplayRecord(grpc::ServerContext* context, const v1::ReplayRecordRequest* request,
                            v1::ReplayRecordResponse* response);
  grpc::Status ConvertRecord(grpc::ServerContext* context, const v1::ConvertRecordRequest* request,
                             v1::ConvertRecordResponse* response);
  grpc::Status ListRulesets(grpc::ServerContext* context, const v1::ListRulesetsRequest* request,
                            v1::ListRulesetsResponse* response);
  grpc::Status GetRuleset(grpc::ServerContext* context, const v1::GetRulesetRequest* request,
                          v1::GetRulesetResponse* response);
  grpc::Status ListLegalMoves(grpc::ServerContext* context, const v1::ListLegalMovesRequest* request,
                              v1::ListLegalMovesResponse* response);
  grpc::Status MakeMove(grpc::ServerContext* context, const v1::MakeMoveRequest* request,
                        v1::MakeMoveResponse* response);
  grpc::Status SuggestMoves(grpc::ServerContext* context, const v1::SuggestMovesRequest* request,
                            v1::SuggestMovesResponse* response);

  int in_flight() const { return gate_.in_flight(); }

  // Ends the calls in flight: their work stops within milliseconds and they
  // answer UNAVAILABLE (scribed calls it when the shutdown's grace period
  // is over).
  void StopCalls() { gate_.Stop(); }
  // Admission, shutdown and metrics, shared with the server's other
  // services (service/database_service.h).
  Gate& gate() { return gate_; }

  // The loaded table for a ruleset digest; null when there is none.
  std::shared_ptr<const Evaluator> TableFor(const std::string& digest) const;
  // Every loaded table, by its rules' digest.
  const std::shared_ptr<const EvaluatorSource::TablesByDigest>& tables() const { return tables_; }

 private:
  // Every handler's wrapper: Gate::Serve.
  template <typename Body>
  grpc::Status Serve(const char* method, grpc::ServerContext* context, Body body) {
    return gate_.Serve(method, context, std::move(body));
  }

  ServiceOptions options_;
  std::shared_ptr<const EvaluatorSource::TablesByDigest> tables_;
  Gate gate_;
};

}  // namespace scribe::service

#endif  // SCRIBE_SERVICE_SERVICE_H_
