// scribed's command line: the flags and what they set.
#ifndef SCRIBE_SERVICE_FLAGS_H_
#define SCRIBE_SERVICE_FLAGS_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "service/database_service.h"
#include "service/options.h"

namespace CLI {
class App;
}  // namespace CLI

namespace scribe::service {

struct Flags {
  std::string listen = "0.0.0.0:50051";
  std::string tls_cert, tls_key, tls_client_ca, tls_client_auth;
  int max_message_mb = 16;
  ServiceOptions options;
  int threads = 0;
  int grace_seconds = 20;
  int metrics_interval = 60;
  std::string metrics_file;
  std::vector<std::string> table_paths;
  // The game database: its location ("" none), who may write.
  std::string db, db_writers;
  bool db_open_writes = false;
  DatabaseOptions db_options;
};

// Adds scribed's options to `app`, each setting its member of *flags
// (whose values are the defaults shown in --help).
void AddFlags(CLI::App* app, Flags* flags);

// The game database's flags checked together (--db-writers needs --db and
// --tls-client-ca, and not --db-open-writes), the writers' list read into
// flags->db_options.
absl::Status CheckDatabaseFlags(Flags* flags);

}  // namespace scribe::service

#endif  // SCRIBE_SERVICE_FLAGS_H_
