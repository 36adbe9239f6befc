// In-process tests of every method of the gRPC service, good input and bad:
// bytes that are not a record, a record of 10 MB, unknown and malicious
// ruleset references, a stream the client abandons, deadlines that expire,
// and overload.
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/position.h"
#include "engine/random.h"
#include "engine/ruleset.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "records/json_record.h"
#include "records/tsn.h"
#include "service/service.h"

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

  // The BadRequest in a status' details, empty when there is none.
  static google::rpc::BadRequest BadRequestOf(const grpc::Status& status) {
    google::rpc::Status rpc;
    google::rpc::BadRequest bad;
    if (!rpc.ParseFromString(status.error_details())) return bad;
    for (const auto& any : rpc.details()) {
      if (any.Is<google::rpc::BadRequest>()) any.UnpackTo(&bad);
    }
    return bad;
  }

  // A random legal finkel game.
  static v1::GameRecord RandomGame(const std::string& preset, uint64_t seed) {
    const Rules& rules = **LoadRuleset(preset);
    Rng rng(seed);
    v1::GameRecord record;
    record.set_ruleset(preset);
    Position pos = StartPosition(rules);
    MoveList moves;
    while (!IsOver(rules, pos)) {
      v1::Action* a = record.add_actions();
      const int roll = rng.Throw(rules);
      a->set_roll(roll);
      LegalMoves(rules, pos, roll, &moves);
      if (moves.empty()) {
        PassTurn(&pos);
        continue;
      }
      const Move m = moves[rng.Below(moves.size())];
      a->set_from(m.from);
      a->set_to(m.to);
      ApplyMove(rules, &pos, m);
    }
    return record;
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
  // A JSON syntax error quotes the byte it stopped at.
  const std::string broken = "{\"ruleset\": \"finkel\", \"actions\": [{\"roll\": \x84}]}";
  v1::ValidateRecordRequest validate;
  validate.mutable_input()->set_text(broken);
  v1::ValidateRecordResponse validated;
  grpc::ClientContext c1;
  const grpc::Status s1 = stub_->ValidateRecord(&c1, validate, &validated);
  ASSERT_TRUE(s1.ok()) << s1.error_code() << " " << s1.error_message();
  ASSERT_FALSE(validated.valid());
  EXPECT_TRUE(absl::StrContains(validated.findings(0).message(), "\xef\xbf\xbd")) << validated.findings(0).message();

  // The same bytes as a record to convert: the error's details parse.
  v1::ConvertRecordRequest convert;
  convert.mutable_input()->set_text(broken);
  convert.set_to(v1::RECORD_FORMAT_TSN);
  v1::ConvertRecordResponse converted;
  grpc::ClientContext c2;
  const grpc::Status s2 = stub_->ConvertRecord(&c2, convert, &converted);
  EXPECT_EQ(s2.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  ASSERT_EQ(BadRequestOf(s2).field_violations_size(), 1) << "the details parse";

  // A legal record whose tag value is not UTF-8 validates, but is not sent
  // back: converting, replaying or annotating it is refused.
  const std::string latin1 = "[Ruleset \"finkel\"]\n[Event \"Caf\xe9\"]\n\n1. L 0:-\n";
  validate.mutable_input()->set_text(latin1);
  grpc::ClientContext c3;
  ASSERT_TRUE(stub_->ValidateRecord(&c3, validate, &validated).ok());
  EXPECT_TRUE(validated.valid());
  convert.mutable_input()->set_text(latin1);
  grpc::ClientContext c4;
  const grpc::Status s4 = stub_->ConvertRecord(&c4, convert, &converted);
  EXPECT_EQ(s4.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  const auto bad = BadRequestOf(s4);
  ASSERT_EQ(bad.field_violations_size(), 1);
  EXPECT_EQ(bad.field_violations(0).field(), "input.text");
  EXPECT_TRUE(absl::StrContains(bad.field_violations(0).description(), "tags[0].value is not UTF-8"))
      << bad.field_violations(0).description();
  v1::ReplayRecordRequest replay;
  replay.mutable_input()->set_text(latin1);
  v1::ReplayRecordResponse replayed;
  grpc::ClientContext c5;
  EXPECT_EQ(stub_->ReplayRecord(&c5, replay, &replayed).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(ServiceTest, ARecordOfTenMegabytesIsJudged) {
  // Many games in one TSN text, about 10 MB.
  std::vector<v1::GameRecord> games;
  for (int i = 0; i < 8; ++i) games.push_back(RandomGame("finkel", 100 + i));
  const std::string one = *WriteTsn(games);
  std::string text;
  while (text.size() < 10u << 20) absl::StrAppend(&text, one, "\n");
  v1::ValidateRecordRequest request;
  request.mutable_input()->set_text(text);
  v1::ValidateRecordResponse response;
  grpc::ClientContext context;
  const grpc::Status status = stub_->ValidateRecord(&context, request, &response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_TRUE(response.valid());
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

TEST_F(ServiceTest, AnExpiredDeadlineIsDeadlineExceeded) {
  v1::ValidateRecordRequest request;
  *request.mutable_input()->mutable_record() = RandomGame("finkel", 4);
  v1::ValidateRecordResponse response;
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() - std::chrono::seconds(1));
  EXPECT_EQ(stub_->ValidateRecord(&context, request, &response).error_code(),
            grpc::StatusCode::DEADLINE_EXCEEDED);
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
