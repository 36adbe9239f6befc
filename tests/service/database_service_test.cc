// The GameDatabase service in process, against a real SQLite file and a
// real PostgreSQL server (tests/storage/test_backends.h): import streams
// (legal, illegal and unreadable records, sent again, with and without
// sources), who may write, paged search with its tokens, a game back in
// its canonical form, the explorer against the library's, player pages,
// and every bad field answered with a BadRequest.
#include <algorithm>
#include <climits>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "engine/random.h"
#include "engine/ruleset.h"
#include "games/query.h"
#include "games/rules_cache.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "records/formats.h"
#include "records/judged.h"
#include "records/position_string.h"
#include "records/random_game.h"
#include "service/database_service.h"
#include "service/metrics.h"
#include "storage/open_store.h"
#include "tests/service/status_details.h"
#include "tests/common/random_judged.h"
#include "tests/common/test_rules.h"
#include "tests/storage/test_backends.h"

namespace scribe::service {
namespace {

// A legal finkel game with players, an event and a date (its TSN text).
JudgedRecord RandomJudged(uint64_t seed, const std::string& light = "") {
  return scribe::RandomJudged("finkel", seed,
                              {{"Light", light.empty() ? "player" + std::to_string(seed % 4) : light},
                               {"Dark", "player" + std::to_string((seed + 1) % 4 + 4)},
                               {"Event", "Club night " + std::to_string(seed % 2)},
                               {"Date", "2026-0" + std::to_string(1 + seed % 9) + "-1" + std::to_string(seed % 10)}});
}

std::string Tsn(const std::vector<JudgedRecord>& records) {
  auto text = WriteRecords(Format::kTsn, records);
  EXPECT_TRUE(text.ok()) << text.status();
  return text.ok() ? *text : "";
}

v1::ImportGamesRequest Message(const std::string& text, const std::string& source) {
  v1::ImportGamesRequest request;
  request.mutable_input()->set_text(text);
  request.set_source(source);
  return request;
}

std::set<std::string> FieldsOf(const grpc::Status& status) {
  std::set<std::string> fields;
  const google::rpc::BadRequest bad = BadRequestOf(status);
  for (const auto& v : bad.field_violations()) fields.insert(v.field());
  return fields;
}

class DatabaseServiceTest : public ::testing::TestWithParam<storage::TestBackend> {
 protected:
  void SetUp() override {
    location_ = GetParam().make_location();
    WritePolicy open;
    open.open = true;
    Start(open);
  }
  void TearDown() override { Stop(); }

  void Start(const WritePolicy& writers, int stream_idle_seconds = 60) {
    Stop();
    auto pool = StorePool::Open(location_, 4);
    ASSERT_TRUE(pool.ok()) << pool.status();
    DatabaseOptions options;
    options.writers = writers;
    options.batch_games = 7;  // several batches, and level merges, in a small import
    options.players_seconds = 0;
    options.stream_idle_seconds = stream_idle_seconds;
    gate_ = std::make_unique<Gate>(16, &metrics_);
    service_ = std::make_unique<GameDatabaseImpl>(*std::move(pool), options, ServiceOptions{}, gate_.get(),
                                                  std::make_shared<EvaluatorSource::TablesByDigest>());
    grpc::ServerBuilder builder;
    builder.RegisterService(service_.get());
    server_ = builder.BuildAndStart();
    stub_ = v1::GameDatabase::NewStub(server_->InProcessChannel(grpc::ChannelArguments()));
  }
  void Stop() {
    if (server_ != nullptr) server_->Shutdown();
    server_.reset();
    service_.reset();
  }

  // Sends `messages` as one import stream.
  grpc::Status Import(const std::vector<v1::ImportGamesRequest>& messages, v1::ImportGamesResponse* response) {
    grpc::ClientContext context;
    auto writer = stub_->ImportGames(&context, response);
    for (const v1::ImportGamesRequest& m : messages) {
      if (!writer->Write(m)) break;
    }
    writer->WritesDone();
    return writer->Finish();
  }
  v1::ListGamesResponse List(const v1::ListGamesRequest& request) {
    grpc::ClientContext context;
    v1::ListGamesResponse response;
    const grpc::Status status = stub_->ListGames(&context, request, &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return response;
  }
  int64_t Total(const v1::GameFilter& filter = {}) {
    v1::ListGamesRequest request;
    *request.mutable_filter() = filter;
    return List(request).total_size();
  }

  std::string location_;
  Metrics metrics_;
  std::unique_ptr<Gate> gate_;
  std::unique_ptr<GameDatabaseImpl> service_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<v1::GameDatabase::Stub> stub_;
};

TEST_P(DatabaseServiceTest, AStreamImportsItsLegalRecordsAndSendingItAgainStoresNothingTwice) {
  std::vector<JudgedRecord> games;
  for (uint64_t seed = 1; seed <= 24; ++seed) games.push_back(RandomJudged(seed));
  const std::vector<JudgedRecord> first(games.begin(), games.begin() + 12), second(games.begin() + 12, games.end());
  std::vector<v1::ImportGamesRequest> stream = {Message(Tsn(first), "lobby/a"), Message(Tsn(second), "lobby/b")};
  v1::ImportGamesResponse response;
  ASSERT_TRUE(Import(stream, &response).ok());
  EXPECT_EQ(response.records(), 24);
  EXPECT_EQ(response.added(), 24);
  EXPECT_EQ(response.rejected(), 0);
  EXPECT_EQ(Total(), 24);

  // The same stream again (a client's retry): every record known.
  ASSERT_TRUE(Import(stream, &response).ok());
  EXPECT_EQ(response.added(), 0);
  EXPECT_EQ(response.known_sources(), 24);
  // The same games from another source: sources added, no game.
  ASSERT_TRUE(Import({Message(Tsn(first), "archive.tsn")}, &response).ok());
  EXPECT_EQ(response.added(), 0);
  EXPECT_EQ(response.new_sources(), 12);
  // Without a source: duplicates, nothing stored.
  ASSERT_TRUE(Import({Message(Tsn(second), "")}, &response).ok());
  EXPECT_EQ(response.added(), 0);
  EXPECT_EQ(response.duplicates(), 12);
  EXPECT_EQ(Total(), 24);

  // A new game without a source is stored, once, however often it is sent.
  const JudgedRecord fresh = RandomJudged(1000);
  ASSERT_TRUE(Import({Message(Tsn({fresh}), ""), Message(Tsn({fresh}), "")}, &response).ok());
  EXPECT_EQ(response.added(), 1);
  EXPECT_EQ(response.duplicates(), 1);
  EXPECT_EQ(Total(), 25);
}

TEST_P(DatabaseServiceTest, IllegalAndUnreadableRecordsAreListedAndTheRestIsImported) {
  const JudgedRecord a = RandomJudged(1), b = RandomJudged(2), c = RandomJudged(3);
  // An illegal game: its first move's piece lands past the board's end.
  v1::ImportGamesRequest illegal;
  *illegal.mutable_input()->mutable_record() = c.record;
  illegal.set_source("illegal");
  int broken = -1;
  for (v1::Action& action : *illegal.mutable_input()->mutable_record()->mutable_actions()) {
    ++broken;
    if (!action.has_to()) continue;
    action.set_to(99);
    break;
  }
  std::vector<v1::ImportGamesRequest> stream;
  stream.push_back(Message(Tsn({a}), "one"));
  stream.push_back(illegal);
  stream.push_back(Message("this is not a record", "two"));
  v1::ImportGamesRequest unknown_format = Message(Tsn({b}), "three");
  unknown_format.mutable_input()->set_format(static_cast<v1::RecordFormat>(77));
  stream.push_back(unknown_format);
  v1::ImportGamesRequest long_source = Message(Tsn({b}), std::string(2000, 's'));
  stream.push_back(long_source);
  stream.push_back(Message(Tsn({b}), "four"));
  stream.push_back(Message("", "empty"));
  v1::ImportGamesResponse response;
  ASSERT_TRUE(Import(stream, &response).ok());
  EXPECT_EQ(response.records(), 7);
  EXPECT_EQ(response.added(), 2);
  EXPECT_EQ(response.rejected(), 5);
  ASSERT_EQ(response.rejections_size(), 5);
  // A message with no record is listed, not skipped.
  EXPECT_EQ(response.rejections(4).message(), 6);
  EXPECT_EQ(response.rejections(4).record(), -1);
  // The illegal game: its record, with the referee's finding.
  EXPECT_EQ(response.rejections(0).message(), 1);
  EXPECT_EQ(response.rejections(0).record(), 0);
  ASSERT_FALSE(response.rejections(0).findings().empty());
  EXPECT_EQ(response.rejections(0).findings(0).action_index(), broken) << response.rejections(0).DebugString();
  EXPECT_EQ(response.rejections(1).message(), 2);
  EXPECT_FALSE(response.rejections(1).findings().empty()) << "a text that is no record has a finding";
  EXPECT_EQ(response.rejections(2).message(), 3);
  EXPECT_EQ(response.rejections(2).record(), -1);
  ASSERT_FALSE(response.rejections(2).violations().empty());
  EXPECT_TRUE(absl::StartsWith(response.rejections(2).violations(0), "input.format"))
      << response.rejections(2).violations(0);
  EXPECT_EQ(response.rejections(3).message(), 4);
  EXPECT_TRUE(absl::StartsWith(response.rejections(3).violations(0), "source:"));
  EXPECT_EQ(Total(), 2);
}

TEST_P(DatabaseServiceTest, WritesAreRefusedUnlessTheOperatorAllowsThem) {
  Start(WritePolicy{});  // no list, not open: writes are off
  v1::ImportGamesResponse response;
  grpc::Status status = Import({Message(Tsn({RandomJudged(1)}), "x")}, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_TRUE(absl::StrContains(status.error_message(), "--db-writers")) << status.error_message();
  // A list of writers, and a client without a certificate (in process).
  WritePolicy listed;
  listed.writers = {"cn:scribe-test-client"};
  Start(listed);
  status = Import({Message(Tsn({RandomJudged(1)}), "x")}, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_TRUE(absl::StrContains(status.error_message(), "sent none")) << status.error_message();
  // Nothing was stored, and reads are open.
  EXPECT_EQ(Total(), 0);
}

// A client that opens a stream and goes quiet holds neither a call's slot
// nor its batch for long: the stream is ended, the batches committed
// before it are kept, the one being filled is not.
TEST_P(DatabaseServiceTest, AStreamThatGoesQuietIsEndedKeepingWhatWasCommitted) {
  WritePolicy open;
  open.open = true;
  Start(open, 1);
  std::vector<JudgedRecord> games;
  for (uint64_t seed = 1; seed <= 10; ++seed) games.push_back(RandomJudged(seed));
  grpc::ClientContext context;
  v1::ImportGamesResponse response;
  auto writer = stub_->ImportGames(&context, &response);
  ASSERT_TRUE(writer->Write(Message(Tsn(games), "quiet")));  // 10 games: a batch of 7 committed
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  const grpc::Status status = writer->Finish();
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(gate_->in_flight(), 0) << "the call's slot is free";
  EXPECT_EQ(Total(), 7) << "the committed batch is kept, the one being filled is not";
  // Sent again, the stream completes the import (however long the
  // server takes over the message: only the waits for the client count).
  const grpc::Status again = Import({Message(Tsn(games), "quiet")}, &response);
  ASSERT_TRUE(again.ok()) << again.error_message();
  EXPECT_EQ(response.known_sources(), 7);
  EXPECT_EQ(response.added(), 3);
}

TEST_P(DatabaseServiceTest, PagesWalkEveryMatchOnceAndATokenBelongsToItsQuery) {
  std::vector<JudgedRecord> games;
  for (uint64_t seed = 1; seed <= 23; ++seed) games.push_back(RandomJudged(seed));
  v1::ImportGamesResponse response;
  ASSERT_TRUE(Import({Message(Tsn(games), "all.tsn")}, &response).ok());
  for (v1::GameOrder order : {v1::GAME_ORDER_ID, v1::GAME_ORDER_DATE}) {
    for (bool descending : {false, true}) {
      v1::ListGamesRequest request;
      request.set_order(order);
      request.set_descending(descending);
      request.set_page_size(5);
      std::vector<int64_t> ids;
      std::vector<std::string> dates;
      for (int pages = 0; pages < 10; ++pages) {
        const v1::ListGamesResponse page = List(request);
        EXPECT_EQ(page.total_size(), 23);
        for (const v1::StoredGame& g : page.games()) {
          ids.push_back(g.id());
          dates.push_back(g.date());
        }
        if (page.next_page_token().empty()) break;
        request.set_page_token(page.next_page_token());
      }
      EXPECT_EQ(ids.size(), 23u);
      EXPECT_EQ(std::set<int64_t>(ids.begin(), ids.end()).size(), 23u);
      if (order == v1::GAME_ORDER_DATE) {
        if (descending) std::reverse(dates.begin(), dates.end());
        EXPECT_TRUE(std::is_sorted(dates.begin(), dates.end()));
      }
    }
  }
  // A token is refused with another filter, and when it is no token.
  v1::ListGamesRequest request;
  request.set_page_size(5);
  const std::string token = List(request).next_page_token();
  ASSERT_FALSE(token.empty());
  request.set_page_token(token);
  request.mutable_filter()->set_player("player1");
  grpc::ClientContext c1;
  v1::ListGamesResponse ignored;
  grpc::Status status = stub_->ListGames(&c1, request, &ignored);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(FieldsOf(status), std::set<std::string>{"page_token"});
  request.set_page_token("garbage!");
  grpc::ClientContext c2;
  status = stub_->ListGames(&c2, request, &ignored);
  EXPECT_EQ(FieldsOf(status), std::set<std::string>{"page_token"});
}

TEST_P(DatabaseServiceTest, FiltersMatchTheirGamesAndNamesMatchLiterally) {
  std::vector<JudgedRecord> games;
  const std::string sly = "'); DROP TABLE games;--";
  for (uint64_t seed = 1; seed <= 12; ++seed) games.push_back(RandomJudged(seed, seed % 3 == 0 ? sly : ""));
  games.push_back(RandomJudged(50, "100%_sure"));
  v1::ImportGamesResponse response;
  ASSERT_TRUE(Import({Message(Tsn(games), "all.tsn")}, &response).ok());
  ASSERT_EQ(response.added(), 13);
  std::map<std::string, int64_t> by_player;
  int64_t light_wins = 0;
  for (const JudgedRecord& g : games) {
    for (const auto& tag : g.record.tags()) {
      if (tag.first == "Light" || tag.first == "Dark") ++by_player[tag.second];
    }
  }
  for (const auto& [name, count] : by_player) {
    v1::GameFilter filter;
    filter.set_player(name);
    EXPECT_EQ(Total(filter), count) << name;
  }
  v1::GameFilter filter;
  filter.set_player("100%");
  EXPECT_EQ(Total(filter), 0) << "% is no wildcard";
  filter.set_player("100__sure");
  EXPECT_EQ(Total(filter), 0) << "_ is no wildcard";
  filter.Clear();
  filter.set_light(sly);
  EXPECT_EQ(Total(filter), 4);
  EXPECT_EQ(Total(), 13) << "the games are all still there";
  filter.Clear();
  filter.set_winner(v1::LIGHT);
  light_wins = Total(filter);
  filter.set_winner(v1::DARK);
  EXPECT_EQ(light_wins + Total(filter), 13);
  filter.Clear();
  filter.mutable_ruleset()->set_reference("masters");
  EXPECT_EQ(Total(filter), 0) << "a ruleset with no stored game matches none";
  filter.mutable_ruleset()->set_reference("finkel");
  EXPECT_EQ(Total(filter), 13);
}

TEST_P(DatabaseServiceTest, AGameComesBackInItsCanonicalFormWithItsSources) {
  const JudgedRecord game = RandomJudged(7);
  v1::ImportGamesResponse response;
  ASSERT_TRUE(Import({Message(Tsn({game}), "club/7")}, &response).ok());
  ASSERT_TRUE(Import({Message(Tsn({game}), "mirror/7")}, &response).ok());
  for (v1::RecordFormat format : {v1::RECORD_FORMAT_TSN, v1::RECORD_FORMAT_JSON}) {
    v1::GetGameRequest request;
    request.set_id(1);
    request.set_format(format);
    grpc::ClientContext context;
    v1::GetGameResponse got;
    ASSERT_TRUE(stub_->GetGame(&context, request, &got).ok());
    auto want = WriteRecords(format == v1::RECORD_FORMAT_TSN ? Format::kTsn : Format::kJson, {game});
    ASSERT_TRUE(want.ok());
    EXPECT_EQ(got.text(), *want);
    ASSERT_EQ(got.sources_size(), 2);
    EXPECT_EQ(got.sources(0).source(), "club/7");
    EXPECT_EQ(got.sources(1).source(), "mirror/7");
    EXPECT_EQ(got.game().plies(), game.record.actions_size());
  }
  v1::GetGameRequest missing;
  missing.set_id(99);
  grpc::ClientContext context;
  v1::GetGameResponse got;
  EXPECT_EQ(stub_->GetGame(&context, missing, &got).error_code(), grpc::StatusCode::NOT_FOUND);
}

TEST_P(DatabaseServiceTest, ThePositionSearchAndTheExplorerAgreeWithTheLibrary) {
  std::vector<JudgedRecord> games;
  for (uint64_t seed = 1; seed <= 20; ++seed) games.push_back(RandomJudged(seed));
  v1::ImportGamesResponse response;
  ASSERT_TRUE(Import({Message(Tsn(games), "all.tsn")}, &response).ok());
  auto rules = MustLoad("finkel");
  // Each game is found by a position it passed through.
  for (size_t i = 0; i < games.size(); i += 4) {
    const auto& positions = games[i].verdict.positions;
    const size_t ply = (i * 7) % positions.size();
    v1::ListGamesRequest request;
    request.mutable_filter()->mutable_ruleset()->set_reference("finkel");
    request.mutable_filter()->set_position(PositionToString(*rules, positions[ply]));
    request.set_page_size(1000);
    const v1::ListGamesResponse found = List(request);
    bool hit = false;
    for (const v1::StoredGame& g : found.games()) {
      if (g.id() != static_cast<int64_t>(i + 1)) continue;
      hit = true;
      EXPECT_LE(g.ply(), static_cast<int>(ply));
    }
    EXPECT_TRUE(hit) << "game " << i + 1 << " at ply " << ply;
  }
  // The explorer: the library's answer on its own connection, move by move.
  auto store = storage::OpenStore(location_, storage::OpenMode::kExisting);
  ASSERT_TRUE(store.ok());
  games::RulesCache cache(**store);
  auto known = cache.ByDigest(rules->digest);
  ASSERT_TRUE(known.ok());
  std::string position;  // the start, then the position after its most played move
  for (int step = 0; step < 3; ++step) {
    v1::ExplorePositionRequest request;
    request.set_position(position);
    grpc::ClientContext context;
    v1::ExplorePositionResponse got;
    ASSERT_TRUE(stub_->ExplorePosition(&context, request, &got).ok());
    auto pos = position.empty() ? StartPosition(*rules) : *ParsePositionString(*rules, position);
    auto want = games::Explore(**store, games::PositionTarget{*known, pos}, nullptr);
    ASSERT_TRUE(want.ok());
    EXPECT_EQ(got.games(), want->games);
    ASSERT_EQ(got.moves_size(), static_cast<int>(want->moves.size()));
    for (int k = 0; k < got.moves_size(); ++k) {
      EXPECT_EQ(got.moves(k).roll(), want->moves[k].roll);
      EXPECT_EQ(got.moves(k).games(), want->moves[k].games);
      EXPECT_EQ(got.moves(k).light_wins(), want->moves[k].light_wins);
      EXPECT_EQ(got.moves(k).has_move(), want->moves[k].from >= 0);
    }
    if (step == 0) {
      EXPECT_EQ(got.games(), 20);
    }
    const auto best = std::max_element(got.moves().begin(), got.moves().end(),
                                       [](const auto& a, const auto& b) { return a.games() < b.games(); });
    ASSERT_NE(best, got.moves().end());
    position = best->position_after();
  }
}

TEST_P(DatabaseServiceTest, APlayersPageCountsTheirGames) {
  std::vector<JudgedRecord> games;
  for (uint64_t seed = 1; seed <= 16; ++seed) games.push_back(RandomJudged(seed));
  v1::ImportGamesResponse response;
  ASSERT_TRUE(Import({Message(Tsn(games), "all.tsn")}, &response).ok());
  v1::GameFilter filter;
  filter.set_player("player1");
  const int64_t total = Total(filter);
  ASSERT_GT(total, 0);
  v1::GetPlayerRequest request;
  request.set_name("player1");
  grpc::ClientContext context;
  v1::GetPlayerResponse player;
  ASSERT_TRUE(stub_->GetPlayer(&context, request, &player).ok());
  EXPECT_EQ(player.games(), total);
  EXPECT_EQ(player.wins() + player.losses() + player.unfinished(), total);
  EXPECT_FALSE(player.ratings().empty());
  request.set_name("nobody");
  grpc::ClientContext c2;
  EXPECT_EQ(stub_->GetPlayer(&c2, request, &player).error_code(), grpc::StatusCode::NOT_FOUND);
}

TEST_P(DatabaseServiceTest, EveryBadFieldIsNamedInABadRequest) {
  v1::ImportGamesResponse response;
  ASSERT_TRUE(Import({Message(Tsn({RandomJudged(1)}), "a")}, &response).ok());
  v1::ListGamesRequest list;
  list.set_page_size(-1);
  list.mutable_filter()->set_player(std::string("a\0b", 3));
  list.mutable_filter()->set_date_from("last week");
  list.mutable_filter()->set_position("not a position");
  list.mutable_filter()->mutable_ruleset()->set_reference("finkel");
  grpc::ClientContext c1;
  v1::ListGamesResponse ignored;
  grpc::Status status = stub_->ListGames(&c1, list, &ignored);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(FieldsOf(status), (std::set<std::string>{"page_size", "filter.player", "filter.date_from"}));
  list.Clear();
  list.mutable_filter()->set_position("not a position");
  list.mutable_filter()->mutable_ruleset()->set_reference("finkel");
  grpc::ClientContext c2;
  status = stub_->ListGames(&c2, list, &ignored);
  EXPECT_EQ(FieldsOf(status), std::set<std::string>{"filter.position"});
  list.mutable_filter()->mutable_ruleset()->set_reference("no-such-rules");
  grpc::ClientContext c3;
  status = stub_->ListGames(&c3, list, &ignored);
  EXPECT_EQ(FieldsOf(status), std::set<std::string>{"ruleset.reference"});

  v1::GetPlayerRequest player;
  player.set_name(std::string(5000, 'x'));
  grpc::ClientContext c4;
  v1::GetPlayerResponse no_player;
  status = stub_->GetPlayer(&c4, player, &no_player);
  EXPECT_EQ(FieldsOf(status), std::set<std::string>{"name"});
  v1::GetGameRequest game;
  game.set_id(-3);
  game.set_format(static_cast<v1::RecordFormat>(40));
  grpc::ClientContext c5;
  v1::GetGameResponse no_game;
  status = stub_->GetGame(&c5, game, &no_game);
  EXPECT_EQ(FieldsOf(status), (std::set<std::string>{"id", "format"}));
  v1::ExplorePositionRequest explore;
  explore.set_position("garbage");
  grpc::ClientContext c6;
  v1::ExplorePositionResponse no_explore;
  status = stub_->ExplorePosition(&c6, explore, &no_explore);
  EXPECT_EQ(FieldsOf(status), std::set<std::string>{"position"});
}

// Any text in any text field of any read request: an answer, or
// INVALID_ARGUMENT with a BadRequest naming a field; never an undetailed
// error; bytes that are not UTF-8 included (protobuf's own parse refuses
// them: the service parses requests itself, service/request_parsing.h).
TEST_P(DatabaseServiceTest, AnyTextInAnyFieldGetsAnAnswerOrABadRequest) {
  v1::ImportGamesResponse imported;
  ASSERT_TRUE(Import({Message(Tsn({RandomJudged(1), RandomJudged(2)}), "a")}, &imported).ok());
  const std::vector<std::string> texts = {"",
                                          std::string("\0", 1),
                                          std::string(1025, 'n'),
                                          "'); DROP TABLE games;--",
                                          "%_%",
                                          "7:..............:0/7:..............:0 L",
                                          "\xe2\x80\xae right-to-left",
                                          "caf\xe9",
                                          "\xed\xa0\x80 a surrogate",
                                          std::string(200000, 'x')};
  const auto check = [&](const grpc::Status& status, const std::string& what) {
    if (status.ok() || status.error_code() == grpc::StatusCode::NOT_FOUND) return;
    ASSERT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << what << ": " << status.error_message();
    EXPECT_FALSE(BadRequestOf(status).field_violations().empty()) << what << ": " << status.error_message();
  };
  for (size_t i = 0; i < texts.size(); ++i) {
    const std::string& t = texts[i];
    const std::string what = "text " + std::to_string(i);
    for (int field = 0; field < 6; ++field) {
      v1::ListGamesRequest list;
      v1::GameFilter* f = list.mutable_filter();
      if (field == 0) f->set_player(t);
      if (field == 1) f->set_event(t);
      if (field == 2) f->set_date_from(t);
      if (field == 3) list.set_page_token(t);
      if (field == 4) f->mutable_ruleset()->set_reference(t);
      if (field == 5) {
        f->mutable_ruleset()->set_reference("finkel");
        f->set_position(t);
      }
      grpc::ClientContext c;
      v1::ListGamesResponse r;
      check(stub_->ListGames(&c, list, &r), what + " in ListGames field " + std::to_string(field));
    }
    v1::ExplorePositionRequest explore;
    explore.set_position(t);
    grpc::ClientContext c1;
    v1::ExplorePositionResponse e;
    check(stub_->ExplorePosition(&c1, explore, &e), what + " in ExplorePosition");
    v1::GetPlayerRequest player;
    player.set_name(t);
    grpc::ClientContext c2;
    v1::GetPlayerResponse p;
    check(stub_->GetPlayer(&c2, player, &p), what + " in GetPlayer");
  }
}

// A name as a client may send it, in bytes that are not UTF-8 (Latin-1):
// protobuf's own parse refuses such a message; the service names the field,
// and an import stream rejects that message alone.
TEST_P(DatabaseServiceTest, NamesThatAreNotUtf8AreNamedInABadRequestOrARejection) {
  EXPECT_TRUE(service_->MissingMethods().empty());
  const std::string latin1 = "Jos\xe9";
  std::vector<v1::ImportGamesRequest> stream = {Message(Tsn({RandomJudged(1)}), "one"),
                                                Message(Tsn({RandomJudged(2)}), latin1),
                                                Message(Tsn({RandomJudged(3)}), "three")};
  v1::ImportGamesResponse response;
  const grpc::Status imported = Import(stream, &response);
  ASSERT_TRUE(imported.ok()) << imported.error_message();
  EXPECT_EQ(response.records(), 3);
  EXPECT_EQ(response.added(), 2) << "the stream went on past the message";
  ASSERT_EQ(response.rejections_size(), 1);
  EXPECT_EQ(response.rejections(0).message(), 1);
  ASSERT_EQ(response.rejections(0).violations_size(), 1);
  EXPECT_TRUE(absl::StartsWith(response.rejections(0).violations(0), "source: "))
      << response.rejections(0).violations(0);
  EXPECT_TRUE(absl::StrContains(response.rejections(0).violations(0), "not UTF-8"));
  EXPECT_EQ(Total(), 2);

  v1::ListGamesRequest list;
  list.mutable_filter()->set_player(latin1);
  list.mutable_filter()->set_event("\xff");
  grpc::ClientContext c1;
  v1::ListGamesResponse listed;
  grpc::Status status = stub_->ListGames(&c1, list, &listed);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << status.error_message();
  EXPECT_EQ(FieldsOf(status), (std::set<std::string>{"filter.player", "filter.event"}));
  v1::GetPlayerRequest player;
  player.set_name(latin1);
  grpc::ClientContext c2;
  v1::GetPlayerResponse got;
  status = stub_->GetPlayer(&c2, player, &got);
  EXPECT_EQ(FieldsOf(status), std::set<std::string>{"name"});
  v1::ExplorePositionRequest explore;
  explore.set_position("\xc0\x80");  // an overlong NUL
  grpc::ClientContext c3;
  v1::ExplorePositionResponse explored;
  status = stub_->ExplorePosition(&c3, explore, &explored);
  EXPECT_EQ(FieldsOf(status), std::set<std::string>{"position"});
  // The refusals are counted as the handlers' own are.
  EXPECT_TRUE(absl::StrContains(metrics_.Prometheus(), "scribe_calls_total{method=\"GetPlayer\",code=\"3\"} 1"))
      << metrics_.Prometheus();
}

INSTANTIATE_TEST_SUITE_P(Backends, DatabaseServiceTest, ::testing::ValuesIn(storage::TestBackends()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace scribe::service
