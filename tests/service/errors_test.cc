// Errors have a size, and every problem is listed: requests that quote
// huge input or have thousands of problems still get a status (under
// kMaxErrorBytes, the first violations kept, the rest summed up), and the
// referee methods name every unusable field at once.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "service/errors.h"
#include "service/service.h"
#include "tests/service/status_details.h"

namespace scribe::service {
namespace {

class ErrorsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    service_ = std::make_unique<ScribeServiceImpl>(ServiceOptions{}, &metrics_);
    grpc::ServerBuilder builder;
    builder.RegisterService(service_.get());
    builder.SetMaxReceiveMessageSize(64 << 20);
    server_ = builder.BuildAndStart();
    grpc::ChannelArguments args;
    args.SetMaxSendMessageSize(64 << 20);
    stub_ = v1::ScribeService::NewStub(server_->InProcessChannel(args));
  }
  void TearDown() override { server_->Shutdown(); }

  static std::vector<std::string> Fields(const grpc::Status& status) {
    std::vector<std::string> fields;
    const google::rpc::BadRequest bad = BadRequestOf(status);
    for (const auto& v : bad.field_violations()) fields.push_back(v.field());
    return fields;
  }

  // The status is INVALID_ARGUMENT, small, and its first violation is
  // under `field`; its violations.
  static google::rpc::BadRequest ExpectSmall(const grpc::Status& status, const std::string& field) {
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << status.error_message().substr(0, 300);
    EXPECT_LT(status.error_message().size() + status.error_details().size(), kMaxErrorBytes);
    const google::rpc::BadRequest bad = BadRequestOf(status);
    EXPECT_GE(bad.field_violations_size(), 1);
    EXPECT_LE(bad.field_violations_size(), static_cast<int>(kMaxViolations) + 1);
    if (bad.field_violations_size() > 0) {
      EXPECT_EQ(bad.field_violations(0).field(), field);
    }
    for (const auto& v : bad.field_violations()) {
      EXPECT_LE(v.description().size(), kMaxDescriptionBytes);
      EXPECT_LE(v.field().size(), kMaxFieldBytes);
    }
    return bad;
  }

  grpc::Status List(const v1::ListLegalMovesRequest& request) {
    grpc::ClientContext context;
    v1::ListLegalMovesResponse response;
    return stub_->ListLegalMoves(&context, request, &response);
  }
  grpc::Status Make(const v1::MakeMoveRequest& request) {
    grpc::ClientContext context;
    v1::MakeMoveResponse response;
    return stub_->MakeMove(&context, request, &response);
  }
  grpc::Status Suggest(const v1::SuggestMovesRequest& request) {
    grpc::ClientContext context;
    v1::SuggestMovesResponse response;
    return stub_->SuggestMoves(&context, request, &response);
  }
  grpc::Status Replay(const std::string& text) {
    grpc::ClientContext context;
    v1::ReplayRecordRequest request;
    request.mutable_input()->set_text(text);
    v1::ReplayRecordResponse response;
    return stub_->ReplayRecord(&context, request, &response);
  }
  grpc::Status Get(const v1::RulesetSelector& selector) {
    grpc::ClientContext context;
    v1::GetRulesetRequest request;
    *request.mutable_ruleset() = selector;
    v1::GetRulesetResponse response;
    return stub_->GetRuleset(&context, request, &response);
  }

  Metrics metrics_;
  std::unique_ptr<ScribeServiceImpl> service_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<v1::ScribeService::Stub> stub_;
};

// A 7 KB reference of many unknown overrides: each problem quotes it.
std::string HugeReference() {
  std::string ref = "finkel(";
  for (int i = 0; i < 700; ++i) absl::StrAppend(&ref, "bogus", i, "=1,");
  ref.back() = ')';
  return ref;
}

TEST_F(ErrorsTest, AHugeRulesetReferenceGetsASmallStatus) {
  const std::string ref = HugeReference();
  ASSERT_GT(ref.size(), 7000u);
  v1::ListLegalMovesRequest list;
  list.mutable_ruleset()->set_reference(ref);
  list.set_roll(2);
  ExpectSmall(List(list), "ruleset.reference");
  v1::RulesetSelector selector;
  selector.set_reference(ref);
  ExpectSmall(Get(selector), "ruleset.reference");
  // The same reference for a record's rules.
  grpc::ClientContext context;
  v1::ValidateRecordRequest validate;
  validate.mutable_input()->set_text("{}");
  validate.mutable_input()->mutable_ruleset()->set_reference(ref);
  v1::ValidateRecordResponse response;
  ExpectSmall(stub_->ValidateRecord(&context, validate, &response), "input.ruleset.reference");
}

TEST_F(ErrorsTest, AStreamsResultForAnUnusableRequestIsCappedAlike) {
  std::string text;
  for (int i = 0; i < 2000; ++i) absl::StrAppend(&text, "no_such_key_", i, ": 1\n");
  grpc::ClientContext context;
  auto stream = stub_->ValidateRecords(&context);
  v1::ValidateRecordsRequest request;
  request.set_id("a");
  request.mutable_input()->set_text("{}");
  request.mutable_input()->mutable_ruleset()->set_text(text);
  ASSERT_TRUE(stream->Write(request));
  stream->WritesDone();
  v1::ValidateRecordsResponse response;
  ASSERT_TRUE(stream->Read(&response));
  EXPECT_FALSE(response.valid());
  ASSERT_GE(response.findings_size(), 2);
  EXPECT_LE(response.findings_size(), static_cast<int>(kMaxViolations) + 1);
  EXPECT_TRUE(absl::StartsWith(response.findings(0).message(), "input.ruleset.text: ")) << response.findings(0).message();
  EXPECT_TRUE(absl::EndsWith(response.findings(response.findings_size() - 1).message(), " more problems"));
  EXPECT_LT(response.ByteSizeLong(), kMaxErrorBytes);
  EXPECT_TRUE(stream->Finish().ok());
}

TEST_F(ErrorsTest, TwoThousandBadLinesOfRulesetTextGetTheFirstTwentyAndACount) {
  std::string text;
  for (int i = 0; i < 2000; ++i) absl::StrAppend(&text, "no_such_key_", i, ": 1\n");
  v1::RulesetSelector selector;
  selector.set_text(text);
  const google::rpc::BadRequest bad = ExpectSmall(Get(selector), "ruleset.text");
  ASSERT_GE(bad.field_violations_size(), 2);
  EXPECT_TRUE(absl::StrContains(bad.field_violations(0).description(), "no_such_key_0"))
      << bad.field_violations(0).description();
  const auto& last = bad.field_violations(bad.field_violations_size() - 1);
  EXPECT_EQ(last.field(), "ruleset.text");  // the first one left out's
  EXPECT_TRUE(absl::StartsWith(last.description(), "and ")) << last.description();
  EXPECT_TRUE(absl::EndsWith(last.description(), " more problems")) << last.description();
}

TEST_F(ErrorsTest, AHugeStrengthGetsASmallStatus) {
  for (const std::string& strength : {std::string(32 << 10, 'x'), "search:" + std::string(32 << 10, '9')}) {
    v1::SuggestMovesRequest request;
    request.mutable_ruleset()->set_reference("finkel");
    request.set_roll(2);
    request.set_strength(strength);
    const google::rpc::BadRequest bad = ExpectSmall(Suggest(request), "strength");
    // The quote is cut and says how long the whole was.
    EXPECT_TRUE(absl::StrContains(bad.field_violations(0).description(), " bytes) ... "))
        << bad.field_violations(0).description();
  }
}

TEST_F(ErrorsTest, AHugePositionGetsASmallStatus) {
  v1::ListLegalMovesRequest list;
  list.mutable_ruleset()->set_reference("finkel");
  list.set_position(std::string(100 << 10, '7'));
  list.set_roll(2);
  ExpectSmall(List(list), "position");
  list.set_position("7:" + std::string(100 << 10, '.') + ":0/7:..............:0 L");
  ExpectSmall(List(list), "position");
}

TEST_F(ErrorsTest, AHugeRulesetNameInARecordGetsASmallStatus) {
  const std::string name(64 << 10, 'q');
  ExpectSmall(Replay(absl::StrCat("[Ruleset \"", name, "\"]\n\n1. L 4:0-4\n")), "input");
  ExpectSmall(Replay(absl::StrCat("{\"ruleset\":\"", name, "\",\"actions\":[]}")), "input");
  ExpectSmall(Replay(absl::StrCat("[TSN \"", name, "\"]\n[Ruleset \"finkel\"]\n\n")), "input");
}

TEST_F(ErrorsTest, TheLongestMessagesOfSmallRequestsAreKeptWhole) {
  v1::RulesetSelector selector;
  selector.set_reference("tablet-betting");
  const google::rpc::BadRequest bad = ExpectSmall(Get(selector), "ruleset.reference");
  ASSERT_EQ(bad.field_violations_size(), 1);
  EXPECT_GT(bad.field_violations(0).description().size(), 300u);
  EXPECT_FALSE(absl::StrContains(bad.field_violations(0).description(), " bytes) ... "));
}

TEST_F(ErrorsTest, AHugePageTokenGetsASmallStatus) {
  grpc::ClientContext context;
  v1::ListRulesetsRequest request;
  request.set_page_token(std::string(100 << 10, '1'));
  v1::ListRulesetsResponse response;
  ExpectSmall(stub_->ListRulesets(&context, request, &response), "page_token");
}

TEST_F(ErrorsTest, ARecordWithThousandsOfFindingsListsTheFirstOnes) {
  // 2,000 games in one text, each with a move its throw cannot make.
  std::string text;
  for (int i = 0; i < 2000; ++i) absl::StrAppend(&text, "[Ruleset \"finkel\"]\n\n1. L 3:0-4\n\n");
  const google::rpc::BadRequest bad = ExpectSmall(Replay(text), "input");
  ASSERT_GE(bad.field_violations_size(), 3);
  EXPECT_TRUE(absl::StartsWith(bad.field_violations(0).description(), "line 3:6: action 0: [move-roll-mismatch]"))
      << bad.field_violations(0).description();
  EXPECT_TRUE(absl::StartsWith(bad.field_violations(1).description(), "line 7:6: action 0: [move-roll-mismatch]"))
      << bad.field_violations(1).description();
  EXPECT_TRUE(absl::StrContains(bad.field_violations(bad.field_violations_size() - 1).description(), " more problem"));
}

TEST_F(ErrorsTest, ShortTextIsKeptAndLongTextCutAroundItsLength) {
  EXPECT_EQ(Shorten("short", 300), "short");
  const std::string cut = Shorten(std::string(1000, 'a') + "TAIL", 300);
  EXPECT_LE(cut.size(), 300u);
  EXPECT_TRUE(absl::StrContains(cut, " ... (1004 bytes) ... ")) << cut;
  EXPECT_TRUE(absl::EndsWith(cut, "TAIL")) << cut;
  // Never in the middle of a character.
  std::string e;
  for (int i = 0; i < 500; ++i) e += "\xc3\xa9";
  const std::string cut_e = Shorten(e, 300);
  EXPECT_EQ(cut_e.find("\xc3 "), std::string::npos);
  EXPECT_EQ(cut_e.find(" \xa9"), std::string::npos);
  const grpc::Status error = Error(grpc::StatusCode::INTERNAL, std::string(100 << 10, 'm'), "R");
  EXPECT_LE(error.error_message().size(), kMaxMessageBytes);
  EXPECT_LT(error.error_message().size() + error.error_details().size(), kMaxErrorBytes);
  // Twenty short violations go as they are; the twenty-first is counted.
  std::vector<FieldViolation> many(25, {"f", "d"});
  const std::vector<FieldViolation> capped = CapViolations(many);
  ASSERT_EQ(capped.size(), kMaxViolations + 1);
  EXPECT_EQ(capped.back().description, "and 5 more problems");
  EXPECT_EQ(capped.back().field, "f");
  // The summary names the field of the first violation left out.
  std::vector<FieldViolation> mixed(kMaxViolations, {"a", "d"});
  mixed.push_back({"b", "d"});
  mixed.push_back({"c", "d"});
  EXPECT_EQ(CapViolations(mixed).back().field, "b");
  EXPECT_EQ(CapViolations({{"f", "d"}}).size(), 1u);
}

// ---------------------------------------------------------------------------
// Every problem of a referee request, in the order ruleset, position, roll.

constexpr char kBadPosition[] = "7:..............:0/6:..............:0 L";

TEST_F(ErrorsTest, ListLegalMovesNamesEveryProblem) {
  v1::ListLegalMovesRequest request;
  request.mutable_ruleset()->set_reference("finkel");
  request.set_position(kBadPosition);
  request.set_roll(9);
  EXPECT_EQ(Fields(List(request)), (std::vector<std::string>{"position", "roll"}));
  request.set_roll(-1);
  EXPECT_EQ(Fields(List(request)), (std::vector<std::string>{"position", "roll"}));
  request.mutable_ruleset()->set_reference("no-such-rules");
  EXPECT_EQ(Fields(List(request)), (std::vector<std::string>{"ruleset.reference", "roll"}));
  request.mutable_ruleset()->set_reference("finkel(pieces=0,bogus=1)");
  EXPECT_EQ(Fields(List(request)), (std::vector<std::string>{"ruleset.reference", "ruleset.reference", "roll"}));
  request.clear_ruleset();
  EXPECT_EQ(Fields(List(request)), (std::vector<std::string>{"ruleset", "roll"}));
}

TEST_F(ErrorsTest, MakeMoveNamesEveryProblem) {
  v1::MakeMoveRequest request;
  request.mutable_ruleset()->set_reference("finkel");
  request.set_position(kBadPosition);
  request.set_roll(9);
  request.mutable_move()->set_from(0);
  request.mutable_move()->set_to(9);
  EXPECT_EQ(Fields(Make(request)), (std::vector<std::string>{"position", "roll"}));
  request.clear_position();
  EXPECT_EQ(Fields(Make(request)), (std::vector<std::string>{"roll"}));
  request.set_roll(2);
  EXPECT_EQ(Fields(Make(request)), (std::vector<std::string>{"move"}));
  request.set_roll(-3);
  request.mutable_ruleset()->set_text("pieces: 0\nfoo: 1\n");
  request.set_position(kBadPosition);
  const std::vector<std::string> fields = Fields(Make(request));
  ASSERT_GE(fields.size(), 3u);
  EXPECT_EQ(fields.front(), "ruleset.text");
  EXPECT_EQ(fields[fields.size() - 2], "ruleset.text");
  EXPECT_EQ(fields.back(), "roll");
}

TEST_F(ErrorsTest, SuggestMovesNamesEveryProblem) {
  v1::SuggestMovesRequest request;
  request.mutable_ruleset()->set_reference("finkel");
  request.set_position(kBadPosition);
  request.set_roll(9);
  EXPECT_EQ(Fields(Suggest(request)), (std::vector<std::string>{"position", "roll"}));
  request.set_strength("grandmaster");
  EXPECT_EQ(Fields(Suggest(request)), (std::vector<std::string>{"position", "roll", "strength"}));
  request.mutable_evaluation()->set_depth(99);
  EXPECT_EQ(Fields(Suggest(request)), (std::vector<std::string>{"position", "roll", "evaluation.depth", "strength"}));
  request.mutable_ruleset()->set_reference("no-such-rules");
  request.set_roll(-1);
  EXPECT_EQ(Fields(Suggest(request)),
            (std::vector<std::string>{"ruleset.reference", "roll", "evaluation.depth", "strength"}));
}

}  // namespace
}  // namespace scribe::service
