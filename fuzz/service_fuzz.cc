// Fuzzes every method of the gRPC service (service/service.h) with
// arbitrary requests, in process.
//
// Input: byte 0 picks the method (ValidateRecord, ValidateRecords,
// AnnotateRecord, ReplayRecord, ConvertRecord, ListRulesets, GetRuleset,
// ListLegalMoves, MakeMove, SuggestMoves: byte 0 modulo 10); the rest is
// that method's request, serialized, or else in protobuf text format.
// Inputs over 16 KiB are refused, and the service is set up with small
// limits (12 KiB of record text, 600 actions, searches at most 2 throws
// deep and over at most 300 actions), so that every input is quick. The
// service has one solved table loaded, of finkel(pieces=2) (solved when the
// fuzzer starts), so both exact values and estimates are driven.
//
// The unary handlers are called directly on the ScribeServiceImpl (they do
// not use their context); ValidateRecords goes through an in-process server.
//
// Properties, for every request:
//  - a response serializes and parses back (a client can read it);
//  - the status code is one docs/api.md gives for the method: OK or
//    INVALID_ARGUMENT, NOT_FOUND for GetRuleset of a reference, and
//    FAILED_PRECONDITION (reason TABLE_NOT_LOADED) for exact values or the
//    perfect opponent of rules with no table loaded, and only then;
//  - an error carries a google.rpc.Status in its details with the same code
//    and message; INVALID_ARGUMENT a google.rpc.BadRequest with at least
//    one violation, each with a field and a description; any other code a
//    google.rpc.ErrorInfo in domain scribe.v1 with a reason;
//  - ValidateRecord: valid exactly when there is no finding; a valid input
//    held at least one record; every finding has a code and a message, and
//    a record index below the records counted; the same request twice
//    gives the same answer;
//  - ValidateRecords: one answer per request, in order, with its id, equal
//    to ValidateRecord's for the same input (a request ValidateRecord
//    refuses is an invalid result with one bad-request finding per
//    violation);
//  - ReplayRecord succeeds exactly when ValidateRecord calls the input
//    valid (unless it holds text that is not UTF-8, which no response could
//    carry), with one replay per record; AnnotateRecord and ConvertRecord
//    succeed only for valid inputs, with an annotation per record;
//  - AnnotateRecord with winning_chances: every annotation has an
//    evaluator, exact exactly when it is the table, a chance per ply, and
//    every action its chances in [0, 1] and a loss >= 0; without it, no
//    annotation has winning chances;
//  - ConvertRecord's text, validated in the format it was written in (with
//    the same ruleset selector), is valid and holds as many records;
//  - ListRulesets: at most the page size, ids and digests present, a next
//    page token only when the page is full;
//  - GetRuleset: a digest and a text; the text, got again as an inline
//    ruleset, gives the same digest;
//  - ListLegalMoves: moves sorted by `from`, unique, each one (or the pass,
//    when there is none) accepted by MakeMove unless the game is over;
//  - MakeMove: exactly one of next_player and winner; the new position is
//    accepted by ListLegalMoves with the same ruleset and throw;
//  - SuggestMoves: the moves are ListLegalMoves' for the same ruleset,
//    position and throw, best first, chances in [0, 1]; a pass chance
//    exactly when there is no move; exact exactly when the rules are the
//    table's and no search was asked for; with a strength, the chosen move
//    is one of the moves (none for a pass), and the perfect opponent's is
//    the first when the values are exact.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include <unistd.h>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "analysis/table.h"
#include "engine/ruleset.h"
#include "engine/solver.h"
#include "engine/state_index.h"
#include "fuzz/fuzz_util.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "grpcpp/grpcpp.h"
#include "service/metrics.h"
#include "service/service.h"
#include "service/tables.h"

namespace scribe::fuzz {
namespace {

using grpc::StatusCode;
using Impl = service::ScribeServiceImpl;

// Small enough that every input is quick, large enough for whole games.
constexpr size_t kMaxServiceInput = 16 * 1024;

struct Fixture {
  service::Metrics metrics;
  std::unique_ptr<service::ScribeServiceImpl> service;
  // With the default limits, for checking what the service wrote (a
  // converted record may be longer than the record it came from).
  std::unique_ptr<service::ScribeServiceImpl> checker;
  std::unique_ptr<grpc::Server> server;
  std::unique_ptr<v1::ScribeService::Stub> stub;
  // The digest of the rules of the one table loaded.
  std::string table_digest;
};

// The rules of the table the fuzzed service has loaded.
constexpr char kTableRules[] = "finkel(pieces=2)";

// Solves kTableRules, writes the table to a temporary file and opens it as
// scribed does (the file is removed at once: the mapping keeps it).
std::shared_ptr<const Evaluator> SolvedTable() {
  auto rules = LoadRuleset(kTableRules);
  FUZZ_CHECK(rules.ok(), "the table's rules do not load");
  auto index = StateIndex::Create(**rules);
  FUZZ_CHECK(index.ok(), "the table's rules have no index");
  auto solution = Solve(**rules, **index);
  FUZZ_CHECK(solution.ok(), "the table's rules do not solve");
  const char* tmp = std::getenv("TMPDIR");
  const std::string path = absl::StrCat(tmp != nullptr ? tmp : "/tmp", "/service_fuzz_", ::getpid(), ".tbl");
  FUZZ_CHECK(WriteTable(path, **rules, *solution).ok(), "cannot write ", path);
  auto tables = service::OpenTables({path});
  ::unlink(path.c_str());
  FUZZ_CHECK(tables.ok(), "cannot open the table: ", tables.status().message());
  return tables->at(0).evaluator;
}

Fixture& TheFixture() {
  static Fixture* const fixture = [] {
    auto* f = new Fixture;
    service::ServiceOptions options;
    options.max_record_bytes = 12 * 1024;
    options.max_record_actions = 600;
    options.max_search_depth = 2;
    options.max_search_actions = 300;
    options.tables.push_back(SolvedTable());
    f->table_digest = options.tables[0]->rules().digest;
    f->service = std::make_unique<service::ScribeServiceImpl>(options, &f->metrics);
    f->checker = std::make_unique<service::ScribeServiceImpl>(service::ServiceOptions(), &f->metrics);
    grpc::ServerBuilder builder;
    builder.RegisterService(f->service.get());
    f->server = builder.BuildAndStart();
    FUZZ_CHECK(f->server != nullptr, "the in-process server does not start");
    f->stub = v1::ScribeService::NewStub(f->server->InProcessChannel(grpc::ChannelArguments()));
    return f;
  }();
  return *fixture;
}

service::ScribeServiceImpl& Service() { return *TheFixture().service; }

// The request: the bytes as a serialized message, or else as text format.
bool ParseRequest(absl::string_view bytes, google::protobuf::Message* request) {
  if (request->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) return true;
  request->Clear();
  return ParseTextFormat(bytes, request);
}

// The details of an error status, checked; the BadRequest for
// INVALID_ARGUMENT.
google::rpc::BadRequest CheckError(const grpc::Status& status, absl::string_view method,
                                   absl::string_view request) {
  google::rpc::Status rpc;
  FUZZ_CHECK(rpc.ParseFromString(status.error_details()), method, ": code ", status.error_code(),
             " without a google.rpc.Status in its details; message: ", status.error_message(),
             "\nrequest: ", request);
  FUZZ_CHECK(rpc.code() == status.error_code() && rpc.message() == status.error_message(), method,
             ": the details say code ", rpc.code(), " \"", rpc.message(), "\", the status ",
             status.error_code(), " \"", status.error_message(), "\"\nrequest: ", request);
  google::rpc::BadRequest bad;
  google::rpc::ErrorInfo info;
  bool has_bad = false, has_info = false;
  for (const auto& any : rpc.details()) {
    if (any.Is<google::rpc::BadRequest>()) has_bad = any.UnpackTo(&bad);
    if (any.Is<google::rpc::ErrorInfo>()) has_info = any.UnpackTo(&info);
  }
  if (status.error_code() == StatusCode::INVALID_ARGUMENT) {
    FUZZ_CHECK(has_bad && bad.field_violations_size() >= 1, method,
               ": INVALID_ARGUMENT without a BadRequest violation: ", rpc.ShortDebugString(),
               "\nrequest: ", request);
    for (const auto& v : bad.field_violations()) {
      FUZZ_CHECK(!v.field().empty() && !v.description().empty(), method,
                 ": a violation without a field or a description: ", v.ShortDebugString(),
                 "\nrequest: ", request);
    }
  } else {
    FUZZ_CHECK(has_info && info.domain() == "scribe.v1" && !info.reason().empty(), method, ": code ",
               status.error_code(), " without an ErrorInfo of scribe.v1: ", rpc.ShortDebugString(),
               "\nrequest: ", request);
  }
  return bad;
}

// The status is one of the codes the method may give, and well formed.
void CheckStatus(const grpc::Status& status, absl::string_view method, const google::protobuf::Message& request,
                 bool not_found_allowed = false, bool no_table_allowed = false) {
  const StatusCode code = status.error_code();
  const bool allowed = code == StatusCode::OK || code == StatusCode::INVALID_ARGUMENT ||
                       (not_found_allowed && code == StatusCode::NOT_FOUND) ||
                       (no_table_allowed && code == StatusCode::FAILED_PRECONDITION);
  FUZZ_CHECK(allowed, method, ": code ", code, " is not one the method gives (", status.error_message(),
             ")\nrequest: ", request.ShortDebugString());
  if (!status.ok()) CheckError(status, method, request.ShortDebugString());
  if (code == StatusCode::FAILED_PRECONDITION) {
    google::rpc::Status rpc;
    google::rpc::ErrorInfo info;
    rpc.ParseFromString(status.error_details());
    for (const auto& any : rpc.details()) {
      if (any.Is<google::rpc::ErrorInfo>()) any.UnpackTo(&info);
    }
    FUZZ_CHECK(info.reason() == "TABLE_NOT_LOADED", method, ": FAILED_PRECONDITION for ", info.reason(), " (",
               status.error_message(), ")\nrequest: ", request.ShortDebugString());
  }
}

// A response a client can read: it serializes and parses back (a proto3
// string field must hold UTF-8, or the client's parser refuses the whole
// message).
void CheckWire(const google::protobuf::Message& response, absl::string_view method,
               const google::protobuf::Message& request) {
  std::string wire;
  FUZZ_CHECK(response.SerializeToString(&wire), method, ": the response does not serialize");
  std::unique_ptr<google::protobuf::Message> back(response.New());
  FUZZ_CHECK(back->ParseFromString(wire), method, ": a client cannot parse the response (UTF-8?): ",
             Shown(response.ShortDebugString()), "\nrequest: ", request.ShortDebugString());
}

template <typename Request, typename Response>
using Handler = grpc::Status (Impl::*)(grpc::ServerContext*, const Request*, Response*);

// Parses the bytes as the request, calls the handler and checks its status
// (CheckStatus); false when the bytes are no request.
template <typename Request, typename Response>
bool Call(absl::string_view bytes, const char* method, Handler<Request, Response> handler, Request* request,
          Response* response, grpc::Status* status) {
  if (!ParseRequest(bytes, request)) return false;
  *status = (Service().*handler)(nullptr, request, response);
  bool not_found_allowed = false, no_table_allowed = false;
  if constexpr (std::is_same_v<Request, v1::GetRulesetRequest>) {
    not_found_allowed = request->ruleset().kind_case() == v1::RulesetSelector::kReference;
  }
  // Exact values (or the perfect opponent) demanded; whether a table of the
  // rules is loaded is checked by the method's own properties.
  if constexpr (std::is_same_v<Request, v1::AnnotateRecordRequest>) {
    no_table_allowed = request->winning_chances().mode() == v1::EVALUATION_MODE_EXACT;
  }
  if constexpr (std::is_same_v<Request, v1::SuggestMovesRequest>) {
    no_table_allowed = request->evaluation().mode() == v1::EVALUATION_MODE_EXACT || request->strength() == "perfect";
  }
  CheckStatus(*status, method, *request, not_found_allowed, no_table_allowed);
  if (status->ok()) CheckWire(*response, method, *request);
  return true;
}

// ValidateRecord, with its properties; the status and response.
grpc::Status Validate(const v1::RecordInput& input, v1::ValidateRecordResponse* response,
                      service::ScribeServiceImpl* on = &Service()) {
  v1::ValidateRecordRequest request;
  *request.mutable_input() = input;
  const grpc::Status status = on->ValidateRecord(nullptr, &request, response);
  CheckStatus(status, "ValidateRecord", request);
  if (!status.ok()) return status;
  CheckWire(*response, "ValidateRecord", request);
  const std::string shown = request.ShortDebugString();
  FUZZ_CHECK(response->valid() == (response->findings_size() == 0), "ValidateRecord: valid is ",
             response->valid(), " with ", response->findings_size(), " findings\nrequest: ", shown);
  FUZZ_CHECK(!response->valid() || response->records() >= 1, "ValidateRecord: valid with ",
             response->records(), " records\nrequest: ", shown);
  for (const v1::Finding& f : response->findings()) {
    FUZZ_CHECK(!f.code().empty() && !f.message().empty(), "ValidateRecord: a finding without a code or message: ",
               f.ShortDebugString(), "\nrequest: ", shown);
    FUZZ_CHECK(!f.has_record_index() || (f.record_index() >= 0 && f.record_index() < response->records()),
               "ValidateRecord: a finding of record ", f.record_index(), " of ", response->records(), ": ",
               f.ShortDebugString(), "\nrequest: ", shown);
  }
  return status;
}

void FuzzValidateRecord(absl::string_view bytes) {
  v1::ValidateRecordRequest request;
  if (!ParseRequest(bytes, &request)) return;
  v1::ValidateRecordResponse first, second;
  const grpc::Status a = Validate(request.input(), &first);
  const grpc::Status b = Validate(request.input(), &second);
  std::string diff;
  FUZZ_CHECK(a.error_code() == b.error_code() && a.error_message() == b.error_message() &&
                 SameMessage(first, second, &diff),
             "ValidateRecord: the same request answered twice differently:\n", diff,
             "request: ", request.ShortDebugString());
}

void FuzzValidateRecords(absl::string_view bytes) {
  v1::ValidateRecordsRequest request;
  if (!ParseRequest(bytes, &request)) return;
  // The request, a request with no record, and the request again.
  std::vector<v1::ValidateRecordsRequest> requests(3, request);
  requests[1].clear_input();
  requests[1].set_id("no record");
  requests[2].set_id(request.id() + "/again");
  grpc::ClientContext context;
  auto stream = TheFixture().stub->ValidateRecords(&context);
  std::vector<v1::ValidateRecordsResponse> responses;
  // One request at a time, each answer read before the next is written.
  for (const v1::ValidateRecordsRequest& r : requests) {
    FUZZ_CHECK(stream->Write(r), "ValidateRecords: the stream refused a write\nrequest: ", r.ShortDebugString());
    v1::ValidateRecordsResponse response;
    FUZZ_CHECK(stream->Read(&response), "ValidateRecords: no answer to a request\nrequest: ",
               r.ShortDebugString());
    responses.push_back(std::move(response));
  }
  stream->WritesDone();
  v1::ValidateRecordsResponse extra;
  FUZZ_CHECK(!stream->Read(&extra), "ValidateRecords: an answer no request asked for: ", extra.ShortDebugString());
  const grpc::Status status = stream->Finish();
  CheckStatus(status, "ValidateRecords", request);
  FUZZ_CHECK(status.ok(), "ValidateRecords: ", status.error_code(), " ", status.error_message());
  for (size_t k = 0; k < requests.size(); ++k) {
    const v1::ValidateRecordsResponse& got = responses[k];
    const std::string shown = requests[k].ShortDebugString();
    FUZZ_CHECK(got.id() == requests[k].id(), "ValidateRecords: answer ", k, " has id \"", got.id(),
               "\" for \"", requests[k].id(), "\"");
    v1::ValidateRecordResponse unary;
    const grpc::Status unary_status = Validate(requests[k].input(), &unary);
    if (unary_status.ok()) {
      v1::ValidateRecordsResponse expected;
      expected.set_id(requests[k].id());
      expected.set_valid(unary.valid());
      *expected.mutable_findings() = unary.findings();
      std::string diff;
      FUZZ_CHECK(SameMessage(expected, got, &diff), "ValidateRecords answered otherwise than ValidateRecord:\n",
                 diff, "request: ", shown);
    } else {
      const google::rpc::BadRequest bad = CheckError(unary_status, "ValidateRecord", shown);
      FUZZ_CHECK(!got.valid() && got.findings_size() == bad.field_violations_size(),
                 "ValidateRecords: a request ValidateRecord refuses with ", bad.field_violations_size(),
                 " violations answered ", got.ShortDebugString(), "\nrequest: ", shown);
      for (const v1::Finding& f : got.findings()) {
        FUZZ_CHECK(f.code() == "bad-request", "ValidateRecords: a refused request's finding ", f.ShortDebugString());
      }
    }
  }
}

// How many records ValidateRecord counts in an input, -1 when the input is
// not valid (or not a usable request).
int ValidRecords(const v1::RecordInput& input) {
  v1::ValidateRecordResponse response;
  if (!Validate(input, &response).ok() || !response.valid()) return -1;
  return response.records();
}

void FuzzAnnotateRecord(absl::string_view bytes) {
  v1::AnnotateRecordRequest request;
  v1::AnnotateRecordResponse response;
  grpc::Status status;
  if (!Call(bytes, "AnnotateRecord", &Impl::AnnotateRecord, &request, &response, &status)) return;
  const std::string shown = request.ShortDebugString();
  if (status.error_code() == StatusCode::FAILED_PRECONDITION) {
    // Only when a record's rules have no table: the best available values
    // then include an estimate (or the search's limit is reached).
    v1::AnnotateRecordRequest best = request;
    best.mutable_winning_chances()->set_mode(v1::EVALUATION_MODE_UNSPECIFIED);
    v1::AnnotateRecordResponse answer;
    const grpc::Status again = Service().AnnotateRecord(nullptr, &best, &answer);
    bool estimated = false;
    for (const v1::Annotation& a : answer.annotations()) estimated |= !a.exact();
    const google::rpc::BadRequest bad =
        again.error_code() == StatusCode::INVALID_ARGUMENT ? CheckError(again, "AnnotateRecord", shown)
                                                           : google::rpc::BadRequest();
    FUZZ_CHECK((again.ok() && estimated) ||
                   (bad.field_violations_size() == 1 && bad.field_violations(0).field() == "winning_chances"),
               "AnnotateRecord: no table for exact values (", status.error_message(),
               "), but the best available values are ", again.error_message(), " ",
               Shown(answer.ShortDebugString()), "\nrequest: ", shown);
    return;
  }
  if (!status.ok()) return;
  const int records = ValidRecords(request.input());
  FUZZ_CHECK(records >= 1 && response.annotations_size() == records, "AnnotateRecord: ",
             response.annotations_size(), " annotations of an input ValidateRecord counts ", records,
             " valid records in (-1: not valid)\nrequest: ", shown);
  FUZZ_CHECK(request.text_format() == v1::RECORD_FORMAT_UNSPECIFIED || !response.text().empty(),
             "AnnotateRecord: no text in the format asked for\nrequest: ", shown);
  const auto in_range = [](double x) { return x >= 0 && x <= 1; };
  for (const v1::Annotation& a : response.annotations()) {
    if (!request.has_winning_chances()) {
      FUZZ_CHECK(!a.has_evaluator() && a.light_chance_size() == 0, "AnnotateRecord: winning chances not asked for: ",
                 Shown(a.ShortDebugString()), "\nrequest: ", shown);
      continue;
    }
    const bool table = a.ruleset_digest() == TheFixture().table_digest &&
                       request.winning_chances().mode() != v1::EVALUATION_MODE_SEARCH;
    FUZZ_CHECK(a.has_evaluator() && !a.evaluator().empty() && a.exact() == table &&
                   a.light_chance_size() == a.actions_size() + 1,
               "AnnotateRecord: winning chances asked for (the table's rules: ", table, "), got evaluator \"",
               a.evaluator(), "\" exact ", a.exact(), " with ", a.light_chance_size(), " chances for ",
               a.actions_size(), " actions\nrequest: ", shown);
    for (double c : a.light_chance()) {
      FUZZ_CHECK(in_range(c), "AnnotateRecord: light's chance ", c, "\nrequest: ", shown);
    }
    for (const v1::AnnotatedAction& x : a.actions()) {
      FUZZ_CHECK(x.has_chance_before() && in_range(x.chance_before()) && in_range(x.throw_value()) &&
                     in_range(x.chance_after()) && x.loss() >= 0,
                 "AnnotateRecord: action ", x.index(), "'s chances: ", x.ShortDebugString(), "\nrequest: ", shown);
    }
  }
}

void FuzzReplayRecord(absl::string_view bytes) {
  v1::ReplayRecordRequest request;
  v1::ReplayRecordResponse response;
  grpc::Status status;
  if (!Call(bytes, "ReplayRecord", &Impl::ReplayRecord, &request, &response, &status)) return;
  const int records = ValidRecords(request.input());
  // A valid record is refused only when it holds text that is not UTF-8
  // (which no response could carry).
  FUZZ_CHECK(status.ok() ? records >= 1
                         : records < 1 || absl::StrContains(status.error_message(), "is not UTF-8 text"),
             "ReplayRecord: ", status.error_code(), " (", status.error_message(),
             ") for an input ValidateRecord counts ", records, " valid records in (-1: not valid)\nrequest: ",
             request.ShortDebugString());
  if (status.ok()) {
    FUZZ_CHECK(response.replays_size() == records, "ReplayRecord: ", response.replays_size(), " replays of ",
               records, " records\nrequest: ", request.ShortDebugString());
  }
}

void FuzzConvertRecord(absl::string_view bytes) {
  v1::ConvertRecordRequest request;
  v1::ConvertRecordResponse response;
  grpc::Status status;
  if (!Call(bytes, "ConvertRecord", &Impl::ConvertRecord, &request, &response, &status)) return;
  if (!status.ok()) return;
  const std::string shown = request.ShortDebugString();
  const int records = ValidRecords(request.input());
  FUZZ_CHECK(records >= 1 && response.records_size() == records, "ConvertRecord: ", response.records_size(),
             " records converted of an input ValidateRecord counts ", records,
             " valid records in (-1: not valid)\nrequest: ", shown);
  // What it wrote is a legal record too, in the format it was written in.
  v1::RecordInput written;
  written.set_text(response.text());
  written.set_format(request.to());
  if (request.input().has_ruleset()) *written.mutable_ruleset() = request.input().ruleset();
  // RGN names no ruleset: name the records' own when the request did not.
  if (request.to() == v1::RECORD_FORMAT_RGN && !written.has_ruleset()) {
    written.mutable_ruleset()->set_reference(response.records(0).ruleset());
  }
  v1::ValidateRecordResponse check;
  const grpc::Status check_status = Validate(written, &check, TheFixture().checker.get());
  FUZZ_CHECK(check_status.ok() && check.valid() && check.records() == records,
             "ConvertRecord wrote what does not validate: ", check_status.error_message(), " ",
             check.ShortDebugString(), "\nwritten: ", Shown(response.text()), "\nrequest: ", shown);
}

void FuzzListRulesets(absl::string_view bytes) {
  v1::ListRulesetsRequest request;
  v1::ListRulesetsResponse response;
  grpc::Status status;
  if (!Call(bytes, "ListRulesets", &Impl::ListRulesets, &request, &response, &status)) return;
  if (!status.ok()) return;
  const int page = request.page_size() == 0 ? 50 : std::min(request.page_size(), 1000);
  FUZZ_CHECK(response.rulesets_size() <= page, "ListRulesets: ", response.rulesets_size(),
             " rulesets in a page of ", page);
  for (const v1::RulesetSummary& s : response.rulesets()) {
    FUZZ_CHECK(!s.id().empty() && !s.digest().empty(), "ListRulesets: a summary without id or digest: ",
               s.ShortDebugString());
  }
  if (!response.next_page_token().empty()) {
    int next = 0;
    FUZZ_CHECK(response.rulesets_size() == page && absl::SimpleAtoi(response.next_page_token(), &next),
               "ListRulesets: next page token \"", response.next_page_token(), "\" after ",
               response.rulesets_size(), " of a page of ", page);
  }
}

void FuzzGetRuleset(absl::string_view bytes) {
  v1::GetRulesetRequest request;
  v1::GetRulesetResponse response;
  grpc::Status status;
  if (!Call(bytes, "GetRuleset", &Impl::GetRuleset, &request, &response, &status)) return;
  if (!status.ok()) return;
  FUZZ_CHECK(!response.digest().empty() && !response.text().empty(), "GetRuleset: no digest or text\nrequest: ",
             request.ShortDebugString());
  v1::GetRulesetRequest again;
  again.mutable_ruleset()->set_text(response.text());
  v1::GetRulesetResponse again_response;
  const grpc::Status again_status = Service().GetRuleset(nullptr, &again, &again_response);
  FUZZ_CHECK(again_status.ok() && again_response.digest() == response.digest(),
             "GetRuleset: its own text gives ", again_status.error_message(), " digest ", again_response.digest(),
             " instead of ", response.digest(), "\ntext: ", Shown(response.text()),
             "\nrequest: ", request.ShortDebugString());
}

// MakeMove, with its properties; the status and response.
grpc::Status MakeMove(const v1::MakeMoveRequest& request, v1::MakeMoveResponse* response) {
  const grpc::Status status = Service().MakeMove(nullptr, &request, response);
  CheckStatus(status, "MakeMove", request);
  if (!status.ok()) return status;
  CheckWire(*response, "MakeMove", request);
  const std::string shown = request.ShortDebugString();
  FUZZ_CHECK(response->has_winner() != response->has_next_player() && !response->position().empty(),
             "MakeMove: ", response->ShortDebugString(), "\nrequest: ", shown);
  v1::ListLegalMovesRequest next;
  *next.mutable_ruleset() = request.ruleset();
  next.set_position(response->position());
  next.set_roll(request.roll());
  v1::ListLegalMovesResponse moves;
  const grpc::Status next_status = Service().ListLegalMoves(nullptr, &next, &moves);
  FUZZ_CHECK(next_status.ok(), "MakeMove gave a position ListLegalMoves refuses: ", next_status.error_message(),
             "\nposition: ", response->position(), "\nrequest: ", shown);
  return status;
}

void FuzzListLegalMoves(absl::string_view bytes) {
  v1::ListLegalMovesRequest request;
  v1::ListLegalMovesResponse response;
  grpc::Status status;
  if (!Call(bytes, "ListLegalMoves", &Impl::ListLegalMoves, &request, &response, &status)) return;
  if (!status.ok()) return;
  const std::string shown = request.ShortDebugString();
  FUZZ_CHECK(response.player() == v1::LIGHT || response.player() == v1::DARK, "ListLegalMoves: player ",
             response.player(), "\nrequest: ", shown);
  for (int k = 1; k < response.moves_size(); ++k) {
    const v1::Move& a = response.moves(k - 1);
    const v1::Move& b = response.moves(k);
    FUZZ_CHECK(a.from() < b.from() || (a.from() == b.from() && a.to() < b.to()),
               "ListLegalMoves: moves not sorted by from, or repeated: ", response.ShortDebugString(),
               "\nrequest: ", shown);
  }
  // Every move it lists (or the pass) is one MakeMove makes, unless the
  // game is over.
  v1::MakeMoveRequest make;
  *make.mutable_ruleset() = request.ruleset();
  make.set_position(request.position());
  make.set_roll(request.roll());
  std::vector<v1::MakeMoveRequest> makes;
  if (response.moves_size() == 0) makes.push_back(make);
  for (const v1::Move& m : response.moves()) {
    *make.mutable_move() = m;
    makes.push_back(make);
  }
  for (const v1::MakeMoveRequest& m : makes) {
    v1::MakeMoveResponse made;
    const grpc::Status made_status = MakeMove(m, &made);
    if (made_status.ok()) continue;
    const google::rpc::BadRequest bad = CheckError(made_status, "MakeMove", m.ShortDebugString());
    FUZZ_CHECK(bad.field_violations_size() == 1 && bad.field_violations(0).field() == "position" &&
                   bad.field_violations(0).description() == "the game is over: no more moves",
               "MakeMove refused what ListLegalMoves lists: ", made_status.error_message(),
               "\nmoves: ", response.ShortDebugString(), "\nrequest: ", m.ShortDebugString());
  }
}

// The digest a request's selector resolves to, empty when it does not
// (GetRuleset, on the checker).
std::string SelectorDigest(const v1::RulesetSelector& selector) {
  v1::GetRulesetRequest request;
  *request.mutable_ruleset() = selector;
  v1::GetRulesetResponse response;
  if (!TheFixture().checker->GetRuleset(nullptr, &request, &response).ok()) return "";
  return response.digest();
}

void FuzzSuggestMoves(absl::string_view bytes) {
  v1::SuggestMovesRequest request;
  v1::SuggestMovesResponse response;
  grpc::Status status;
  if (!Call(bytes, "SuggestMoves", &Impl::SuggestMoves, &request, &response, &status)) return;
  const std::string shown = request.ShortDebugString();
  const std::string digest = SelectorDigest(request.ruleset());
  const bool has_table = !digest.empty() && digest == TheFixture().table_digest;
  if (status.error_code() == StatusCode::FAILED_PRECONDITION) {
    FUZZ_CHECK(!has_table, "SuggestMoves: no table for the loaded table's rules (", status.error_message(),
               ")\nrequest: ", shown);
  }
  if (!status.ok()) return;
  FUZZ_CHECK(response.player() == v1::LIGHT || response.player() == v1::DARK, "SuggestMoves: player ",
             response.player(), "\nrequest: ", shown);
  FUZZ_CHECK(response.ruleset_digest() == digest && !response.evaluator().empty(),
             "SuggestMoves: digest ", response.ruleset_digest(), " for rules of ", digest, ", evaluator \"",
             response.evaluator(), "\"\nrequest: ", shown);
  const bool exact = has_table && request.evaluation().mode() != v1::EVALUATION_MODE_SEARCH;
  FUZZ_CHECK(response.exact() == exact, "SuggestMoves: exact ", response.exact(), " (", response.evaluator(),
             ") for rules ", has_table ? "with" : "without", " the table, mode ", request.evaluation().mode(),
             "\nrequest: ", shown);
  // The moves are the legal ones.
  v1::ListLegalMovesRequest list;
  *list.mutable_ruleset() = request.ruleset();
  list.set_position(request.position());
  list.set_roll(request.roll());
  v1::ListLegalMovesResponse legal;
  const grpc::Status list_status = Service().ListLegalMoves(nullptr, &list, &legal);
  FUZZ_CHECK(list_status.ok(), "SuggestMoves answered what ListLegalMoves refuses: ", list_status.error_message(),
             "\nrequest: ", shown);
  const auto key = [](const v1::Move& m) { return std::make_pair(m.from(), m.to()); };
  std::vector<std::pair<int, int>> suggested, listed;
  for (const v1::SuggestedMove& m : response.moves()) suggested.push_back(key(m.move()));
  for (const v1::Move& m : legal.moves()) listed.push_back(key(m));
  std::sort(suggested.begin(), suggested.end());
  FUZZ_CHECK(suggested == listed && response.player() == legal.player(), "SuggestMoves: ",
             Shown(response.ShortDebugString()), "\nListLegalMoves: ", legal.ShortDebugString(), "\nrequest: ", shown);
  for (int k = 0; k < response.moves_size(); ++k) {
    const double c = response.moves(k).chance();
    FUZZ_CHECK(c >= 0 && c <= 1 && (k == 0 || response.moves(k - 1).chance() >= c),
               "SuggestMoves: chances out of range or order: ", response.ShortDebugString(), "\nrequest: ", shown);
  }
  FUZZ_CHECK(response.has_pass_chance() == (response.moves_size() == 0) &&
                 (!response.has_pass_chance() || (response.pass_chance() >= 0 && response.pass_chance() <= 1)),
             "SuggestMoves: pass chance ", response.ShortDebugString(), "\nrequest: ", shown);
  // The opponent's move.
  if (request.strength().empty()) {
    FUZZ_CHECK(response.strength().empty() && !response.has_chosen_move(),
               "SuggestMoves: a move chosen without a strength: ", response.ShortDebugString(), "\nrequest: ", shown);
    return;
  }
  FUZZ_CHECK(!response.strength().empty() && response.has_chosen_move() == (response.moves_size() > 0),
             "SuggestMoves: strength ", request.strength(), " chose ", response.chosen_move().ShortDebugString(),
             " among ", response.moves_size(), " moves\nrequest: ", shown);
  if (!response.has_chosen_move()) return;
  FUZZ_CHECK(std::binary_search(suggested.begin(), suggested.end(), key(response.chosen_move())),
             "SuggestMoves: the chosen move is not legal: ", response.ShortDebugString(), "\nrequest: ", shown);
  if (response.strength() == "perfect" && response.exact()) {
    FUZZ_CHECK(key(response.chosen_move()) == key(response.moves(0).move()),
               "SuggestMoves: the perfect opponent does not play the best move: ", response.ShortDebugString(),
               "\nrequest: ", shown);
  }
}

void FuzzMakeMove(absl::string_view bytes) {
  v1::MakeMoveRequest request;
  if (!ParseRequest(bytes, &request)) return;
  v1::MakeMoveResponse response;
  MakeMove(request, &response);
}

}  // namespace
}  // namespace scribe::fuzz

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  scribe::fuzz::SilenceProtobufLogs();
  scribe::fuzz::TheFixture();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace scribe::fuzz;
  if (size == 0) return 0;
  if (size > kMaxServiceInput) return kRejectInput;
  const absl::string_view request(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 10) {
    case 0: FuzzValidateRecord(request); break;
    case 1: FuzzValidateRecords(request); break;
    case 2: FuzzAnnotateRecord(request); break;
    case 3: FuzzReplayRecord(request); break;
    case 4: FuzzConvertRecord(request); break;
    case 5: FuzzListRulesets(request); break;
    case 6: FuzzGetRuleset(request); break;
    case 7: FuzzListLegalMoves(request); break;
    case 8: FuzzMakeMove(request); break;
    case 9: FuzzSuggestMoves(request); break;
  }
  return 0;
}
