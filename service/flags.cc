#include "service/flags.h"

#include <cstdint>

#include "CLI/CLI.hpp"
#include "service/writers.h"
#include "engine/search.h"

namespace scribe::service {

void AddFlags(CLI::App* app, Flags* flags) {
  app->add_option("--listen", flags->listen, "address:port to serve on (port 0 picks a free one)")
      ->capture_default_str();
  app->add_option("--tls-cert", flags->tls_cert, "PEM certificate chain: serve TLS");
  app->add_option("--tls-key", flags->tls_key, "PEM private key for --tls-cert");
  app->add_option("--tls-client-ca", flags->tls_client_ca, "PEM CA bundle: verify client certificates against it");
  app->add_option("--tls-client-auth", flags->tls_client_auth,
                  "with --tls-client-ca: require (default; a client without a certificate is refused) or "
                  "optional (a client may send none; one it sends must verify)")
      ->check(CLI::IsMember({"require", "optional"}));
  app->add_option("--max-message-mb", flags->max_message_mb, "largest request or response, in MiB")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  app->add_option("--max-record-bytes", flags->options.max_record_bytes, "longest record text accepted, in bytes")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 30))
      ->capture_default_str();
  app->add_option("--max-records", flags->options.max_records, "most records in one call's input")
      ->check(CLI::Range(int64_t{1}, int64_t{100000000}))
      ->capture_default_str();
  app->add_option("--max-record-actions", flags->options.max_record_actions,
                  "most actions in one call's input, summed over its records (text or structured)")
      ->check(CLI::Range(int64_t{1}, int64_t{100000000}))
      ->capture_default_str();
  app->add_option("--max-concurrent-calls", flags->options.max_concurrent_calls,
                  "calls doing work at once; more are refused with RESOURCE_EXHAUSTED")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app->add_option("--table", flags->table_paths,
                  "a solved table (scribe solve): exact winning chances for its ruleset (repeat for more rulesets)")
      ->allow_extra_args(false);
  app->add_option("--max-search-depth", flags->options.max_search_depth,
                  "deepest search a request may ask for (SuggestMoves, AnnotateRecord's winning chances), in throws")
      ->check(CLI::Range(0, kMaxSearchDepth))
      ->capture_default_str();
  app->add_option("--max-search-actions", flags->options.max_search_actions,
                  "most actions one AnnotateRecord call annotates with a search's winning chances")
      ->check(CLI::Range(0, 100000000))
      ->capture_default_str();
  app->add_option("--threads", flags->threads, "server threads (default: enough for --max-concurrent-calls)");
  app->add_option("--shutdown-grace-seconds", flags->grace_seconds,
                  "on SIGTERM, how long calls in flight may finish")
      ->check(CLI::Range(0, 3600))
      ->capture_default_str();
  app->add_option("--db", flags->db,
                  "serve this game database (a SQLite file, made when missing, or a postgresql:// URL shared by "
                  "replicas): the GameDatabase service");
  app->add_option("--db-writers", flags->db_writers,
                  "a file of the client identities that may import (one a line: a client certificate's CN, "
                  "subject or SAN); needs --tls-client-ca");
  app->add_flag("--db-open-writes", flags->db_open_writes,
                "let every client import (without client certificates; a network the operator trusts)");
  app->add_option("--db-players-seconds", flags->db_options.players_seconds,
                  "recount players' pages at most this often after imports (0: at the end of each import)")
      ->check(CLI::Range(0, 86400))
      ->capture_default_str();
  app->add_option("--db-import-nice", flags->db_options.import_nice,
                  "CPU priority of imports below the other calls (a nice value; 0: the same)")
      ->check(CLI::Range(0, 19))
      ->capture_default_str();
  app->add_option("--db-stream-idle-seconds", flags->db_options.stream_idle_seconds,
                  "end an import stream that sends nothing this long while the server waits for it (0: never)")
      ->check(CLI::Range(0, 86400))
      ->capture_default_str();
  app->add_option("--db-batch", flags->db_options.batch_games, "games an import stream commits at once")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app->add_option("--metrics-file", flags->metrics_file, "write counters here in Prometheus text format");
  app->add_option("--metrics-interval-seconds", flags->metrics_interval,
                  "how often to log and write the counters (0: never)")
      ->capture_default_str();
}

absl::Status CheckDatabaseFlags(Flags* flags) {
  if (flags->db.empty()) {
    if (!flags->db_writers.empty() || flags->db_open_writes) {
      return absl::InvalidArgumentError("--db-writers and --db-open-writes need --db");
    }
    return absl::OkStatus();
  }
  WritePolicy& policy = flags->db_options.writers;
  policy.open = flags->db_open_writes;
  if (flags->db_writers.empty()) return absl::OkStatus();
  if (flags->db_open_writes) return absl::InvalidArgumentError("--db-writers or --db-open-writes: not both");
  if (flags->tls_client_ca.empty()) {
    return absl::InvalidArgumentError("--db-writers needs --tls-client-ca: writers are known by their certificates");
  }
  absl::StatusOr<std::set<std::string>> writers = ReadWriters(flags->db_writers);
  if (!writers.ok()) return writers.status();
  policy.writers = *std::move(writers);
  return absl::OkStatus();
}

}  // namespace scribe::service
