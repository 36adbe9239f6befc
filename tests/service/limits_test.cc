// Memory is bounded per call, by design (service/limits.h): every input
// form is counted against the server's limits of records and actions before
// the work, every answer is bounded before it is built, and a call past a
// limit is INVALID_ARGUMENT with a BadRequest naming the field and the
// limit, never RESOURCE_EXHAUSTED (which means overload only).
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/random.h"
#include "engine/ruleset.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "records/formats.h"
#include "records/random_game.h"
#include "service/service.h"
#include "tests/service/status_details.h"

namespace scribe::service {
namespace {

class LimitsTest : public ::testing::Test {
 protected:
  void TearDown() override {
    if (server_) server_->Shutdown();
  }

  // A server as scribed builds it: messages bounded by max_message_bytes.
  void Start(ServiceOptions options) {
    service_ = std::make_unique<ScribeServiceImpl>(options, &metrics_);
    grpc::ServerBuilder builder;
    builder.RegisterService(service_.get());
    builder.SetMaxReceiveMessageSize(static_cast<int>(options.max_message_bytes));
    builder.SetMaxSendMessageSize(static_cast<int>(options.max_message_bytes));
    server_ = builder.BuildAndStart();
    grpc::ChannelArguments args;
    args.SetMaxReceiveMessageSize(256 << 20);
    args.SetMaxSendMessageSize(256 << 20);
    stub_ = v1::ScribeService::NewStub(server_->InProcessChannel(args));
  }

  static v1::GameRecord Game(uint64_t seed) {
    auto rules = LoadRuleset("finkel");
    EXPECT_TRUE(rules.ok());
    Rng rng(seed);
    RandomGameOptions options;
    options.ruleset = "finkel";
    return RandomGame(**rules, rng, options);
  }

  // Every method that takes a record input, called with `input`: each
  // status, in the order Validate, Replay, Annotate, Convert (to JSON).
  std::vector<grpc::Status> CallAll(const v1::RecordInput& input) {
    std::vector<grpc::Status> out;
    {
      v1::ValidateRecordRequest r;
      *r.mutable_input() = input;
      v1::ValidateRecordResponse response;
      grpc::ClientContext c;
      out.push_back(stub_->ValidateRecord(&c, r, &response));
    }
    {
      v1::ReplayRecordRequest r;
      *r.mutable_input() = input;
      v1::ReplayRecordResponse response;
      grpc::ClientContext c;
      out.push_back(stub_->ReplayRecord(&c, r, &response));
    }
    {
      v1::AnnotateRecordRequest r;
      *r.mutable_input() = input;
      v1::AnnotateRecordResponse response;
      grpc::ClientContext c;
      out.push_back(stub_->AnnotateRecord(&c, r, &response));
    }
    {
      v1::ConvertRecordRequest r;
      *r.mutable_input() = input;
      r.set_to(v1::RECORD_FORMAT_JSON);
      v1::ConvertRecordResponse response;
      grpc::ClientContext c;
      out.push_back(stub_->ConvertRecord(&c, r, &response));
    }
    return out;
  }

  // True when `status` is INVALID_ARGUMENT with one violation of `field`
  // whose description holds every one of `words`.
  static void ExpectLimit(const grpc::Status& status, const std::string& field, const std::vector<std::string>& words) {
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << status.error_message();
    const google::rpc::BadRequest bad = BadRequestOf(status);
    ASSERT_EQ(bad.field_violations_size(), 1) << status.error_message();
    EXPECT_EQ(bad.field_violations(0).field(), field);
    for (const std::string& w : words) {
      EXPECT_TRUE(absl::StrContains(bad.field_violations(0).description(), w))
          << "\"" << w << "\" in: " << bad.field_violations(0).description();
    }
  }

  Metrics metrics_;
  std::unique_ptr<ScribeServiceImpl> service_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<v1::ScribeService::Stub> stub_;
};

TEST_F(LimitsTest, ActionsAreCountedInEveryInputForm) {
  const std::vector<v1::GameRecord> games = {Game(1), Game(2)};
  const int actions = games[0].actions_size() + games[1].actions_size();
  ServiceOptions options;
  options.max_record_actions = actions - 1;
  Start(options);
  for (const Format format : {Format::kTsn, Format::kJson, Format::kRgn, Format::kRoyalUrJson}) {
    SCOPED_TRACE(FormatName(format));
    v1::RecordInput input;
    input.set_text(*WriteRecords(format, games));
    input.mutable_ruleset()->set_reference("finkel");
    for (const grpc::Status& status : CallAll(input)) {
      ExpectLimit(status, "input.text",
                  {absl::StrCat(actions, " actions"), absl::StrCat(actions - 1), "--max-record-actions"});
    }
    // One game fits.
    input.set_text(*WriteRecords(format, std::vector<v1::GameRecord>{games[0]}));
    for (const grpc::Status& status : CallAll(input)) EXPECT_TRUE(status.ok()) << status.error_message();
  }
  v1::RecordInput structured;
  v1::GameRecord& long_one = *structured.mutable_record();
  long_one = games[0];
  for (const v1::Action& a : games[1].actions()) *long_one.add_actions() = a;  // illegal, but counted first
  for (const grpc::Status& status : CallAll(structured)) {
    ExpectLimit(status, "input.record.actions", {absl::StrCat(actions, " actions"), "--max-record-actions"});
  }
}

TEST_F(LimitsTest, RecordsAreCountedBeforeTheyAreJudged) {
  ServiceOptions options;
  options.max_records = 3;
  Start(options);
  std::vector<v1::GameRecord> games;
  for (int i = 0; i < 5; ++i) games.push_back(Game(10 + i));
  v1::RecordInput input;
  input.set_text(*WriteRecords(Format::kTsn, games));
  for (const grpc::Status& status : CallAll(input)) {
    ExpectLimit(status, "input.text", {"5 records", "the 3", "--max-records"});
  }
  // The stream answers the one request past the limit and goes on.
  grpc::ClientContext context;
  auto stream = stub_->ValidateRecords(&context);
  v1::ValidateRecordsRequest request;
  request.set_id("many");
  *request.mutable_input() = input;
  ASSERT_TRUE(stream->Write(request));
  v1::ValidateRecordsResponse response;
  ASSERT_TRUE(stream->Read(&response));
  EXPECT_EQ(response.id(), "many");
  EXPECT_FALSE(response.valid());
  ASSERT_EQ(response.findings_size(), 1);
  EXPECT_TRUE(absl::StrContains(response.findings(0).message(), "--max-records")) << response.findings(0).message();
  request.set_id("one");
  request.mutable_input()->set_text(*WriteRecords(Format::kTsn, std::vector<v1::GameRecord>{games[0]}));
  ASSERT_TRUE(stream->Write(request));
  stream->WritesDone();
  ASSERT_TRUE(stream->Read(&response));
  EXPECT_EQ(response.id(), "one");
  EXPECT_TRUE(response.valid());
  EXPECT_TRUE(stream->Finish().ok());
}

// The case, scaled to a 1 MiB message: a legal record of passing
// turns whose replay (about 50 bytes a throw) would not fit. It used to be
// refused only once built, by gRPC, with an undetailed RESOURCE_EXHAUSTED.
TEST_F(LimitsTest, AnAnswerTooLargeIsRefusedBeforeItIsBuilt) {
  ServiceOptions options;
  options.max_message_bytes = 1 << 20;
  Start(options);
  std::string text = "[Ruleset \"finkel\"]\n\n";
  const int turns = 30000;
  for (int i = 1; i <= turns; ++i) absl::StrAppend(&text, i, ". ", i % 2 ? "L" : "D", " 0:-\n");
  v1::RecordInput input;
  input.set_text(text);
  const std::vector<grpc::Status> statuses = CallAll(input);
  EXPECT_TRUE(statuses[0].ok()) << "validation answers findings only: " << statuses[0].error_message();
  ExpectLimit(statuses[1], "input.text", {absl::StrCat(turns, " actions"), "replays", "1 MiB", "--max-message-mb"});
  ExpectLimit(statuses[2], "input.text", {absl::StrCat(turns, " actions"), "annotates", "--max-message-mb"});
  ExpectLimit(statuses[3], "input.text", {absl::StrCat(turns, " actions"), "converts", "--max-message-mb"});
  // A tenth of it fits every answer.
  input.set_text(text.substr(0, text.find(absl::StrCat("\n", turns / 10 + 1, ". ")) + 1));
  for (const grpc::Status& status : CallAll(input)) EXPECT_TRUE(status.ok()) << status.error_message();
}

// The estimate is a bound per action besides the text an answer carries;
// the answer as built has the last word: a comment of control characters
// grows six times in JSON (\u0001), past the message.
TEST_F(LimitsTest, TheAnswerAsBuiltHasTheLastWord) {
  ServiceOptions options;
  options.max_message_bytes = 1 << 20;
  Start(options);
  v1::GameRecord game = Game(3);
  game.mutable_actions(0)->set_comment(std::string(300000, '\x01'));
  v1::ConvertRecordRequest request;
  request.mutable_input()->set_text(*WriteRecords(Format::kTsn, std::vector<v1::GameRecord>{game}));
  request.set_to(v1::RECORD_FORMAT_JSON);
  v1::ConvertRecordResponse response;
  grpc::ClientContext context;
  const grpc::Status status = stub_->ConvertRecord(&context, request, &response);
  ExpectLimit(status, "input", {"the answer would be", "1 MiB", "--max-message-mb"});
}

}  // namespace
}  // namespace scribe::service
