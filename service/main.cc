// scribed: Scribe's gRPC server.
//
// Starts with no configuration (the built-in rulesets, port 50051 on every
// address). On SIGTERM or SIGINT it reports NOT_SERVING to health checks,
// stops taking new calls, finishes the calls in flight (up to
// --shutdown-grace-seconds, then stops their work) and exits 0.
#include <signal.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/strings/str_cat.h"
#include "grpcpp/ext/proto_server_reflection_plugin.h"
#include "grpcpp/grpcpp.h"
#include "grpcpp/security/server_credentials.h"
#include "engine/search.h"
#include "service/health.h"
#include "service/metrics.h"
#include "service/service.h"
#include "service/tables.h"

namespace scribe::service {
namespace {

// One log line: time, level, message.
void Log(const char* level, const std::string& message) {
  const std::time_t now = std::time(nullptr);
  char stamp[32];
  std::strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  std::fprintf(stderr, "%s %s scribed: %s\n", stamp, level, message.c_str());
  std::fflush(stderr);
}

bool ReadAll(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::stringstream ss;
  ss << in.rdbuf();
  *out = ss.str();
  return true;
}

void WriteMetricsFile(const std::string& path, const Metrics& metrics) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << metrics.Prometheus();
  }
  std::rename(tmp.c_str(), path.c_str());
}

int Main(int argc, char** argv) {
  CLI::App app{"scribed: Scribe's gRPC server (validate, annotate, replay, convert, referee)"};
  std::string listen = "0.0.0.0:50051";
  std::string tls_cert, tls_key, tls_client_ca, tls_client_auth;
  int max_message_mb = 16;
  ServiceOptions options;
  int threads = 0;
  int grace_seconds = 20;
  int metrics_interval = 60;
  std::string metrics_file;
  std::vector<std::string> table_paths;
  app.add_option("--listen", listen, "address:port to serve on (port 0 picks a free one)")
      ->capture_default_str();
  app.add_option("--tls-cert", tls_cert, "PEM certificate chain: serve TLS");
  app.add_option("--tls-key", tls_key, "PEM private key for --tls-cert");
  app.add_option("--tls-client-ca", tls_client_ca, "PEM CA bundle: verify client certificates against it");
  app.add_option("--tls-client-auth", tls_client_auth,
                 "with --tls-client-ca: require (default; a client without a certificate is refused) or "
                 "optional (a client may send none; one it sends must verify)")
      ->check(CLI::IsMember({"require", "optional"}));
  app.add_option("--max-message-mb", max_message_mb, "largest request or response, in MiB")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  app.add_option("--max-record-bytes", options.max_record_bytes, "longest record text accepted, in bytes")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 30))
      ->capture_default_str();
  app.add_option("--max-records", options.max_records, "most records in one call's input")
      ->check(CLI::Range(int64_t{1}, int64_t{100000000}))
      ->capture_default_str();
  app.add_option("--max-record-actions", options.max_record_actions,
                 "most actions in one call's input, summed over its records (text or structured)")
      ->check(CLI::Range(int64_t{1}, int64_t{100000000}))
      ->capture_default_str();
  app.add_option("--max-concurrent-calls", options.max_concurrent_calls,
                 "calls doing work at once; more are refused with RESOURCE_EXHAUSTED")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--table", table_paths,
                 "a solved table (scribe solve): exact winning chances for its ruleset (repeat for more rulesets)")
      ->allow_extra_args(false);
  app.add_option("--max-search-depth", options.max_search_depth,
                 "deepest search a request may ask for (SuggestMoves, AnnotateRecord's winning chances), in throws")
      ->check(CLI::Range(0, kMaxSearchDepth))
      ->capture_default_str();
  app.add_option("--max-search-actions", options.max_search_actions,
                 "most actions one AnnotateRecord call annotates with a search's winning chances")
      ->check(CLI::Range(0, 100000000))
      ->capture_default_str();
  app.add_option("--threads", threads, "server threads (default: enough for --max-concurrent-calls)");
  app.add_option("--shutdown-grace-seconds", grace_seconds, "on SIGTERM, how long calls in flight may finish")
      ->check(CLI::Range(0, 3600))
      ->capture_default_str();
  app.add_option("--metrics-file", metrics_file, "write counters here in Prometheus text format");
  app.add_option("--metrics-interval-seconds", metrics_interval, "how often to log and write the counters (0: never)")
      ->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }

  // Signals are taken by one thread with sigwait: block them everywhere
  // before gRPC starts its threads.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  // TLS settings that would be ignored are a mistake, not a plaintext
  // server.
  if (tls_cert.empty() != tls_key.empty()) {
    Log("ERROR", "--tls-cert and --tls-key go together");
    return 2;
  }
  if (tls_cert.empty() && (!tls_client_ca.empty() || !tls_client_auth.empty())) {
    Log("ERROR", "--tls-client-ca and --tls-client-auth need --tls-cert and --tls-key");
    return 2;
  }
  if (!tls_client_auth.empty() && tls_client_ca.empty()) {
    Log("ERROR", "--tls-client-auth needs --tls-client-ca (the CAs client certificates are verified against)");
    return 2;
  }
  const bool client_cert_required = !tls_client_ca.empty() && tls_client_auth != "optional";
  std::shared_ptr<grpc::ServerCredentials> credentials = grpc::InsecureServerCredentials();
  if (!tls_cert.empty()) {
    grpc::SslServerCredentialsOptions ssl;
    grpc::SslServerCredentialsOptions::PemKeyCertPair pair;
    if (!ReadAll(tls_cert, &pair.cert_chain) || !ReadAll(tls_key, &pair.private_key)) {
      Log("ERROR", "cannot read --tls-cert or --tls-key");
      return 2;
    }
    ssl.pem_key_cert_pairs.push_back(pair);
    if (!tls_client_ca.empty()) {
      if (!ReadAll(tls_client_ca, &ssl.pem_root_certs)) {
        Log("ERROR", "cannot read --tls-client-ca");
        return 2;
      }
      ssl.client_certificate_request = client_cert_required
                                           ? GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY
                                           : GRPC_SSL_REQUEST_CLIENT_CERTIFICATE_AND_VERIFY;
    }
    credentials = grpc::SslServerCredentials(ssl);
  }

  // Solved tables: memory-mapped once, shared by every call. A table that
  // cannot be used stops the start rather than serving estimates silently.
  auto tables = OpenTables(table_paths);
  if (!tables.ok()) {
    Log("ERROR", absl::StrCat("--table ", tables.status().message()));
    return 2;
  }
  for (const LoadedTable& table : *tables) {
    Log("INFO", absl::StrCat("table ", table.path, ": ", table.summary));
    options.tables.push_back(table.evaluator);
  }

  options.max_message_bytes = int64_t{max_message_mb} << 20;
  Metrics metrics;
  ScribeServiceImpl service(options, &metrics);
  HealthService health;
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort(listen, credentials, &port);
  builder.RegisterService(&service);
  builder.RegisterService(&health);
  builder.SetMaxReceiveMessageSize(max_message_mb << 20);
  builder.SetMaxSendMessageSize(max_message_mb << 20);
  // Threads beyond the admitted calls keep health checks and the quick
  // RESOURCE_EXHAUSTED answers flowing under overload.
  grpc::ResourceQuota quota("scribed");
  quota.SetMaxThreads(threads > 0 ? threads : options.max_concurrent_calls + 16);
  builder.SetResourceQuota(quota);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (server == nullptr || port == 0) {
    Log("ERROR", absl::StrCat("cannot listen on ", listen));
    return 1;
  }
  health.SetServing(true);
  // The port on stdout, alone on a line, for scripts that start the server
  // on port 0.
  std::printf("listening on port %d\n", port);
  std::fflush(stdout);
  Log("INFO", absl::StrCat("serving on ", listen, " (port ", port, ")", tls_cert.empty() ? "" : " with TLS",
                           tls_client_ca.empty()   ? ""
                           : client_cert_required ? ", client certificates required"
                                                  : ", client certificates verified when sent",
                           "; exact values for ", options.tables.size(),
                           options.tables.size() == 1 ? " ruleset" : " rulesets", ", searches up to ",
                           options.max_search_depth, " throws deep"));

  std::atomic<bool> stopping{false};
  std::thread reporter([&] {
    if (metrics_interval <= 0) return;
    auto next = std::chrono::steady_clock::now() + std::chrono::seconds(metrics_interval);
    while (!stopping.load()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      if (std::chrono::steady_clock::now() < next) continue;
      next += std::chrono::seconds(metrics_interval);
      Log("INFO", absl::StrCat("metrics: ", metrics.Summary()));
      if (!metrics_file.empty()) WriteMetricsFile(metrics_file, metrics);
    }
  });

  int signal = 0;
  sigwait(&signals, &signal);
  Log("INFO", absl::StrCat("signal ", signal, ": draining (", service.in_flight(), " calls in flight)"));
  health.Shutdown();
  // Calls still in flight when the grace period ends are stopped: their
  // work polls the call (engine/stop.h) and ends within milliseconds, so
  // the process exits by the end of the grace period.
  const auto deadline = std::chrono::system_clock::now() + std::chrono::seconds(grace_seconds);
  std::mutex drain_mu;
  std::condition_variable drain_cv;
  bool drained = false;
  std::thread stopper([&] {
    std::unique_lock<std::mutex> lock(drain_mu);
    if (!drain_cv.wait_until(lock, deadline, [&] { return drained; })) {
      Log("INFO", absl::StrCat("grace period over: stopping ", service.in_flight(), " calls in flight"));
      service.StopCalls();
    }
  });
  // gRPC cancels what is left at its own deadline, a moment after the
  // stopper's: the calls are stopped, and counted in the log, by the
  // stopper, not by whichever of the two wakes first (gRPC's is the
  // backstop).
  server->Shutdown(deadline + std::chrono::milliseconds(200));
  server->Wait();
  {
    std::lock_guard<std::mutex> lock(drain_mu);
    drained = true;
  }
  drain_cv.notify_all();
  stopper.join();
  stopping.store(true);
  reporter.join();
  if (!metrics_file.empty()) WriteMetricsFile(metrics_file, metrics);
  Log("INFO", absl::StrCat("stopped; metrics: ", metrics.Summary()));
  return 0;
}

}  // namespace
}  // namespace scribe::service

int main(int argc, char** argv) { return scribe::service::Main(argc, argv); }
