// ImportGames: a stream of record inputs judged message by message, the
// legal records handed to the games library's Importer (committed in
// batches as they come), the others listed in the answer.
#include <sys/resource.h>
#include <unistd.h>

#include <map>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "games/import.h"
#include "records/judged.h"
#include "service/database_requests.h"
#include "service/database_service.h"
#include "service/errors.h"
#include "service/idle_watch.h"
#include "service/limits.h"
#include "service/records_io.h"
#include "service/requests.h"

namespace scribe::service {

namespace {

// The answer lists this many rejected records; the rest are counted.
constexpr int kMaxRejections = 100;

void Reject(int message, int record, std::vector<v1::Finding> findings, const std::vector<FieldViolation>& violations,
            v1::ImportGamesResponse* response) {
  response->set_rejected(response->rejected() + 1);
  if (response->rejections_size() >= kMaxRejections) return;
  v1::RejectedRecord* rejected = response->add_rejections();
  rejected->set_message(message);
  rejected->set_record(record);
  for (v1::Finding& f : findings) *rejected->add_findings() = std::move(f);
  for (const FieldViolation& v : CapViolations(violations)) {
    rejected->add_violations(absl::StrCat(v.field, ": ", v.description));
  }
}

}  // namespace

grpc::Status GameDatabaseImpl::ImportGames(grpc::ServerContext* context,
                                           RequestReader<v1::ImportGamesRequest>* reader,
                                           v1::ImportGamesResponse* response) {
  return gate().Serve("ImportGames", context, [&](Call& call) {
    const grpc::Status allowed = MayWrite(options_.writers, *context);
    if (!allowed.ok()) return allowed;
    // The import runs on a thread of its own at a lower CPU priority (its
    // batch writer, started from it, inherits it): on a busy machine the
    // readers' calls are served first. The gRPC thread waits for it.
    grpc::Status status;
    std::thread worker([&] {
      if (options_.import_nice > 0) (void)setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), options_.import_nice);
      IdleWatch idle(options_.stream_idle_seconds, [context] {
        if (context != nullptr) context->TryCancel();
      });
      status = Import(call, reader, response, idle);
      if (idle.fired()) {
        status = Error(grpc::StatusCode::DEADLINE_EXCEEDED,
                       absl::StrCat("the stream sent nothing for ", options_.stream_idle_seconds,
                                    " s and was ended; the batches committed before are kept"),
                       "STREAM_IDLE");
      }
    });
    worker.join();
    return status;
  });
}

grpc::Status GameDatabaseImpl::Import(Call& call, RequestReader<v1::ImportGamesRequest>* reader,
                                      v1::ImportGamesResponse* response, IdleWatch& idle) {
  absl::StatusOr<StorePool::Lease> lease = pool_->Acquire();
  if (!lease.ok()) return FromAbsl(lease.status());
  games::ImportOptions options;
  options.batch_games = options_.batch_games;
  options.compaction = games::ImportOptions::Compaction::kLevels;
  options.update_players = false;  // the refresher's
  options.settle_each_batch = true;  // searches stay quick while streams go on
  absl::StatusOr<std::unique_ptr<games::Importer>> importer = games::Importer::Start(lease->store(), options);
  if (!importer.ok()) return DatabaseError(*lease, importer.status());
  v1::ImportGamesRequest request;
  std::vector<FieldViolation> violations;
  for (int message = 0;; ++message) {
    violations.clear();
    idle.Waiting();
    const Received received = reader->Read(&request, &violations);
    idle.Received();
    if (received == Received::kEnd) break;
    if (call.cancelled()) return call.Stopped();
    if (received == Received::kUnparsable) {  // a record in a message gRPC could not parse: not read
      response->set_records(response->records() + 1);
      Reject(message, -1, {}, violations, response);
      continue;
    }
    CheckName(request.source(), "source", &violations);
    Input input;
    absl::StatusOr<JudgedInput> judged = absl::InvalidArgumentError("the input cannot be read");
    if (ReadInput(request.input(), "input", limits_, &input, &violations) && violations.empty()) {
      const CallLimits limits = LimitsFor(ValidateAnswer(), limits_, InputBytes(request.input()), call.stop());
      judged = JudgeAll(input, "input", {.build_replay = false, .keep_positions = true}, limits, &violations);
    }
    if (!judged.ok()) {
      if (judged.status().code() == absl::StatusCode::kCancelled) return call.Stopped();
      response->set_records(response->records() + 1);
      Reject(message, -1, {}, violations, response);
      continue;
    }
    if (judged->entries == 0) {  // a text that holds no record: said, as validate says it
      response->set_records(response->records() + 1);
      Reject(message, -1, {judged->report.findings().begin(), judged->report.findings().end()},
             {{"input", "holds no record"}}, response);
      continue;
    }
    response->set_records(response->records() + judged->entries);
    // The report's findings by record: a record the reader could not read
    // has findings and no judged record.
    std::map<int, std::vector<v1::Finding>> findings;
    for (const v1::Finding& f : judged->report.findings()) findings[f.record_index()].push_back(f);
    // A text's bytes that are not UTF-8 are a finding (the record is not
    // legal); a structured record's strings are checked here.
    const auto not_utf8 = [&](const JudgedRecord& record) {
      return input.structured ? FirstNonUtf8Path(record.record) : std::string();
    };
    for (const JudgedRecord& record : judged->records) {
      const std::string where = not_utf8(record);
      if (record.verdict.valid() && where.empty()) {
        findings.erase(record.index);  // (a legal record has none to report)
        absl::Status added = (*importer)->Add(record, request.source(), record.index);
        if (!added.ok()) return DatabaseError(*lease, added);
        continue;
      }
      std::vector<FieldViolation> bad;
      if (!where.empty()) bad.push_back({"input.record", absl::StrCat(where, " is not UTF-8 text")});
      auto it = findings.find(record.index);
      Reject(message, record.index, it == findings.end() ? std::vector<v1::Finding>{} : std::move(it->second), bad,
             response);
      if (it != findings.end()) findings.erase(it);
    }
    // Entries the reader could not read at all: their findings only.
    const int unread = judged->entries - static_cast<int>(judged->records.size());
    for (int k = 0; k < unread; ++k) {
      auto it = findings.begin();
      if (it == findings.end()) {
        Reject(message, -1, {}, {{"input", "a record the reader could not read"}}, response);
        continue;
      }
      Reject(message, it->first, std::move(it->second), {}, response);
      findings.erase(it);
    }
  }
  if (call.cancelled()) return call.Stopped();
  const absl::Status finished = (*importer)->Finish();
  const games::ImportCounts& counts = (*importer)->counts();
  if (!finished.ok()) return DatabaseError(*lease, finished);
  response->set_added(counts.added);
  response->set_new_sources(counts.new_sources);
  response->set_known_sources(counts.known_sources);
  response->set_duplicates(counts.duplicates);
  if (counts.added > 0) {
    const absl::Status refreshed = refresher_.Due();
    if (!refreshed.ok()) return FromAbsl(refreshed);
  }
  return grpc::Status::OK;
}

}  // namespace scribe::service
