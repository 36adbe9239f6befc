// scribed: Scribe's gRPC server.
//
// Starts with no configuration (the built-in rulesets, port 50051 on every
// address). On SIGTERM or SIGINT it reports NOT_SERVING to health checks,
// stops taking new calls, finishes the calls in flight (up to
// --shutdown-grace-seconds, then stops their work) and exits 0.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
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
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "grpcpp/ext/proto_server_reflection_plugin.h"
#include "grpcpp/grpcpp.h"
#include "grpcpp/security/server_credentials.h"
#include "service/database_service.h"
#include "service/flags.h"
#include "service/health.h"
#include "service/metrics.h"
#include "service/service.h"
#include "service/stop_signals.h"
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

bool ClientCertificateRequired(const Flags& flags) {
  return !flags.tls_client_ca.empty() && flags.tls_client_auth != "optional";
}

// The server's credentials: TLS with --tls-cert and --tls-key (and client
// certificates verified with --tls-client-ca), else none. TLS settings that
// would be ignored are a mistake, not a plaintext server: the error says
// which.
absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> Credentials(const Flags& flags) {
  if (flags.tls_cert.empty() != flags.tls_key.empty()) {
    return absl::InvalidArgumentError("--tls-cert and --tls-key go together");
  }
  if (flags.tls_cert.empty() && (!flags.tls_client_ca.empty() || !flags.tls_client_auth.empty())) {
    return absl::InvalidArgumentError("--tls-client-ca and --tls-client-auth need --tls-cert and --tls-key");
  }
  if (!flags.tls_client_auth.empty() && flags.tls_client_ca.empty()) {
    return absl::InvalidArgumentError(
        "--tls-client-auth needs --tls-client-ca (the CAs client certificates are verified against)");
  }
  if (flags.tls_cert.empty()) return grpc::InsecureServerCredentials();
  grpc::SslServerCredentialsOptions ssl;
  grpc::SslServerCredentialsOptions::PemKeyCertPair pair;
  if (!ReadAll(flags.tls_cert, &pair.cert_chain) || !ReadAll(flags.tls_key, &pair.private_key)) {
    return absl::InvalidArgumentError("cannot read --tls-cert or --tls-key");
  }
  ssl.pem_key_cert_pairs.push_back(pair);
  if (!flags.tls_client_ca.empty()) {
    if (!ReadAll(flags.tls_client_ca, &ssl.pem_root_certs)) {
      return absl::InvalidArgumentError("cannot read --tls-client-ca");
    }
    ssl.client_certificate_request = ClientCertificateRequired(flags)
                                         ? GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY
                                         : GRPC_SSL_REQUEST_CLIENT_CERTIFICATE_AND_VERIFY;
  }
  return grpc::SslServerCredentials(ssl);
}

// Solved tables: memory-mapped once, shared by every call. A table that
// cannot be used stops the start rather than serving estimates silently.
bool LoadTables(const std::vector<std::string>& paths, ServiceOptions* options) {
  auto tables = OpenTables(paths);
  if (!tables.ok()) {
    Log("ERROR", absl::StrCat("--table ", tables.status().message()));
    return false;
  }
  for (const LoadedTable& table : *tables) {
    Log("INFO", absl::StrCat("table ", table.path, ": ", table.summary));
    options->tables.push_back(table.evaluator);
  }
  return true;
}

// The game database with --db (none without): its connections opened,
// its schema made or migrated.
absl::StatusOr<std::unique_ptr<GameDatabaseImpl>> OpenDatabase(Flags& flags, ScribeServiceImpl& service) {
  absl::Status checked = CheckDatabaseFlags(&flags);
  if (!checked.ok()) return checked;
  if (flags.db.empty()) return std::unique_ptr<GameDatabaseImpl>();
  const WritePolicy& writers = flags.db_options.writers;
  absl::StatusOr<std::unique_ptr<StorePool>> pool =
      StorePool::Open(flags.db, std::min(flags.options.max_concurrent_calls, 16));
  if (!pool.ok()) return pool.status();
  Log("INFO", absl::StrCat("game database: ", (*pool)->name(), "; writes ",
                           writers.open            ? "open to every client"
                           : writers.writers.empty() ? "off"
                                                     : absl::StrCat("by ", writers.writers.size(), " listed identities")));
  return std::make_unique<GameDatabaseImpl>(*std::move(pool), flags.db_options, flags.options, &service.gate(),
                                            service.tables());
}

// The server with its services, listening; *port is the port it got (0
// when it could not listen).
std::unique_ptr<grpc::Server> StartServer(const Flags& flags, std::shared_ptr<grpc::ServerCredentials> credentials,
                                          ScribeServiceImpl* service, GameDatabaseImpl* database,
                                          HealthService* health, int* port) {
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  builder.AddListeningPort(flags.listen, credentials, port);
  // A port another server holds is an error, not shared (gRPC's default
  // SO_REUSEPORT let a second scribed start on it and take half its calls).
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  builder.RegisterService(service);
  if (database != nullptr) builder.RegisterService(database);
  builder.RegisterService(health);
  health->AddQueue(builder);
  builder.SetMaxReceiveMessageSize(flags.max_message_mb << 20);
  builder.SetMaxSendMessageSize(flags.max_message_mb << 20);
  // Threads beyond the admitted calls keep the quick RESOURCE_EXHAUSTED
  // answers flowing under overload (health checks have a thread of their
  // own, service/health.h).
  grpc::ResourceQuota quota("scribed");
  quota.SetMaxThreads(flags.threads > 0 ? flags.threads : flags.options.max_concurrent_calls + 16);
  builder.SetResourceQuota(quota);
  return builder.BuildAndStart();
}

// The port on stdout, alone on a line, for scripts that start the server
// on port 0; what is served, in the log.
void AnnounceServing(const Flags& flags, const ServiceOptions& options, int port) {
  std::printf("listening on port %d\n", port);
  std::fflush(stdout);
  Log("INFO", absl::StrCat("serving on ", flags.listen, " (port ", port, ")", flags.tls_cert.empty() ? "" : " with TLS",
                           flags.tls_client_ca.empty()          ? ""
                           : ClientCertificateRequired(flags) ? ", client certificates required"
                                                              : ", client certificates verified when sent",
                           "; exact values for ", options.tables.size(),
                           options.tables.size() == 1 ? " ruleset" : " rulesets", ", searches up to ",
                           options.max_search_depth, " throws deep"));
}

// Every interval (none when it is 0 or less), the counters to the log and
// to the metrics file, until Stop.
class MetricsReporter {
 public:
  MetricsReporter(int interval_seconds, const std::string& file, const Metrics& metrics)
      : thread_([this, interval_seconds, &file, &metrics] {
          if (interval_seconds <= 0) return;
          auto next = std::chrono::steady_clock::now() + std::chrono::seconds(interval_seconds);
          while (!stopping_.load()) {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            if (std::chrono::steady_clock::now() < next) continue;
            next += std::chrono::seconds(interval_seconds);
            Log("INFO", absl::StrCat("metrics: ", metrics.Summary()));
            if (!file.empty()) WriteMetricsFile(file, metrics);
          }
        }) {}
  void Stop() {
    stopping_.store(true);
    thread_.join();
  }

 private:
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

// After the signal: NOT_SERVING to health checks, no new calls, the calls
// in flight finished within the grace period and stopped after it.
void Drain(int signal, int grace_seconds, grpc::Server* server, ScribeServiceImpl* service, HealthService* health) {
  Log("INFO", absl::StrCat("signal ", signal, ": draining (", service->in_flight(), " calls in flight)"));
  health->Shutdown();
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
      Log("INFO", absl::StrCat("grace period over: stopping ", service->in_flight(), " calls in flight"));
      service->StopCalls();
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
}

int Main(int argc, char** argv) {
  CLI::App app{"scribed: Scribe's gRPC server (validate, annotate, replay, convert, referee; a game database with --db)"};
  Flags flags;
  AddFlags(&app, &flags);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  // Before gRPC starts a thread. A signal while starting (a replica waiting
  // for another's migration) ends the process at once: it serves nothing.
  StopSignals stop_signals([](int signal) {
    Log("INFO", absl::StrCat("signal ", signal, " before serving: stopped"));
    std::_Exit(0);
  });
  auto credentials = Credentials(flags);
  if (!credentials.ok()) {
    Log("ERROR", std::string(credentials.status().message()));
    return 2;
  }
  ServiceOptions& options = flags.options;
  if (!LoadTables(flags.table_paths, &options)) return 2;
  options.max_message_bytes = int64_t{flags.max_message_mb} << 20;

  Metrics metrics;
  ScribeServiceImpl service(options, &metrics);
  absl::StatusOr<std::unique_ptr<GameDatabaseImpl>> database = OpenDatabase(flags, service);
  if (!database.ok()) {
    Log("ERROR", absl::StrCat("--db: ", database.status().message()));
    return 2;
  }
  HealthService health;
  int port = 0;
  std::unique_ptr<grpc::Server> server =
      StartServer(flags, *credentials, &service, database->get(), &health, &port);
  if (server == nullptr || port == 0) {
    Log("ERROR", absl::StrCat("cannot listen on ", flags.listen));
    if (server != nullptr) server->Shutdown();
    health.StopChecks();
    return 1;
  }
  health.StartChecks();
  health.SetServing(true);
  stop_signals.Serving();
  AnnounceServing(flags, options, port);
  MetricsReporter reporter(flags.metrics_interval, flags.metrics_file, metrics);

  const int signal = stop_signals.Wait();
  Drain(signal, flags.grace_seconds, server.get(), &service, &health);
  health.StopChecks();
  reporter.Stop();
  if (*database != nullptr) (*database)->Stop();  // the players' last recount
  if (!flags.metrics_file.empty()) WriteMetricsFile(flags.metrics_file, metrics);
  Log("INFO", absl::StrCat("stopped; metrics: ", metrics.Summary()));
  return 0;
}

}  // namespace
}  // namespace scribe::service

int main(int argc, char** argv) { return scribe::service::Main(argc, argv); }
