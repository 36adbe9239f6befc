// In-process tests of every method of the gRPC service, good input and bad:
// bytes that are not a record, a record at the limits, unknown and malicious
// ruleset references, a stream the client abandons, deadlines that expire,
// and overload; winning chances (SuggestMoves, AnnotateRecord) exact from a
// table solved here for finkel(pieces=2), and estimated by search.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "analysis/table.h"
#include "engine/evaluator.h"
#include "engine/position.h"
#include "engine/random.h"
#include "engine/ruleset.h"
#include "engine/search.h"
#include "engine/solver.h"
#include "engine/state_index.h"
#include "google/protobuf/util/message_differencer.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "grpcpp/generic/generic_stub.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "review/annotate.h"
#include "review/annotation_text.h"
#include "review/review.h"
#include "records/json_record.h"
#include "records/position_string.h"
#include "records/random_game.h"
#include "records/tsn.h"
#include "service/service.h"
#include "service/tables.h"
#include "tests/service/status_details.h"

namespace scribe::service {
namespace {

class ServiceTest : public ::testing::Test {
 protected:
  void SetUp() override { Start(ServiceOptions{}); }
  void TearDown() override { server_->Shutdown(); }

  void Start(ServiceOptions options) {
    if (server_) server_->Shutdown();
    service_ = std::make_unique<ScribeServiceImpl>(options, &metrics_);
    grpc::ServerBuilder builder;
    builder.RegisterService(service_.get());
    builder.SetMaxReceiveMessageSize(64 << 20);
    server_ = builder.BuildAndStart();
    grpc::ChannelArguments args;
    args.SetMaxReceiveMessageSize(64 << 20);
    args.SetMaxSendMessageSize(64 << 20);
    stub_ = v1::ScribeService::NewStub(server_->InProcessChannel(args));
  }

  // The fields of a BadRequest's violations, in order.
  static std::vector<std::string> ViolatedFields(const grpc::Status& status) {
    std::vector<std::string> fields;
    const google::rpc::BadRequest bad = BadRequestOf(status);
    for (const auto& v : bad.field_violations()) fields.push_back(v.field());
    return fields;
  }

  // A solved table of finkel(pieces=2), written once per test program to a
  // temporary file; its path.
  static const std::string& TablePath() {
    // Never destroyed: the exit handler that removes the file reads it.
    static const std::string* const path = [] {
      auto* p = new std::string(absl::StrCat(::testing::TempDir(), "/service_test_", ::getpid(), "_finkel2.tbl"));
      auto rules = LoadRuleset(kTableRules);
      EXPECT_TRUE(rules.ok()) << rules.status();
      auto index = StateIndex::Create(**rules);
      EXPECT_TRUE(index.ok()) << index.status();
      auto solution = Solve(**rules, **index);
      EXPECT_TRUE(solution.ok()) << solution.status();
      const absl::Status written = WriteTable(*p, **rules, *solution);
      EXPECT_TRUE(written.ok()) << written;
      return p;
    }();
    static const bool removed_at_exit = std::atexit([] { std::remove(path->c_str()); }) == 0;
    (void)removed_at_exit;
    return *path;
  }

  // The table, opened as the server opens it, and the server started with
  // it.
  std::shared_ptr<const Evaluator> StartWithTable(ServiceOptions options = {}) {
    auto tables = OpenTables({TablePath()});
    EXPECT_TRUE(tables.ok()) << tables.status();
    if (!tables.ok()) return nullptr;
    options.tables.push_back(tables->at(0).evaluator);
    Start(options);
    return tables->at(0).evaluator;
  }

  grpc::Status Suggest(const v1::SuggestMovesRequest& request, v1::SuggestMovesResponse* response) {
    grpc::ClientContext context;
    response->Clear();
    return stub_->SuggestMoves(&context, request, response);
  }

  static v1::SuggestMovesRequest SuggestRequest(const std::string& ruleset, const std::string& position, int roll) {
    v1::SuggestMovesRequest request;
    request.mutable_ruleset()->set_reference(ruleset);
    request.set_position(position);
    request.set_roll(roll);
    return request;
  }

  // Every position of a random game of `preset` (before each throw) with
  // the throw made there.
  static std::vector<std::pair<Position, int>> GamePositions(const std::string& preset, uint64_t seed) {
    const Rules& rules = **LoadRuleset(preset);
    const v1::GameRecord game = RandomGame(preset, seed);
    const std::vector<Position> positions = RecordPositions(rules, game);
    std::vector<std::pair<Position, int>> out;
    for (int k = 0; k < game.actions_size(); ++k) out.emplace_back(positions[k], game.actions(k).roll());
    return out;
  }

  static constexpr char kTableRules[] = "finkel(pieces=2)";

  // A random legal finkel game.
  static v1::GameRecord RandomGame(const std::string& preset, uint64_t seed) {
    const Rules& rules = **LoadRuleset(preset);
    Rng rng(seed);
    RandomGameOptions options;
    options.ruleset = preset;
    return PlayRandomGame(rules, rng, options).record;
  }

  Metrics metrics_;
  std::unique_ptr<ScribeServiceImpl> service_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<v1::ScribeService::Stub> stub_;
};

TEST_F(ServiceTest, ValidateRecordAcceptsALegalGameAsTextAndAsStructure) {
  const v1::GameRecord game = RandomGame("finkel", 1);
  for (int as_text = 0; as_text < 2; ++as_text) {
    v1::ValidateRecordRequest request;
    if (as_text) request.mutable_input()->set_text(WriteJsonRecord(game));
    else *request.mutable_input()->mutable_record() = game;
    v1::ValidateRecordResponse response;
    grpc::ClientContext context;
    ASSERT_TRUE(stub_->ValidateRecord(&context, request, &response).ok());
    EXPECT_TRUE(response.valid());
    EXPECT_EQ(response.findings_size(), 0);
    EXPECT_EQ(response.records(), 1);
  }
}

TEST_F(ServiceTest, ValidateRecordSaysHowManyRecordsTheInputHeld) {
  const std::vector<v1::GameRecord> games = {RandomGame("finkel", 3), RandomGame("blitz", 4), RandomGame("finkel", 5)};
  const std::string tsn = *WriteTsn(games);
  const std::string json = absl::StrCat("[", WriteJsonRecord(games[0]), ",", WriteJsonRecord(games[1]), ", 7]");
  for (const auto& [text, records, valid] :
       {std::tuple<std::string, int, bool>{tsn, 3, true}, {json, 3, false}, {"{{", 1, false}, {"", 0, false}}) {
    v1::ValidateRecordRequest request;
    request.mutable_input()->set_text(text);
    v1::ValidateRecordResponse response;
    grpc::ClientContext context;
    ASSERT_TRUE(stub_->ValidateRecord(&context, request, &response).ok());
    EXPECT_EQ(response.records(), records) << text.substr(0, 80);
    EXPECT_EQ(response.valid(), valid) << text.substr(0, 80);
  }
}

TEST_F(ServiceTest, ValidateRecordGivesFindingsNotErrorsForBrokenRecords) {
  v1::ValidateRecordRequest request;
  request.mutable_input()->set_text("[Ruleset \"finkel\"]\n\n1. L 3:0-3\n2. D 2:0-5\n");
  v1::ValidateRecordResponse response;
  grpc::ClientContext context;
  ASSERT_TRUE(stub_->ValidateRecord(&context, request, &response).ok());
  EXPECT_FALSE(response.valid());
  ASSERT_EQ(response.findings_size(), 1);
  EXPECT_EQ(response.findings(0).code(), "move-roll-mismatch");
  EXPECT_EQ(response.findings(0).line(), 4);
  EXPECT_EQ(response.findings(0).action_index(), 1);
  EXPECT_TRUE(absl::StrContains(response.findings(0).message(), "expected one of 0->2"));
}

TEST_F(ServiceTest, BytesThatAreNotARecordAreAFinding) {
  for (const std::string& garbage : {std::string("\x00\x01\xff\xfe", 4), std::string("{{{{"), std::string("hello"),
                                     std::string("[1,2,3]"), std::string()}) {
    v1::ValidateRecordRequest request;
    request.mutable_input()->set_text(garbage);
    v1::ValidateRecordResponse response;
    grpc::ClientContext context;
    ASSERT_TRUE(stub_->ValidateRecord(&context, request, &response).ok());
    EXPECT_FALSE(response.valid()) << garbage;
    EXPECT_GE(response.findings_size(), 1) << garbage;
  }
}

// Findings and error details quote the request's bytes; every string a
// client parses must be UTF-8 (proto3), or its parser refuses the message.
TEST_F(ServiceTest, BytesThatAreNotUtf8NeverReachAResponseOrError) {
  // A byte that is not UTF-8 in a JSON text (where a number belongs).
  const std::string broken = "{\"ruleset\": \"finkel\", \"actions\": [{\"roll\": \x84}]}";
  v1::ValidateRecordRequest validate;
  validate.mutable_input()->set_text(broken);
  v1::ValidateRecordResponse validated;
  grpc::ClientContext c1;
  const grpc::Status s1 = stub_->ValidateRecord(&c1, validate, &validated);
  ASSERT_TRUE(s1.ok()) << s1.error_code() << " " << s1.error_message();
  ASSERT_FALSE(validated.valid());
  // (The byte is not UTF-8: the finding says so, naming it in hex.)
  EXPECT_EQ(validated.findings(0).code(), "text-not-utf8");
  EXPECT_TRUE(absl::StrContains(validated.findings(0).message(), "byte 0x84")) << validated.findings(0).message();

  // The same bytes as a record to convert: the error's details parse.
  v1::ConvertRecordRequest convert;
  convert.mutable_input()->set_text(broken);
  convert.set_to(v1::RECORD_FORMAT_TSN);
  v1::ConvertRecordResponse converted;
  grpc::ClientContext c2;
  const grpc::Status s2 = stub_->ConvertRecord(&c2, convert, &converted);
  EXPECT_EQ(s2.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  ASSERT_EQ(BadRequestOf(s2).field_violations_size(), 1) << "the details parse";

  // A record whose tag value is not UTF-8 is not legal (its text would be
  // changed): ValidateRecord says where, and converting, replaying or
  // annotating it is refused.
  const std::string latin1 = "[Ruleset \"finkel\"]\n[Event \"Caf\xe9\"]\n\n1. L 0:-\n";
  validate.mutable_input()->set_text(latin1);
  grpc::ClientContext c3;
  ASSERT_TRUE(stub_->ValidateRecord(&c3, validate, &validated).ok());
  EXPECT_FALSE(validated.valid());
  ASSERT_EQ(validated.findings_size(), 1);
  EXPECT_EQ(validated.findings(0).code(), "text-not-utf8");
  EXPECT_EQ(validated.findings(0).line(), 2);
  EXPECT_EQ(validated.findings(0).column(), 12);
  convert.mutable_input()->set_text(latin1);
  grpc::ClientContext c4;
  const grpc::Status s4 = stub_->ConvertRecord(&c4, convert, &converted);
  EXPECT_EQ(s4.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  const auto bad = BadRequestOf(s4);
  ASSERT_EQ(bad.field_violations_size(), 1);
  EXPECT_EQ(bad.field_violations(0).field(), "input");
  EXPECT_TRUE(absl::StrContains(bad.field_violations(0).description(), "not UTF-8 text"))
      << bad.field_violations(0).description();
  v1::ReplayRecordRequest replay;
  replay.mutable_input()->set_text(latin1);
  v1::ReplayRecordResponse replayed;
  grpc::ClientContext c5;
  EXPECT_EQ(stub_->ReplayRecord(&c5, replay, &replayed).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
}

// A string field whose bytes are not UTF-8 makes a message protobuf's own
// parse refuses: the service parses requests itself, and names the field.
TEST_F(ServiceTest, AStringFieldThatIsNotUtf8IsABadRequestNamingIt) {
  EXPECT_TRUE(service_->MissingMethods().empty());
  v1::ValidateRecordRequest validate;
  *validate.mutable_input()->mutable_record() = RandomGame("finkel", 5);
  validate.mutable_input()->mutable_ruleset()->set_reference("fink\xe9l");
  v1::ValidateRecordResponse validated;
  grpc::ClientContext c1;
  const grpc::Status s1 = stub_->ValidateRecord(&c1, validate, &validated);
  ASSERT_EQ(s1.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << s1.error_message();
  const auto bad = BadRequestOf(s1);
  ASSERT_EQ(bad.field_violations_size(), 1);
  EXPECT_EQ(bad.field_violations(0).field(), "input.ruleset.reference");
  EXPECT_TRUE(absl::StrContains(bad.field_violations(0).description(), "not UTF-8")) << bad.DebugString();

  // In a stream: that message gets its answer (with its id) and the
  // stream goes on.
  grpc::ClientContext c2;
  auto stream = stub_->ValidateRecords(&c2);
  v1::ValidateRecordsRequest request;
  request.set_id("bad");
  *request.mutable_input() = validate.input();
  // (One message at a time: the in-process transport hands a message over
  // only when the other side reads it.)
  ASSERT_TRUE(stream->Write(request));
  v1::ValidateRecordsResponse response;
  ASSERT_TRUE(stream->Read(&response));
  EXPECT_EQ(response.id(), "bad");
  EXPECT_FALSE(response.valid());
  ASSERT_GE(response.findings_size(), 1);
  EXPECT_TRUE(absl::StrContains(response.findings(0).message(), "input.ruleset.reference"))
      << response.DebugString();
  request.set_id("good");
  request.mutable_input()->clear_ruleset();
  ASSERT_TRUE(stream->Write(request));
  ASSERT_TRUE(stream->Read(&response));
  EXPECT_EQ(response.id(), "good");
  EXPECT_TRUE(response.valid()) << response.DebugString();
  stream->WritesDone();
  EXPECT_FALSE(stream->Read(&response));
  EXPECT_TRUE(stream->Finish().ok());
}

// Bytes that are no message of the method's type at all, sent by a client
// with no stub: a BadRequest too, not gRPC's undetailed INTERNAL.
TEST_F(ServiceTest, BytesThatAreNoMessageAreABadRequest) {
  grpc::GenericStub generic(server_->InProcessChannel(grpc::ChannelArguments()));
  for (const std::string& bytes : {std::string("\xff\xff\xff\xff"), std::string("\x0a\x05" "ab"),
                                   std::string("\x08", 1)}) {
    grpc::ClientContext context;
    grpc::CompletionQueue cq;
    grpc::Slice slice(bytes);
    const grpc::ByteBuffer request(&slice, 1);
    auto call = generic.PrepareUnaryCall(&context, "/scribe.v1.ScribeService/ValidateRecord", request, &cq);
    call->StartCall();
    grpc::ByteBuffer response;
    grpc::Status status;
    call->Finish(&response, &status, reinterpret_cast<void*>(1));
    void* tag = nullptr;
    bool ok = false;
    ASSERT_TRUE(cq.Next(&tag, &ok));
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << status.error_message();
    EXPECT_GE(BadRequestOf(status).field_violations_size(), 1);
  }
}

TEST_F(ServiceTest, ARecordAsLargeAsTheDefaultLimitsIsJudged) {
  // Many games in one TSN text, up to the default limits of a call (its
  // actions, 200,000, come before its 4 MiB).
  std::vector<v1::GameRecord> games;
  int per_copy = 0;
  for (int i = 0; i < 8; ++i) {
    games.push_back(RandomGame("finkel", 100 + i));
    per_copy += games.back().actions_size();
  }
  const std::string one = *WriteTsn(games);
  const ServiceOptions defaults;
  std::string text;
  int64_t actions = 0;
  while (text.size() + one.size() < static_cast<size_t>(defaults.max_record_bytes) &&
         actions + per_copy <= defaults.max_record_actions) {
    absl::StrAppend(&text, one, "\n");
    actions += per_copy;
  }
  v1::ValidateRecordRequest request;
  request.mutable_input()->set_text(text);
  v1::ValidateRecordResponse response;
  grpc::ClientContext context;
  const grpc::Status status = stub_->ValidateRecord(&context, request, &response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_TRUE(response.valid());
  EXPECT_GT(actions + per_copy, defaults.max_record_actions) << "the text is at the limit of actions";
}

TEST_F(ServiceTest, ARecordOverTheServersLimitIsABadRequest) {
  ServiceOptions options;
  options.max_record_bytes = 1000;
  Start(options);
  v1::ValidateRecordRequest request;
  request.mutable_input()->set_text(std::string(5000, ' '));
  v1::ValidateRecordResponse response;
  grpc::ClientContext context;
  const grpc::Status status = stub_->ValidateRecord(&context, request, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  const auto bad = BadRequestOf(status);
  ASSERT_EQ(bad.field_violations_size(), 1);
  EXPECT_EQ(bad.field_violations(0).field(), "input.text");
}

TEST_F(ServiceTest, UnknownAndMaliciousRulesetReferencesAreBadRequests) {
  for (const std::string& ref : {std::string("no-such-rules"), std::string("../../etc/passwd"),
                                 std::string("/etc/passwd"), std::string("finkel(pieces=0)"),
                                 std::string("finkel(base=../../etc/passwd)"), std::string(100000, 'x')}) {
    v1::ValidateRecordRequest request;
    *request.mutable_input()->mutable_record() = RandomGame("finkel", 2);
    request.mutable_input()->mutable_ruleset()->set_reference(ref);
    v1::ValidateRecordResponse response;
    grpc::ClientContext context;
    const grpc::Status status = stub_->ValidateRecord(&context, request, &response);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << ref.substr(0, 40);
    const auto bad = BadRequestOf(status);
    ASSERT_GE(bad.field_violations_size(), 1) << ref.substr(0, 40);
    EXPECT_EQ(bad.field_violations(0).field(), "input.ruleset.reference");
    EXPECT_FALSE(absl::StrContains(status.error_message(), "root:")) << "no file is ever read";
  }
}

TEST_F(ServiceTest, ValidateRecordsGivesOneResultPerRecordEvenForGarbage) {
  grpc::ClientContext context;
  auto stream = stub_->ValidateRecords(&context);
  const int n = 300;
  // A batch client writes and reads at once: flow control would stall one
  // that writes everything before reading.
  std::thread writer([&] {
    for (int i = 0; i < n; ++i) {
      v1::ValidateRecordsRequest request;
      request.set_id(absl::StrCat("r", i));
      if (i % 3 == 0) request.mutable_input()->set_text("garbage \x01");
      else if (i % 3 == 1) *request.mutable_input()->mutable_record() = RandomGame("blitz", i);
      // i % 3 == 2: no input at all
      if (!stream->Write(request)) break;
    }
    stream->WritesDone();
  });
  v1::ValidateRecordsResponse response;
  int count = 0;
  while (stream->Read(&response)) {
    EXPECT_EQ(response.id(), absl::StrCat("r", count));
    EXPECT_EQ(response.valid(), count % 3 == 1) << count;
    ++count;
  }
  writer.join();
  EXPECT_TRUE(stream->Finish().ok());
  EXPECT_EQ(count, n);
}

TEST_F(ServiceTest, AStreamTheClientAbandonsEndsTheCall) {
  {
    grpc::ClientContext context;
    auto stream = stub_->ValidateRecords(&context);
    v1::ValidateRecordsRequest request;
    request.set_id("a");
    *request.mutable_input()->mutable_record() = RandomGame("finkel", 3);
    ASSERT_TRUE(stream->Write(request));
    v1::ValidateRecordsResponse response;
    ASSERT_TRUE(stream->Read(&response));
    context.TryCancel();
  }
  // The server is still well and has no call left in flight.
  for (int i = 0; i < 100 && service_->in_flight() > 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(service_->in_flight(), 0);
  v1::ListRulesetsResponse response;
  grpc::ClientContext context;
  EXPECT_TRUE(stub_->ListRulesets(&context, v1::ListRulesetsRequest(), &response).ok());
}

// A deadline that passes while the server computes (a depth-3 search over
// a murray game of 600 to 1000 actions takes seconds; the deadline is 200 ms): the
// handler itself sees it and ends the call DEADLINE_EXCEEDED, which its
// metric records. A deadline already past when the call is made is
// answered by the client's channel before any handler runs, and would test
// gRPC, not the server.
TEST_F(ServiceTest, ADeadlineThatPassesDuringTheCallIsDeadlineExceeded) {
  v1::AnnotateRecordRequest request;
  // 600 to 1000 actions: long, and within what one call may annotate by search.
  for (uint64_t seed = 1;; ++seed) {
    *request.mutable_input()->mutable_record() = RandomGame("murray", seed);
    const int n = request.input().record().actions_size();
    if (n >= 600 && n <= 1000) break;
  }
  request.mutable_winning_chances()->set_mode(v1::EVALUATION_MODE_SEARCH);
  request.mutable_winning_chances()->set_depth(3);
  v1::AnnotateRecordResponse response;
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(200));
  const grpc::Status status = stub_->AnnotateRecord(&context, request, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED) << status.error_message();
  // The handler's own answer, once it has returned (not a time bound: 60 s
  // is only how long to wait for it).
  const std::string expected = "scribe_calls_total{method=\"AnnotateRecord\",code=\"4\"} 1";
  std::string text;
  for (int i = 0; i < 6000 && !absl::StrContains(text, "scribe_calls_total{method=\"AnnotateRecord\""); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    text = metrics_.Prometheus();
  }
  EXPECT_TRUE(absl::StrContains(text, expected)) << text;
}

TEST_F(ServiceTest, OverloadIsShedWithResourceExhausted) {
  ServiceOptions options;
  options.max_concurrent_calls = 1;
  Start(options);
  // Hold the one slot with an open stream.
  grpc::ClientContext holder;
  auto stream = stub_->ValidateRecords(&holder);
  v1::ValidateRecordsRequest first;
  first.set_id("hold");
  *first.mutable_input()->mutable_record() = RandomGame("finkel", 5);
  ASSERT_TRUE(stream->Write(first));
  v1::ValidateRecordsResponse ack;
  ASSERT_TRUE(stream->Read(&ack));
  v1::ListRulesetsResponse response;
  grpc::ClientContext context;
  const grpc::Status status = stub_->ListRulesets(&context, v1::ListRulesetsRequest(), &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  v1::SuggestMovesResponse suggested;
  EXPECT_EQ(Suggest(SuggestRequest("finkel", "", 2), &suggested).error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  stream->WritesDone();
  EXPECT_TRUE(stream->Finish().ok());
  grpc::ClientContext again;
  EXPECT_TRUE(stub_->ListRulesets(&again, v1::ListRulesetsRequest(), &response).ok());
}

TEST_F(ServiceTest, ReplayRecordReplaysAndRefusesIllegalRecords) {
  v1::ReplayRecordRequest request;
  *request.mutable_input()->mutable_record() = RandomGame("sawah", 6);
  v1::ReplayRecordResponse response;
  {
    grpc::ClientContext context;
    ASSERT_TRUE(stub_->ReplayRecord(&context, request, &response).ok());
  }
  ASSERT_EQ(response.replays_size(), 1);
  EXPECT_EQ(response.replays(0).actions_size(), request.input().record().actions_size());
  EXPECT_TRUE(response.replays(0).has_winner());
  request.mutable_input()->mutable_record()->mutable_actions(0)->set_roll(9);
  grpc::ClientContext context;
  const grpc::Status status = stub_->ReplayRecord(&context, request, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(absl::StrContains(status.error_message(), "roll-impossible"));
}

TEST_F(ServiceTest, ConvertRecordWritesTsnAndJson) {
  v1::ConvertRecordRequest request;
  *request.mutable_input()->mutable_record() = RandomGame("finkel", 7);
  request.set_to(v1::RECORD_FORMAT_TSN);
  v1::ConvertRecordResponse response;
  {
    grpc::ClientContext context;
    ASSERT_TRUE(stub_->ConvertRecord(&context, request, &response).ok());
  }
  EXPECT_TRUE(absl::StartsWith(response.text(), "[TSN \"1\"]\n[Ruleset \"finkel\"]\n"));
  // And back.
  v1::ConvertRecordRequest back;
  back.mutable_input()->set_text(response.text());
  back.set_to(v1::RECORD_FORMAT_JSON);
  v1::ConvertRecordResponse json;
  grpc::ClientContext context;
  ASSERT_TRUE(stub_->ConvertRecord(&context, back, &json).ok());
  ASSERT_EQ(json.records_size(), 1);
  EXPECT_EQ(json.records(0).actions_size(), request.input().record().actions_size());
  grpc::ClientContext missing;
  back.set_to(v1::RECORD_FORMAT_UNSPECIFIED);
  EXPECT_EQ(stub_->ConvertRecord(&missing, back, &json).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(ServiceTest, AnnotateRecordSaysWhatEveryMoveDid) {
  v1::AnnotateRecordRequest request;
  *request.mutable_input()->mutable_record() = RandomGame("finkel", 8);
  request.set_text_format(v1::RECORD_FORMAT_TSN);
  v1::AnnotateRecordResponse response;
  {
    grpc::ClientContext context;
    ASSERT_TRUE(stub_->AnnotateRecord(&context, request, &response).ok());
  }
  ASSERT_EQ(response.annotations_size(), 1);
  const v1::Annotation& a = response.annotations(0);
  ASSERT_EQ(a.actions_size(), request.input().record().actions_size());
  for (const v1::AnnotatedAction& action : a.actions()) {
    if (!action.has_move()) {
      ASSERT_EQ(action.did_size(), 1);
      EXPECT_EQ(action.did(0), "pass");
    } else {
      EXPECT_GE(action.rank(), 1);
      EXPECT_LE(action.rank(), action.alternatives());
    }
  }
  EXPECT_TRUE(absl::StrContains(response.text(), "[%did entered"));
  // The annotated text is still a legal record.
  v1::ValidateRecordRequest validate;
  validate.mutable_input()->set_text(response.text());
  v1::ValidateRecordResponse verdict;
  grpc::ClientContext context;
  ASSERT_TRUE(stub_->ValidateRecord(&context, validate, &verdict).ok());
  EXPECT_TRUE(verdict.valid());
}

TEST_F(ServiceTest, ListRulesetsPaginates) {
  std::vector<std::string> ids;
  std::string token;
  int pages = 0;
  do {
    v1::ListRulesetsRequest request;
    request.set_page_size(3);
    request.set_page_token(token);
    v1::ListRulesetsResponse response;
    grpc::ClientContext context;
    ASSERT_TRUE(stub_->ListRulesets(&context, request, &response).ok());
    for (const auto& r : response.rulesets()) {
      ids.push_back(r.id());
      EXPECT_EQ(r.digest().size(), 16u);
    }
    token = response.next_page_token();
    ++pages;
  } while (!token.empty() && pages < 20);
  EXPECT_EQ(ids.size(), Presets().size());
  EXPECT_EQ(pages, 4);
  v1::ListRulesetsRequest bad;
  bad.set_page_token("nonsense");
  v1::ListRulesetsResponse response;
  grpc::ClientContext context;
  EXPECT_EQ(stub_->ListRulesets(&context, bad, &response).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(ServiceTest, GetRulesetFindsPresetsInlineTextAndNotFound) {
  v1::GetRulesetRequest request;
  request.mutable_ruleset()->set_reference("aseb");
  v1::GetRulesetResponse response;
  {
    grpc::ClientContext context;
    ASSERT_TRUE(stub_->GetRuleset(&context, request, &response).ok());
  }
  EXPECT_EQ(response.ruleset().pieces(), 5);
  EXPECT_EQ(response.digest(), (*LoadRuleset("sawah-tablet"))->digest);
  request.mutable_ruleset()->set_text("base: \"finkel\"\npieces: 3\n");
  {
    grpc::ClientContext context;
    ASSERT_TRUE(stub_->GetRuleset(&context, request, &response).ok());
  }
  EXPECT_EQ(response.ruleset().pieces(), 3);
  request.mutable_ruleset()->set_reference("nothing-like-it");
  {
    grpc::ClientContext context;
    EXPECT_EQ(stub_->GetRuleset(&context, request, &response).error_code(), grpc::StatusCode::NOT_FOUND);
  }
  request.mutable_ruleset()->set_text("pieces: 0\nfoo: 1\n");
  grpc::ClientContext context;
  const grpc::Status status = stub_->GetRuleset(&context, request, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_GE(BadRequestOf(status).field_violations_size(), 2) << "every problem is a violation";
}

TEST_F(ServiceTest, RefereeListsLegalMovesAndMakesThem) {
  v1::ListLegalMovesRequest list;
  list.mutable_ruleset()->set_reference("finkel");
  list.set_roll(4);
  v1::ListLegalMovesResponse moves;
  {
    grpc::ClientContext context;
    ASSERT_TRUE(stub_->ListLegalMoves(&context, list, &moves).ok());
  }
  ASSERT_EQ(moves.moves_size(), 1);
  EXPECT_EQ(moves.moves(0).to(), 4);
  EXPECT_EQ(moves.player(), v1::LIGHT);

  v1::MakeMoveRequest make;
  make.mutable_ruleset()->set_reference("finkel");
  make.set_roll(4);
  make.mutable_move()->set_from(0);
  make.mutable_move()->set_to(4);
  v1::MakeMoveResponse made;
  {
    grpc::ClientContext context;
    ASSERT_TRUE(stub_->MakeMove(&context, make, &made).ok());
  }
  EXPECT_TRUE(made.extra_roll()) << "square 4 is a rosette";
  EXPECT_EQ(made.next_player(), v1::LIGHT);
  EXPECT_EQ(made.position(), "6:...1..........:0/7:..............:0 L");

  // An illegal move names the legal ones; a pass with a move legal is refused.
  make.set_position(made.position());
  make.set_roll(2);
  make.mutable_move()->set_from(4);
  make.mutable_move()->set_to(7);
  {
    grpc::ClientContext context;
    const grpc::Status status = stub_->MakeMove(&context, make, &made);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_TRUE(absl::StrContains(status.error_message(), "expected one of 0->2, 4->6"));
  }
  make.clear_move();
  {
    grpc::ClientContext context;
    EXPECT_EQ(stub_->MakeMove(&context, make, &made).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  }
  // A throw of 0 passes.
  make.set_roll(0);
  grpc::ClientContext context;
  ASSERT_TRUE(stub_->MakeMove(&context, make, &made).ok());
  EXPECT_EQ(made.next_player(), v1::DARK);
}

TEST_F(ServiceTest, RefereeRefusesBadPositionsAndThrows) {
  v1::ListLegalMovesRequest list;
  list.mutable_ruleset()->set_reference("finkel");
  list.set_position("7:..............:0/6:..............:0 L");
  list.set_roll(7);
  v1::ListLegalMovesResponse moves;
  grpc::ClientContext context;
  const grpc::Status status = stub_->ListLegalMoves(&context, list, &moves);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(BadRequestOf(status).field_violations(0).field(), "position");
}

// ---------------------------------------------------------------------------
// Winning chances: SuggestMoves and AnnotateRecord's winning_chances.

TEST_F(ServiceTest, OpenTablesLoadsOnePerRulesetAndRefusesTheRest) {
  auto tables = OpenTables({TablePath()});
  ASSERT_TRUE(tables.ok()) << tables.status();
  ASSERT_EQ(tables->size(), 1u);
  EXPECT_EQ(tables->at(0).evaluator->rules().digest, (*LoadRuleset(kTableRules))->digest);
  EXPECT_TRUE(tables->at(0).evaluator->exact());
  EXPECT_TRUE(absl::StrContains(tables->at(0).summary, (*LoadRuleset(kTableRules))->digest)) << tables->at(0).summary;

  const auto duplicate = OpenTables({TablePath(), TablePath()});
  EXPECT_EQ(duplicate.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(duplicate.status().message(), "a second table")) << duplicate.status();
  const auto missing = OpenTables({"/nonexistent/finkel.tbl"});
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_TRUE(absl::StartsWith(missing.status().message(), "/nonexistent/finkel.tbl: ")) << missing.status();
  const std::string junk = absl::StrCat(::testing::TempDir(), "/service_test_", ::getpid(), "_junk.tbl");
  std::ofstream(junk) << std::string(200, 'x');
  const auto not_a_table = OpenTables({junk});
  std::remove(junk.c_str());
  EXPECT_EQ(not_a_table.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(not_a_table.status().message().find('\n'), absl::string_view::npos) << "one line";
}

// `scribed --table finkel-2p.rgu`: RoyalUr's own table, read as it is.
TEST_F(ServiceTest, ARoyalUrTableIsServedAsItIs) {
  const std::string rgu = std::string(SCRIBE_TEST_DATA_DIR) + "/royalur-lut/finkel-2p.rgu";
  auto tables = OpenTables({rgu});
  ASSERT_TRUE(tables.ok()) << tables.status();
  ASSERT_EQ(tables->size(), 1u);
  const auto rules = *LoadRuleset(kTableRules);
  EXPECT_EQ(tables->at(0).evaluator->rules().digest, rules->digest);
  const auto both = OpenTables({TablePath(), rgu});
  EXPECT_EQ(both.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(both.status().message(), "a second table")) << both.status();
  auto ours = OpenTables({TablePath()});
  ASSERT_TRUE(ours.ok()) << ours.status();
  const std::shared_ptr<const Evaluator> royalur = tables->at(0).evaluator, solved = ours->at(0).evaluator;
  ServiceOptions options;
  options.tables.push_back(royalur);
  Start(options);
  int moves_seen = 0;
  for (const auto& [pos, roll] : GamePositions(kTableRules, 1)) {
    v1::SuggestMovesResponse response;
    const grpc::Status status = Suggest(SuggestRequest(kTableRules, PositionToString(*rules, pos), roll), &response);
    ASSERT_TRUE(status.ok()) << status.error_message();
    EXPECT_TRUE(response.exact());
    for (const auto& m : response.moves()) {
      const Move move{static_cast<uint8_t>(m.move().from()), static_cast<uint8_t>(m.move().to())};
      EXPECT_DOUBLE_EQ(m.chance(), ValueAfterMove(*royalur, pos, move));
      // RoyalUr's values and our solve's within one percent16 step (and our
      // table's tolerance).
      EXPECT_NEAR(m.chance(), ValueAfterMove(*solved, pos, move), 1.5 / 65535);
      ++moves_seen;
    }
  }
  EXPECT_GT(moves_seen, 20);
}

TEST_F(ServiceTest, SuggestMovesGivesTheTablesExactValuesAndThePerfectMove) {
  const std::shared_ptr<const Evaluator> table = StartWithTable();
  ASSERT_NE(table, nullptr);
  const auto rules = *LoadRuleset(kTableRules);
  int moves_seen = 0, passes_seen = 0;
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    for (const auto& [pos, roll] : GamePositions(kTableRules, seed)) {
      v1::SuggestMovesRequest request = SuggestRequest(kTableRules, PositionToString(*rules, pos), roll);
      request.set_strength("perfect");
      v1::SuggestMovesResponse response;
      const grpc::Status status = Suggest(request, &response);
      ASSERT_TRUE(status.ok()) << status.error_message();
      EXPECT_TRUE(response.exact());
      EXPECT_EQ(response.evaluator(), table->name());
      EXPECT_EQ(response.ruleset_digest(), rules->digest);
      EXPECT_EQ(response.player(), pos.to_move == kLight ? v1::LIGHT : v1::DARK);
      EXPECT_EQ(response.strength(), "perfect");
      // The moves are the legal ones, each valued as the table values it,
      // best first.
      const std::vector<ValuedMove> expected = RankMovesByValue(*table, pos, roll);
      ASSERT_EQ(response.moves_size(), static_cast<int>(expected.size()));
      for (int k = 0; k < response.moves_size(); ++k) {
        EXPECT_EQ(response.moves(k).move().from(), expected[k].move.from);
        EXPECT_EQ(response.moves(k).move().to(), expected[k].move.to);
        EXPECT_DOUBLE_EQ(response.moves(k).chance(), ValueAfterMove(*table, pos, expected[k].move));
        if (k > 0) {
          EXPECT_GE(response.moves(k - 1).chance(), response.moves(k).chance());
        }
      }
      MoveList legal;
      LegalMoves(*rules, pos, roll, &legal);
      EXPECT_EQ(legal.size(), expected.size());
      if (expected.empty()) {
        ++passes_seen;
        EXPECT_FALSE(response.has_chosen_move());
        ASSERT_TRUE(response.has_pass_chance());
        EXPECT_DOUBLE_EQ(response.pass_chance(), ValueAfterPass(*table, pos));
      } else {
        ++moves_seen;
        EXPECT_FALSE(response.has_pass_chance());
        // The perfect opponent plays the best move.
        ASSERT_TRUE(response.has_chosen_move());
        EXPECT_EQ(response.chosen_move().from(), response.moves(0).move().from());
        EXPECT_EQ(response.chosen_move().to(), response.moves(0).move().to());
      }
    }
  }
  EXPECT_GT(moves_seen, 20);
  EXPECT_GT(passes_seen, 0);

  // The start: the table's value of the position is the mean of the best
  // moves' values over the dice.
  v1::SuggestMovesResponse start;
  ASSERT_TRUE(Suggest(SuggestRequest(kTableRules, "", 4), &start).ok());
  ASSERT_EQ(start.moves_size(), 1);
  EXPECT_DOUBLE_EQ(start.moves(0).chance(), ValueAfterMove(*table, StartPosition(*rules), Move{0, 4}));

  // The same rules sent inline find the same table; a search is asked for
  // by mode even with a table loaded.
  v1::SuggestMovesRequest inline_rules;
  inline_rules.mutable_ruleset()->set_text("base: \"finkel\"\npieces: 2\n");
  inline_rules.set_roll(2);
  inline_rules.mutable_evaluation()->set_mode(v1::EVALUATION_MODE_EXACT);
  v1::SuggestMovesResponse inline_response;
  ASSERT_TRUE(Suggest(inline_rules, &inline_response).ok());
  EXPECT_TRUE(inline_response.exact());
  inline_rules.mutable_evaluation()->set_mode(v1::EVALUATION_MODE_SEARCH);
  ASSERT_TRUE(Suggest(inline_rules, &inline_response).ok());
  EXPECT_FALSE(inline_response.exact());
  EXPECT_TRUE(absl::StrContains(inline_response.evaluator(), "search")) << inline_response.evaluator();
}

TEST_F(ServiceTest, SuggestMovesWithoutATableEstimatesBySearch) {
  const auto rules = *LoadRuleset("finkel");
  for (const auto& [pos, roll] : GamePositions("finkel", 11)) {
    if (roll == 0) continue;
    v1::SuggestMovesRequest request = SuggestRequest("finkel", PositionToString(*rules, pos), roll);
    request.mutable_evaluation()->set_depth(1);
    request.set_strength("search:1");
    v1::SuggestMovesResponse response;
    const grpc::Status status = Suggest(request, &response);
    ASSERT_TRUE(status.ok()) << status.error_message();
    EXPECT_FALSE(response.exact());
    const SearchEvaluator search(rules, 1);
    EXPECT_EQ(response.evaluator(), search.name());
    const std::vector<ValuedMove> expected = RankMovesByValue(search, pos, roll);
    ASSERT_EQ(response.moves_size(), static_cast<int>(expected.size()));
    for (int k = 0; k < response.moves_size(); ++k) {
      EXPECT_EQ(response.moves(k).move().from(), expected[k].move.from);
      EXPECT_DOUBLE_EQ(response.moves(k).chance(), expected[k].value);
    }
    // search:1 plays the best move by the same search.
    if (!expected.empty()) {
      EXPECT_EQ(response.chosen_move().from(), expected[0].move.from);
      EXPECT_EQ(response.chosen_move().to(), expected[0].move.to);
    }
  }

  // The default depth is 2; every strength's move is legal; a random
  // opponent's move depends only on its seed.
  const std::string mid = "5:...1...1......:0/6:......1.......:0 D";
  const Position pos = *ParsePositionString(*rules, mid);
  MoveList legal;
  LegalMoves(*rules, pos, 3, &legal);
  ASSERT_GE(legal.size(), 2u);
  for (const std::string strength : {"heuristic", "random", "search:0", "search:3"}) {
    v1::SuggestMovesRequest request = SuggestRequest("finkel", mid, 3);
    request.set_strength(strength);
    request.set_seed(42);
    v1::SuggestMovesResponse first, second;
    ASSERT_TRUE(Suggest(request, &first).ok()) << strength;
    ASSERT_TRUE(Suggest(request, &second).ok()) << strength;
    EXPECT_EQ(first.evaluator(), SearchEvaluator(rules, 2).name());
    EXPECT_EQ(first.strength(), strength);
    ASSERT_TRUE(first.has_chosen_move()) << strength;
    EXPECT_TRUE(std::any_of(legal.begin(), legal.end(), [&](const Move& m) {
      return m.from == first.chosen_move().from() && m.to == first.chosen_move().to();
    })) << strength << ": " << first.chosen_move().ShortDebugString();
    EXPECT_EQ(first.chosen_move().ShortDebugString(), second.chosen_move().ShortDebugString()) << strength;
  }
  // A throw of 0 passes: no move, the pass's chance, no move chosen.
  v1::SuggestMovesRequest pass = SuggestRequest("finkel", mid, 0);
  pass.set_strength("random");
  v1::SuggestMovesResponse passed;
  ASSERT_TRUE(Suggest(pass, &passed).ok());
  EXPECT_EQ(passed.moves_size(), 0);
  EXPECT_TRUE(passed.has_pass_chance());
  EXPECT_FALSE(passed.has_chosen_move());
}

TEST_F(ServiceTest, DemandingExactValuesWithoutATableIsFailedPrecondition) {
  StartWithTable();  // a table of finkel(pieces=2) only
  v1::SuggestMovesRequest exact = SuggestRequest("finkel", "", 2);
  exact.mutable_evaluation()->set_mode(v1::EVALUATION_MODE_EXACT);
  v1::SuggestMovesResponse response;
  grpc::Status status = Suggest(exact, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(ReasonOf(status), "TABLE_NOT_LOADED");
  EXPECT_TRUE(absl::StrContains(status.error_message(), (*LoadRuleset("finkel"))->digest)) << status.error_message();

  // The perfect opponent needs the table too.
  v1::SuggestMovesRequest perfect = SuggestRequest("finkel", "", 2);
  perfect.set_strength("perfect");
  status = Suggest(perfect, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(ReasonOf(status), "TABLE_NOT_LOADED");

  // Unspecified: the search's estimate.
  ASSERT_TRUE(Suggest(SuggestRequest("finkel", "", 2), &response).ok());
  EXPECT_FALSE(response.exact());

  // Annotating a record with exact values: the same.
  v1::AnnotateRecordRequest annotate;
  *annotate.mutable_input()->mutable_record() = RandomGame("finkel", 9);
  annotate.mutable_winning_chances()->set_mode(v1::EVALUATION_MODE_EXACT);
  v1::AnnotateRecordResponse annotated;
  grpc::ClientContext context;
  status = stub_->AnnotateRecord(&context, annotate, &annotated);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(ReasonOf(status), "TABLE_NOT_LOADED");
}

TEST_F(ServiceTest, SuggestMovesRefusesBadInputWithFieldViolations) {
  const auto expect_violations = [&](const v1::SuggestMovesRequest& request, std::vector<std::string> fields) {
    v1::SuggestMovesResponse response;
    const grpc::Status status = Suggest(request, &response);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << request.ShortDebugString();
    EXPECT_EQ(ViolatedFields(status), fields) << request.ShortDebugString() << ": " << status.error_message();
  };
  expect_violations(SuggestRequest("finkel", "7:..............:0/6:..............:0 L", 2), {"position"});
  expect_violations(SuggestRequest("finkel", "nonsense", 2), {"position"});
  expect_violations(SuggestRequest("finkel", "", 7), {"roll"});
  expect_violations(SuggestRequest("finkel", "", -1), {"roll"});
  expect_violations(SuggestRequest("no-such-rules", "", 2), {"ruleset.reference"});
  expect_violations(v1::SuggestMovesRequest(), {"ruleset"});
  // A finished game has no moves to suggest.
  expect_violations(SuggestRequest("finkel", "0:..............:7/6:..............:0 L", 2), {"position"});
  v1::SuggestMovesRequest request = SuggestRequest("finkel", "", 2);
  for (const std::string strength : {"grandmaster", "search:", "search:x", "search:9", "search:4", "perfect:2"}) {
    request.set_strength(strength);
    expect_violations(request, {"strength"});
  }
  request.clear_strength();
  request.mutable_evaluation()->set_depth(4);
  expect_violations(request, {"evaluation.depth"});
  request.mutable_evaluation()->set_depth(-1);
  expect_violations(request, {"evaluation.depth"});
  request.mutable_evaluation()->clear_depth();
  request.mutable_evaluation()->set_mode(static_cast<v1::EvaluationMode>(42));
  expect_violations(request, {"evaluation.mode"});
  // Every problem at once.
  request = SuggestRequest("finkel", "", 9);
  request.mutable_evaluation()->set_depth(99);
  request.set_strength("grandmaster");
  expect_violations(request, {"roll", "evaluation.depth", "strength"});

  // The server's cap is its operator's: a deeper one allows deeper
  // searches, a shallower one refuses them.
  ServiceOptions shallow;
  shallow.max_search_depth = 1;
  Start(shallow);
  request = SuggestRequest("finkel", "", 2);
  request.set_strength("search:2");
  expect_violations(request, {"strength"});
  request.clear_strength();
  v1::SuggestMovesResponse response;
  ASSERT_TRUE(Suggest(request, &response).ok());
  EXPECT_EQ(response.evaluator(), SearchEvaluator(*LoadRuleset("finkel"), 1).name()) << "the default depth is capped";
}

TEST_F(ServiceTest, AnnotateRecordAddsWinningChancesWhenAskedFor) {
  const std::shared_ptr<const Evaluator> table = StartWithTable();
  ASSERT_NE(table, nullptr);
  const v1::GameRecord game = RandomGame(kTableRules, 21);
  v1::AnnotateRecordRequest request;
  *request.mutable_input()->mutable_record() = game;
  request.set_text_format(v1::RECORD_FORMAT_TSN);

  // Without the field: no chances, as before.
  v1::AnnotateRecordResponse plain;
  {
    grpc::ClientContext context;
    ASSERT_TRUE(stub_->AnnotateRecord(&context, request, &plain).ok());
  }
  ASSERT_EQ(plain.annotations_size(), 1);
  EXPECT_FALSE(plain.annotations(0).has_evaluator());
  EXPECT_EQ(plain.annotations(0).light_chance_size(), 0);
  EXPECT_FALSE(plain.annotations(0).actions(0).has_chance_before());
  EXPECT_FALSE(absl::StrContains(plain.text(), "[%wc "));

  // Exact: what the library gives with the table, field for field.
  request.mutable_winning_chances()->set_mode(v1::EVALUATION_MODE_EXACT);
  v1::AnnotateRecordResponse exact;
  {
    grpc::ClientContext context;
    const grpc::Status status = stub_->AnnotateRecord(&context, request, &exact);
    ASSERT_TRUE(status.ok()) << status.error_message();
  }
  auto expected = AnnotateWithValues(game, *table);
  ASSERT_TRUE(expected.ok()) << expected.status();
  std::string diff;
  google::protobuf::util::MessageDifferencer differencer;
  differencer.ReportDifferencesToString(&diff);
  ASSERT_EQ(exact.annotations_size(), 1);
  // The annotation is the library's, field for field, and so is the
  // players' review beside it.
  v1::Annotation expected_proto = AnnotationToProto(*expected, game.ruleset());
  auto expected_review = ReviewGame(game, *expected);
  ASSERT_TRUE(expected_review.ok()) << expected_review.status();
  *expected_proto.mutable_review() = ReviewToProto(*expected_review, table->rules());
  EXPECT_TRUE(exact.annotations(0).review().exact());
  EXPECT_EQ(exact.annotations(0).review().light().decisions() + exact.annotations(0).review().dark().decisions() > 0,
            true);
  EXPECT_TRUE(differencer.Compare(expected_proto, exact.annotations(0))) << diff;
  EXPECT_FALSE(plain.annotations(0).has_review());
  const v1::Annotation& a = exact.annotations(0);
  EXPECT_TRUE(a.exact());
  EXPECT_EQ(a.evaluator(), table->name());
  EXPECT_EQ(a.light_chance_size(), a.actions_size() + 1);
  const std::vector<Position> positions = RecordPositions(table->rules(), game);
  for (const v1::AnnotatedAction& action : a.actions()) {
    ASSERT_TRUE(action.has_chance_before());
    EXPECT_DOUBLE_EQ(action.chance_before(), table->Value(positions[action.index()]));
    EXPECT_GE(action.loss(), 0);
  }
  EXPECT_TRUE(absl::StrContains(exact.text(), "[%values exact]")) << exact.text().substr(0, 400);
  EXPECT_TRUE(absl::StrContains(exact.text(), "[%wc "));

  // Unspecified finds the table too; a search is an estimate.
  request.mutable_winning_chances()->set_mode(v1::EVALUATION_MODE_UNSPECIFIED);
  v1::AnnotateRecordResponse unspecified;
  {
    grpc::ClientContext context;
    ASSERT_TRUE(stub_->AnnotateRecord(&context, request, &unspecified).ok());
  }
  EXPECT_TRUE(differencer.Compare(exact.annotations(0), unspecified.annotations(0))) << diff;
  request.mutable_winning_chances()->set_mode(v1::EVALUATION_MODE_SEARCH);
  request.mutable_winning_chances()->set_depth(1);
  v1::AnnotateRecordResponse estimate;
  {
    grpc::ClientContext context;
    ASSERT_TRUE(stub_->AnnotateRecord(&context, request, &estimate).ok());
  }
  EXPECT_FALSE(estimate.annotations(0).exact());
  EXPECT_EQ(estimate.annotations(0).evaluator(), SearchEvaluator(*LoadRuleset(kTableRules), 1).name());
  EXPECT_TRUE(absl::StrContains(estimate.text(), "[%values estimate]"));

  // A depth past the cap is a bad request.
  request.mutable_winning_chances()->set_depth(7);
  grpc::ClientContext context;
  const grpc::Status status = stub_->AnnotateRecord(&context, request, &estimate);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(ViolatedFields(status), std::vector<std::string>{"winning_chances.depth"});
}

TEST_F(ServiceTest, AnnotateRecordBoundsTheSearchNotTheTable) {
  ServiceOptions options;
  options.max_search_actions = 10;
  StartWithTable(options);
  const v1::GameRecord game = RandomGame(kTableRules, 22);
  ASSERT_GT(game.actions_size(), 10);
  v1::AnnotateRecordRequest request;
  *request.mutable_input()->mutable_record() = game;
  request.mutable_winning_chances()->set_mode(v1::EVALUATION_MODE_SEARCH);
  v1::AnnotateRecordResponse response;
  {
    grpc::ClientContext context;
    const grpc::Status status = stub_->AnnotateRecord(&context, request, &response);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_EQ(ViolatedFields(status), std::vector<std::string>{"winning_chances"});
    EXPECT_TRUE(absl::StrContains(status.error_message(), "more than the 10")) << status.error_message();
  }
  // Exact values are looked up, not searched: no limit.
  request.mutable_winning_chances()->set_mode(v1::EVALUATION_MODE_EXACT);
  grpc::ClientContext context;
  ASSERT_TRUE(stub_->AnnotateRecord(&context, request, &response).ok());
  EXPECT_TRUE(response.annotations(0).exact());
}

TEST_F(ServiceTest, MetricsCountCallsAndErrors) {
  v1::GetRulesetRequest request;
  request.mutable_ruleset()->set_reference("missing");
  v1::GetRulesetResponse response;
  grpc::ClientContext context;
  stub_->GetRuleset(&context, request, &response);
  const std::string text = metrics_.Prometheus();
  EXPECT_TRUE(absl::StrContains(text, "scribe_calls_total{method=\"GetRuleset\",code=\"5\"} 1")) << text;
  EXPECT_TRUE(absl::StrContains(text, "scribe_latency_seconds_count{method=\"GetRuleset\"} 1")) << text;
}

}  // namespace
}  // namespace scribe::service
