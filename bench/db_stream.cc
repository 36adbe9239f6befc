// db_stream: the game database's service under load (docs/BENCHMARKS.md,
// "The game database over gRPC").
//
// Streams TSN games to one server's GameDatabase/ImportGames (each message
// --per-message records, split at their "[TSN" lines, with a source of its
// own), while another thread asks a second server (or the same) for
// searches on a fixed schedule (--search-rate per second, alternately a
// player's games by date and the games through the start position; open loop:
// latency counted from the scheduled start, so a server that falls behind
// is charged for the wait). Reports the import's games per second and the
// searches' latency percentiles, then one "result key=value ..." line.
//
//   db_stream --import 127.0.0.1:50051 --search 127.0.0.1:50052 --games 100000 FILE.tsn...
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "CLI/CLI.hpp"
#include "grpcpp/grpcpp.h"
#include "engine/position.h"
#include "engine/ruleset.h"
#include "records/position_string.h"
#include "scribe/v1/game_database.grpc.pb.h"

namespace scribe::bench {
namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  std::string import_target = "127.0.0.1:50051";
  std::string search_target;  // "" : the import's
  std::vector<std::string> files;
  int64_t games = 100000;
  int per_message = 100;
  double search_rate = 20;
  std::string player = "p1";  // a player of the bench corpus
  std::string source = "db_stream";
  // Searches go on this long after the import, counted apart: the same
  // searches on a quiet server, the baseline of the ratio.
  double quiet_seconds = 5;
  // Each search slower than this is printed with when it was due (0: none).
  double slow_ms = 0;
};

// The records of TSN files, each its own text (split before each "[TSN").
std::vector<std::string> ReadGames(const Options& o) {
  std::vector<std::string> games;
  for (const std::string& path : o.files) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string text = buffer.str();
    size_t at = text.find("[TSN");
    while (at != std::string::npos && static_cast<int64_t>(games.size()) < o.games) {
      size_t next = text.find("\n[TSN", at + 1);
      games.push_back(text.substr(at, next == std::string::npos ? std::string::npos : next + 1 - at));
      at = next == std::string::npos ? next : next + 1;
    }
  }
  return games;
}

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
}

// The searches beside the import, open loop: search k is due at
// first + k * period, whether or not the ones before have answered (up to
// kThreads in flight), and its latency counts from then; each is counted
// as during the import or after it (quiet).
class Searches {
 public:
  static constexpr int kThreads = 8;
  Searches(v1::GameDatabase::Stub* stub, const Options& o, std::string start_position)
      : stub_(stub), o_(o), start_position_(std::move(start_position)), first_(Clock::now()) {
    for (int t = 0; t < (o.search_rate > 0 ? kThreads : 0); ++t) threads_.emplace_back([this] { Run(); });
  }
  void ImportEnded() { importing_.store(false); }
  void Stop() {
    searching_.store(false);
    for (std::thread& t : threads_) t.join();
  }
  std::vector<double> during_ms, quiet_ms;
  // During the import, by kind: a player's games, the start position's.
  std::vector<double> during_player_ms, during_position_ms;
  int64_t failed = 0;

 private:
  void Run() {
    const auto period = std::chrono::duration<double>(1.0 / o_.search_rate);
    while (searching_.load()) {
      const int64_t k = next_.fetch_add(1);
      const auto due = first_ + std::chrono::duration_cast<Clock::duration>(period * static_cast<double>(k));
      std::this_thread::sleep_until(due);
      if (!searching_.load()) return;
      v1::ListGamesRequest request;
      // Alternately: a player's games by date, and the start position's first page.
      if (k % 2 == 0) {
        request.mutable_filter()->set_player(o_.player);
        request.set_order(v1::GAME_ORDER_DATE);
      } else {
        request.mutable_filter()->mutable_ruleset()->set_reference("finkel");
        request.mutable_filter()->set_position(start_position_);
      }
      request.set_page_size(50);
      grpc::ClientContext context;
      context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
      const auto started = Clock::now();
      v1::ListGamesResponse response;
      const grpc::Status status = stub_->ListGames(&context, request, &response);
      const double ms = std::chrono::duration<double, std::milli>(Clock::now() - due).count();
      std::lock_guard<std::mutex> lock(mu_);
      const bool importing = importing_.load();
      if (o_.slow_ms > 0 && ms > o_.slow_ms) {
        std::fprintf(stderr, "slow: %s search due at %.2f s took %.1f ms, %.1f ms of it before it was sent (%s)\n",
                     k % 2 == 0 ? "player" : "position", std::chrono::duration<double>(due - first_).count(), ms,
                     std::chrono::duration<double, std::milli>(started - due).count(),
                     importing ? "importing" : "quiet");
      }
      (importing ? during_ms : quiet_ms).push_back(ms);
      if (importing) (k % 2 == 0 ? during_player_ms : during_position_ms).push_back(ms);
      failed += status.ok() ? 0 : 1;
    }
  }
  v1::GameDatabase::Stub* stub_;
  const Options& o_;
  const std::string start_position_;
  const Clock::time_point first_;
  std::atomic<bool> importing_{true}, searching_{true};
  std::atomic<int64_t> next_{0};
  std::mutex mu_;
  std::vector<std::thread> threads_;
};

// The games as one ImportGames stream, --per-message records a message.
struct Imported {
  grpc::Status status;
  v1::ImportGamesResponse response;
  int64_t sent = 0;
  double seconds = 0;
};
Imported Import(v1::GameDatabase::Stub* stub, const std::vector<std::string>& games, const Options& o) {
  Imported out;
  const auto start = Clock::now();
  grpc::ClientContext context;
  auto stream = stub->ImportGames(&context, &out.response);
  const size_t per = static_cast<size_t>(o.per_message);
  for (size_t i = 0, k = 0; i < games.size(); i += per, ++k) {
    v1::ImportGamesRequest request;
    std::string* text = request.mutable_input()->mutable_text();
    for (size_t j = i; j < std::min(games.size(), i + per); ++j, ++out.sent) text->append(games[j]);
    request.set_source(o.source + "/" + std::to_string(k));
    if (!stream->Write(request)) break;
  }
  stream->WritesDone();
  out.status = stream->Finish();
  out.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return out;
}

int Main(int argc, char** argv) {
  CLI::App app{"db_stream: import games through GameDatabase/ImportGames while searching"};
  Options o;
  app.add_option("--import", o.import_target, "the server to import through");
  app.add_option("--search", o.search_target, "the server to search (default: the import's)");
  app.add_option("--games", o.games, "games to send (from the files, in order)");
  app.add_option("--per-message", o.per_message, "records in each stream message")->check(CLI::Range(1, 10000));
  app.add_option("--search-rate", o.search_rate, "searches per second during the import (0: none)");
  app.add_option("--player", o.player, "the player searched for (ListGames by player, date order)");
  app.add_option("--quiet-seconds", o.quiet_seconds, "searches after the import, counted apart (the baseline)");
  app.add_option("--slow-ms", o.slow_ms, "print each search slower than this, with when it was due");
  app.add_option("--source", o.source, "the sources' prefix: message k is <source>/<k>");
  app.add_option("files", o.files, "TSN files")->required();
  CLI11_PARSE(app, argc, argv);
  const std::vector<std::string> games = ReadGames(o);
  auto rules = LoadRuleset("finkel");
  if (games.empty() || !rules.ok()) {
    std::fprintf(stderr, "db_stream: no game in the files\n");
    return 2;
  }
  grpc::ChannelArguments args;
  args.SetMaxSendMessageSize(64 << 20);
  auto importer = v1::GameDatabase::NewStub(
      grpc::CreateCustomChannel(o.import_target, grpc::InsecureChannelCredentials(), args));
  auto searcher = v1::GameDatabase::NewStub(grpc::CreateCustomChannel(
      o.search_target.empty() ? o.import_target : o.search_target, grpc::InsecureChannelCredentials(), args));
  // The start position: every game passes through it (the largest match).
  Searches searches(searcher.get(), o, PositionToString(**rules, StartPosition(**rules)));
  const Imported imported = Import(importer.get(), games, o);
  searches.ImportEnded();
  std::this_thread::sleep_for(std::chrono::duration<double>(o.search_rate > 0 ? o.quiet_seconds : 0));
  searches.Stop();
  if (!imported.status.ok()) {
    std::fprintf(stderr, "db_stream: ImportGames: %d %s\n", imported.status.error_code(),
                 imported.status.error_message().c_str());
    return 1;
  }
  const v1::ImportGamesResponse& r = imported.response;
  const double rate = static_cast<double>(imported.sent) / imported.seconds;
  const std::vector<double>& during = searches.during_ms;
  const std::vector<double>& quiet = searches.quiet_ms;
  std::printf("import: %lld games sent in %.2f s: %.0f games/s; added %lld, known %lld, rejected %lld\n",
              static_cast<long long>(imported.sent), imported.seconds, rate, static_cast<long long>(r.added()),
              static_cast<long long>(r.known_sources()), static_cast<long long>(r.rejected()));
  std::printf("search during the import: %zu calls, %lld failed; p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms\n",
              during.size(), static_cast<long long>(searches.failed), Percentile(during, 0.5),
              Percentile(during, 0.9), Percentile(during, 0.99), Percentile(during, 1.0));
  for (const auto& [kind, ms] : {std::pair{"a player's games", &searches.during_player_ms},
                                 std::pair{"the start position's games", &searches.during_position_ms}}) {
    std::printf("  %s: p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms\n", kind, Percentile(*ms, 0.5),
                Percentile(*ms, 0.9), Percentile(*ms, 0.99), Percentile(*ms, 1.0));
  }
  std::printf("search, quiet (after the import): %zu calls; p50 %.1f ms, p99 %.1f ms, max %.1f ms\n", quiet.size(),
              Percentile(quiet, 0.5), Percentile(quiet, 0.99), Percentile(quiet, 1.0));
  std::printf("result games=%lld seconds=%.3f games_per_s=%.0f added=%lld searches=%zu search_failed=%lld "
              "search_p50_ms=%.2f search_p99_ms=%.2f search_max_ms=%.2f quiet_p50_ms=%.2f quiet_p99_ms=%.2f\n",
              static_cast<long long>(imported.sent), imported.seconds, rate, static_cast<long long>(r.added()),
              during.size(), static_cast<long long>(searches.failed), Percentile(during, 0.5),
              Percentile(during, 0.99), Percentile(during, 1.0), Percentile(quiet, 0.5), Percentile(quiet, 0.99));
  return 0;
}

}  // namespace
}  // namespace scribe::bench

int main(int argc, char** argv) { return scribe::bench::Main(argc, argv); }
