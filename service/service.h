// The gRPC service: thin handlers over the records and engine libraries.
// Each handler turns the request into library calls and the results into
// the response; errors go through service/errors.h.
#ifndef SCRIBE_SERVICE_SERVICE_H_
#define SCRIBE_SERVICE_SERVICE_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

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
};

class ScribeServiceImpl final : public v1::ScribeService::Service {
 public:
  explicit ScribeServiceImpl(ServiceOptions options, Metrics* metrics)
      : options_(options), metrics_(metrics) {}

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

  int in_flight() const { return in_flight_.load(); }

 private:
  friend class Admission;
  ServiceOptions options_;
  Metrics* metrics_;
  std::atomic<int> in_flight_{0};
};

}  // namespace scribe::service

#endif  // SCRIBE_SERVICE_SERVICE_H_
