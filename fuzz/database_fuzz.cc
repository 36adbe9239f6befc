// Fuzzes every method of the game database's gRPC service
// (service/database_service.h) through an in-process server, with the
// request's bytes sent as they are: the server's own parse of them
// (service/request_parsing.h) is fuzzed too.
//
// Input: byte 0 picks the method (ImportGames, ListGames, GetGame,
// ExplorePosition, GetPlayer: byte 0 modulo 5); the rest is the request's
// bytes, sent unchanged (text that parses as the request's protobuf text
// format is sent serialized instead). ImportGames' bytes are its stream's
// messages, split at each "\n--\n". Inputs over 16 KiB are refused.
//
// The database: SQLite in a temporary folder, with 12 finkel games
// imported at the start; made again once imports have grown it past 400.
//
// Properties, for every request:
//  - the status code is one docs/api.md gives for the method: OK or
//    INVALID_ARGUMENT, and NOT_FOUND for GetGame, ExplorePosition and
//    GetPlayer; errors carry a google.rpc.Status in their details with the
//    same code and message, INVALID_ARGUMENT a BadRequest with at least
//    one violation with a description, other codes an ErrorInfo;
//  - a response parses as the method's response;
//  - ImportGames answers OK; every record counted is added, a new or known
//    source, a duplicate or rejected; the games stored grew by exactly
//    `added`; at most 100 rejections are listed, each of a message sent;
//  - ListGames: no more games than the page size, and no more than
//    total_size; GetGame: the game asked for; ExplorePosition: no move
//    played in more games than reached the position; GetPlayer: games =
//    wins + losses + unfinished;
//  - a read asked twice is answered the same.
#include <unistd.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "fuzz/fuzz_util.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "grpcpp/generic/generic_stub.h"
#include "grpcpp/grpcpp.h"
#include "records/formats.h"
#include "records/judged.h"
#include "records/random_game.h"
#include "scribe/v1/game_database.pb.h"
#include "service/database_service.h"
#include "service/metrics.h"
#include "service/request_parsing.h"
#include "service/store_pool.h"

namespace scribe::fuzz {
namespace {

using grpc::StatusCode;

constexpr size_t kMaxDatabaseInput = 16 * 1024;
constexpr int64_t kMaxGames = 400;
constexpr char kService[] = "/scribe.v1.GameDatabase/";

struct Fixture {
  std::string folder;
  service::Metrics metrics;
  std::unique_ptr<service::Gate> gate;
  std::unique_ptr<service::GameDatabaseImpl> service;
  std::unique_ptr<grpc::Server> server;
  std::unique_ptr<grpc::GenericStub> stub;
};

// A call's outcome: its status and, when OK, the response's bytes.
struct Answer {
  grpc::Status status;
  std::string response;
};

std::string Bytes(const grpc::ByteBuffer& buffer) {
  std::string out;
  FUZZ_CHECK(service::BufferBytes(buffer, &out), "a response's bytes cannot be read");
  return out;
}

// Waits for the one operation in flight on `cq`; whether it succeeded.
bool Await(grpc::CompletionQueue& cq) {
  void* tag = nullptr;
  bool ok = false;
  FUZZ_CHECK(cq.Next(&tag, &ok), "the completion queue shut down");
  return ok;
}

void Drain(grpc::CompletionQueue& cq) {
  cq.Shutdown();
  void* tag = nullptr;
  bool ok = false;
  while (cq.Next(&tag, &ok)) {
  }
}

void Deadline(grpc::ClientContext& context) {
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
}

Answer Unary(Fixture& f, const std::string& method, const std::string& request) {
  grpc::ClientContext context;
  Deadline(context);
  grpc::CompletionQueue cq;
  grpc::Slice slice(request);
  const grpc::ByteBuffer bytes(&slice, 1);
  auto call = f.stub->PrepareUnaryCall(&context, kService + method, bytes, &cq);
  call->StartCall();
  grpc::ByteBuffer response;
  Answer answer;
  call->Finish(&response, &answer.status, nullptr);
  Await(cq);
  if (answer.status.ok()) answer.response = Bytes(response);
  Drain(cq);
  return answer;
}

// A client stream of `messages`, answered once.
Answer Stream(Fixture& f, const std::string& method, const std::vector<std::string>& messages) {
  grpc::ClientContext context;
  Deadline(context);
  grpc::CompletionQueue cq;
  auto call = f.stub->PrepareCall(&context, kService + method, &cq);
  call->StartCall(nullptr);
  bool ok = Await(cq);
  for (const std::string& m : messages) {
    if (!ok) break;
    grpc::Slice slice(m);
    call->Write(grpc::ByteBuffer(&slice, 1), nullptr);
    ok = Await(cq);
  }
  if (ok) {
    call->WritesDone(nullptr);
    Await(cq);
  }
  grpc::ByteBuffer response;
  call->Read(&response, nullptr);
  const bool got = Await(cq);
  Answer answer;
  call->Finish(&answer.status, nullptr);
  Await(cq);
  if (got) answer.response = Bytes(response);
  Drain(cq);
  return answer;
}

void Stop(Fixture& f) {
  if (f.server != nullptr) f.server->Shutdown();
  f.server.reset();
  if (f.service != nullptr) f.service->Stop();
  f.service.reset();
  if (!f.folder.empty()) std::filesystem::remove_all(f.folder);
}

int64_t StoredGames(Fixture& f);

// A new database with 12 legal finkel games, and the server over it.
void Start(Fixture& f) {
  Stop(f);
  const char* tmp = std::getenv("TMPDIR");
  f.folder = absl::StrCat(tmp != nullptr ? tmp : "/tmp", "/database_fuzz_", ::getpid());
  std::filesystem::remove_all(f.folder);
  std::filesystem::create_directories(f.folder);
  auto pool = service::StorePool::Open(f.folder + "/games.db", 2);
  FUZZ_CHECK(pool.ok(), "cannot open the database: ", pool.status().message());
  service::DatabaseOptions options;
  options.writers.open = true;
  options.batch_games = 5;
  options.players_seconds = 0;
  options.import_nice = 0;
  options.stream_idle_seconds = 0;
  service::ServiceOptions limits;
  limits.max_record_bytes = 12 * 1024;
  limits.max_record_actions = 600;
  f.gate = std::make_unique<service::Gate>(8, &f.metrics);
  f.service = std::make_unique<service::GameDatabaseImpl>(
      *std::move(pool), options, limits, f.gate.get(), std::make_shared<EvaluatorSource::TablesByDigest>());
  grpc::ServerBuilder builder;
  builder.RegisterService(f.service.get());
  f.server = builder.BuildAndStart();
  FUZZ_CHECK(f.server != nullptr, "the in-process server does not start");
  f.stub = std::make_unique<grpc::GenericStub>(f.server->InProcessChannel(grpc::ChannelArguments()));
  auto rules = LoadRuleset("finkel");
  FUZZ_CHECK(rules.ok(), "finkel does not load");
  std::vector<std::string> messages;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    Rng rng(seed);
    RandomGameOptions play = ScribePlayOptions(**rules, "finkel", seed);
    play.tags["Light"] = absl::StrCat("player", seed % 3);
    play.tags["Dark"] = absl::StrCat("player", 3 + seed % 2);
    auto text = WriteRecords(Format::kTsn, {Judge(RandomGame(**rules, rng, play), {}, {})});
    FUZZ_CHECK(text.ok(), "a seed game does not write");
    v1::ImportGamesRequest request;
    request.mutable_input()->set_text(*text);
    request.set_source(absl::StrCat("seed-", seed));
    messages.push_back(request.SerializeAsString());
  }
  const Answer seeded = Stream(f, "ImportGames", messages);
  FUZZ_CHECK(seeded.status.ok(), "the seed games do not import: ", seeded.status.error_message());
  FUZZ_CHECK(StoredGames(f) == 12, "the seed games are not all stored");
}

Fixture& TheFixture() {
  static Fixture* const fixture = [] {
    auto* f = new Fixture;
    Start(*f);
    // The fuzzer ends by exit(): the database's folder goes with it.
    std::atexit([] { std::filesystem::remove_all(TheFixture().folder); });
    return f;
  }();
  return *fixture;
}

int64_t StoredGames(Fixture& f) {
  v1::ListGamesRequest request;
  request.set_page_size(1);
  const Answer a = Unary(f, "ListGames", request.SerializeAsString());
  FUZZ_CHECK(a.status.ok(), "counting the games failed: ", a.status.error_message());
  v1::ListGamesResponse response;
  FUZZ_CHECK(response.ParseFromString(a.response), "a ListGames response does not parse");
  return response.total_size();
}

// The bytes to send: text that parses as `type`'s text format is sent
// serialized, anything else as it is.
std::string Request(absl::string_view bytes, google::protobuf::Message* type) {
  type->Clear();
  if (!bytes.empty() && ParseTextFormat(bytes, type)) return type->SerializeAsString();
  return std::string(bytes);
}

void CheckStatus(const grpc::Status& status, absl::string_view method, bool not_found_allowed,
                 absl::string_view input) {
  if (status.ok()) return;
  const StatusCode code = status.error_code();
  FUZZ_CHECK(code == StatusCode::INVALID_ARGUMENT || (not_found_allowed && code == StatusCode::NOT_FOUND), method,
             ": code ", code, " (", status.error_message(), ")\ninput: ", Shown(input));
  google::rpc::Status rpc;
  FUZZ_CHECK(rpc.ParseFromString(status.error_details()), method, ": no google.rpc.Status in the details");
  FUZZ_CHECK(rpc.code() == code && rpc.message() == status.error_message(), method,
             ": the details differ from the status: ", rpc.ShortDebugString());
  bool detailed = false;
  for (const auto& any : rpc.details()) {
    if (code == StatusCode::INVALID_ARGUMENT && any.Is<google::rpc::BadRequest>()) {
      google::rpc::BadRequest bad;
      FUZZ_CHECK(any.UnpackTo(&bad), method, ": the BadRequest does not unpack");
      for (const auto& v : bad.field_violations()) {
        FUZZ_CHECK(!v.description().empty(), method, ": a violation without a description");
      }
      detailed = bad.field_violations_size() > 0;
    }
    if (code != StatusCode::INVALID_ARGUMENT && any.Is<google::rpc::ErrorInfo>()) {
      google::rpc::ErrorInfo info;
      detailed = any.UnpackTo(&info) && info.domain() == "scribe.v1" && !info.reason().empty();
    }
  }
  FUZZ_CHECK(detailed, method, ": an error without its detail: ", rpc.ShortDebugString(), "\ninput: ", Shown(input));
}

void FuzzImport(Fixture& f, absl::string_view rest) {
  std::vector<std::string> messages;
  v1::ImportGamesRequest type;
  for (absl::string_view part : absl::StrSplit(rest, "\n--\n")) messages.push_back(Request(part, &type));
  const int64_t before = StoredGames(f);
  const Answer a = Stream(f, "ImportGames", messages);
  FUZZ_CHECK(a.status.ok(), "ImportGames: code ", a.status.error_code(), " (", a.status.error_message(),
             ")\ninput: ", Shown(rest));
  v1::ImportGamesResponse r;
  FUZZ_CHECK(r.ParseFromString(a.response), "ImportGames: the response does not parse");
  FUZZ_CHECK(r.records() == r.added() + r.new_sources() + r.known_sources() + r.duplicates() + r.rejected(),
             "ImportGames: records not accounted for: ", r.ShortDebugString(), "\ninput: ", Shown(rest));
  FUZZ_CHECK(r.rejections_size() <= 100 && r.rejections_size() <= r.rejected(), "ImportGames: rejections listed ",
             r.rejections_size(), " of ", r.rejected());
  for (const v1::RejectedRecord& rejected : r.rejections()) {
    FUZZ_CHECK(rejected.message() >= 0 && rejected.message() < static_cast<int64_t>(messages.size()),
               "ImportGames: a rejection of message ", rejected.message(), " of ", messages.size());
  }
  const int64_t after = StoredGames(f);
  FUZZ_CHECK(after == before + r.added(), "ImportGames: ", before, " games, ", r.added(), " added, ", after,
             " stored\ninput: ", Shown(rest));
  if (after > kMaxGames) Start(f);
}

// A read, asked twice: the same answer.
template <typename Req, typename Resp>
bool Read(Fixture& f, const std::string& method, absl::string_view rest, bool not_found_allowed, Req* request,
          Resp* response) {
  const std::string bytes = Request(rest, request);
  const Answer a = Unary(f, method, bytes);
  CheckStatus(a.status, method, not_found_allowed, rest);
  const Answer again = Unary(f, method, bytes);
  FUZZ_CHECK(again.status.error_code() == a.status.error_code() &&
                 again.status.error_message() == a.status.error_message(),
             method, ": the same request answered ", a.status.error_code(), " then ", again.status.error_code(),
             "\ninput: ", Shown(rest));
  if (!a.status.ok()) return false;
  FUZZ_CHECK(response->ParseFromString(a.response), method, ": the response does not parse");
  // (Equal as messages: a map's entries are serialized in no set order.)
  Resp second;
  FUZZ_CHECK(second.ParseFromString(again.response), method, ": the second response does not parse");
  std::string diff;
  FUZZ_CHECK(SameMessage(*response, second, &diff), method, ": the same request answered differently: ", diff,
             "\ninput: ", Shown(rest));
  request->Clear();
  (void)request->ParseFromString(bytes);  // what was asked, where it parses
  return true;
}

}  // namespace
}  // namespace scribe::fuzz

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  scribe::fuzz::SilenceProtobufLogs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace scribe;
  using namespace scribe::fuzz;
  if (size < 1 || size > kMaxDatabaseInput) return kRejectInput;
  Fixture& f = TheFixture();
  const absl::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 5) {
    case 0:
      FuzzImport(f, rest);
      break;
    case 1: {
      v1::ListGamesRequest request;
      v1::ListGamesResponse response;
      if (!Read(f, "ListGames", rest, false, &request, &response)) break;
      const int page = request.page_size();
      FUZZ_CHECK(page <= 0 || response.games_size() <= page, "ListGames: ", response.games_size(),
                 " games on a page of ", page);
      FUZZ_CHECK(response.games_size() <= response.total_size(), "ListGames: more games than total_size");
      break;
    }
    case 2: {
      v1::GetGameRequest request;
      v1::GetGameResponse response;
      if (!Read(f, "GetGame", rest, true, &request, &response)) break;
      FUZZ_CHECK(response.game().id() == request.id(), "GetGame: game ", response.game().id(), " for id ",
                 request.id());
      break;
    }
    case 3: {
      v1::ExplorePositionRequest request;
      v1::ExplorePositionResponse response;
      if (!Read(f, "ExplorePosition", rest, true, &request, &response)) break;
      for (const v1::ExploredMove& m : response.moves()) {
        FUZZ_CHECK(m.games() >= 1 && m.games() <= response.games(), "ExplorePosition: a move of ", m.games(),
                   " games from a position of ", response.games());
      }
      break;
    }
    default: {
      v1::GetPlayerRequest request;
      v1::GetPlayerResponse response;
      if (!Read(f, "GetPlayer", rest, true, &request, &response)) break;
      FUZZ_CHECK(response.games() == response.wins() + response.losses() + response.unfinished(),
                 "GetPlayer: ", response.ShortDebugString());
      break;
    }
  }
  return 0;
}
