// Deadlines and cancellation reach the work: a call whose client gave up
// (its deadline passed) or that the server stops ends its computing within
// milliseconds, inside the search and the annotation, not only between
// records. Each test times when the server's handler returned (the call's
// metric is recorded then), not when the client heard.
#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/random.h"
#include "engine/ruleset.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "records/formats.h"
#include "records/random_game.h"
#include "service/service.h"

namespace scribe::service {
namespace {

using Clock = std::chrono::steady_clock;

// How late after its deadline a call's work may end: the target is ~50 ms;
// the rest is room for a loaded machine. It holds with both cores busy:
// 19 runs of these three tests (57 in all), each core held by a busy loop
// and a load average of 20, none failed.
constexpr auto kSlack = std::chrono::milliseconds(250);

class CancelTest : public ::testing::Test {
 protected:
  void TearDown() override {
    if (server_) server_->Shutdown(std::chrono::system_clock::now());
  }

  void Start(ServiceOptions options) {
    service_ = std::make_unique<ScribeServiceImpl>(options, &metrics_);
    grpc::ServerBuilder builder;
    builder.RegisterService(service_.get());
    builder.SetMaxReceiveMessageSize(64 << 20);
    server_ = builder.BuildAndStart();
    stub_ = v1::ScribeService::NewStub(server_->InProcessChannel(grpc::ChannelArguments()));
  }

  // Waits (up to 20 s) until the server has recorded a finished call of
  // `method`; the time then.
  Clock::time_point HandlerDone(const std::string& method) {
    const Clock::time_point give_up = Clock::now() + std::chrono::seconds(20);
    while (Clock::now() < give_up) {
      if (absl::StrContains(metrics_.Prometheus(), absl::StrCat("scribe_calls_total{method=\"", method, "\""))) {
        return Clock::now();
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return give_up;
  }

  // A random murray game of 600 to 1000 actions (a long one that a search
  // annotates in seconds).
  static v1::GameRecord LongGame() {
    auto rules = LoadRuleset("murray");
    EXPECT_TRUE(rules.ok());
    for (uint64_t seed = 1;; ++seed) {
      Rng rng(seed);
      RandomGameOptions options;
      options.ruleset = "murray";
      v1::GameRecord game = RandomGame(**rules, rng, options);
      if (game.actions_size() >= 600 && game.actions_size() <= 1000) return game;
    }
  }

  Metrics metrics_;
  std::unique_ptr<ScribeServiceImpl> service_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<v1::ScribeService::Stub> stub_;
};

// The case: a depth-3 search over a long game, a 300 ms deadline.
// The search alone takes seconds; the work must end with the deadline.
TEST_F(CancelTest, AnnotationBySearchStopsAtTheDeadline) {
  Start(ServiceOptions{});
  v1::AnnotateRecordRequest request;
  *request.mutable_input()->mutable_record() = LongGame();
  request.mutable_winning_chances()->set_mode(v1::EVALUATION_MODE_SEARCH);
  request.mutable_winning_chances()->set_depth(3);
  v1::AnnotateRecordResponse response;
  grpc::ClientContext context;
  const Clock::time_point start = Clock::now();
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(300));
  EXPECT_EQ(stub_->AnnotateRecord(&context, request, &response).error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
  const auto worked = HandlerDone("AnnotateRecord") - start;
  EXPECT_LT(worked, std::chrono::milliseconds(300) + kSlack)
      << std::chrono::duration_cast<std::chrono::milliseconds>(worked).count() << " ms of work";
}

// A search of a second or two (6 throws deep in a middle game, ranking
// the moves and then choosing one): the search itself polls the call.
TEST_F(CancelTest, ASingleDeepSearchStopsAtTheDeadline) {
  ServiceOptions options;
  options.max_search_depth = 6;
  Start(options);
  v1::SuggestMovesRequest request;
  request.mutable_ruleset()->set_reference("finkel");
  request.set_position("3:...1...1.1..1.:0/3:.1....1.1.1...:0 D");
  request.set_roll(2);
  request.mutable_evaluation()->set_mode(v1::EVALUATION_MODE_SEARCH);
  request.mutable_evaluation()->set_depth(6);
  request.set_strength("search:6");
  v1::SuggestMovesResponse response;
  grpc::ClientContext context;
  const Clock::time_point start = Clock::now();
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(200));
  EXPECT_EQ(stub_->SuggestMoves(&context, request, &response).error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
  const auto worked = HandlerDone("SuggestMoves") - start;
  EXPECT_LT(worked, std::chrono::milliseconds(200) + kSlack)
      << std::chrono::duration_cast<std::chrono::milliseconds>(worked).count() << " ms of work";
}

// What scribed does when the shutdown's grace period ends: a call still
// computing stops and answers UNAVAILABLE (retry elsewhere).
TEST_F(CancelTest, StoppingTheServerEndsCallsInFlight) {
  Start(ServiceOptions{});
  v1::AnnotateRecordRequest request;
  *request.mutable_input()->mutable_record() = LongGame();
  request.mutable_winning_chances()->set_mode(v1::EVALUATION_MODE_SEARCH);
  request.mutable_winning_chances()->set_depth(3);
  grpc::Status status;
  std::thread caller([&] {
    v1::AnnotateRecordResponse response;
    grpc::ClientContext context;
    status = stub_->AnnotateRecord(&context, request, &response);
  });
  while (service_->in_flight() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const Clock::time_point stop = Clock::now();
  service_->StopCalls();
  const auto worked = HandlerDone("AnnotateRecord") - stop;
  caller.join();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAVAILABLE) << status.error_message();
  EXPECT_LT(worked, kSlack) << std::chrono::duration_cast<std::chrono::milliseconds>(worked).count() << " ms";
}

}  // namespace
}  // namespace scribe::service
