// The game database as the service's calls use it: connections (a Store
// and its RulesCache) kept between calls, one call at a time on each.
// A SQLite file is a connection per call's thread over one file; a
// PostgreSQL server, one session per connection, so replicas share it.
#ifndef SCRIBE_SERVICE_STORE_POOL_H_
#define SCRIBE_SERVICE_STORE_POOL_H_

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "games/rules_cache.h"
#include "games/store.h"

namespace scribe::service {

class StorePool {
 public:
  // One connection: the store, and the rules of its rulesets (resolved
  // once per connection, their position keys made once).
  struct Connection {
    std::unique_ptr<games::Store> store;
    std::unique_ptr<games::RulesCache> rules;
  };

  // A connection lent to one call; back to the pool when the lease ends,
  // unless the call found it broken (Discard).
  class Lease {
   public:
    Lease(StorePool* pool, std::unique_ptr<Connection> connection)
        : pool_(pool), connection_(std::move(connection)) {}
    Lease(Lease&&) = default;
    Lease& operator=(Lease&&) = default;
    ~Lease();
    games::Store& store() { return *connection_->store; }
    games::RulesCache& rules() { return *connection_->rules; }
    // The connection is not given back (after an error that may have
    // left it unusable: a lost server, a failed transaction).
    void Discard() { connection_.reset(); }

   private:
    StorePool* pool_;
    std::unique_ptr<Connection> connection_;
  };

  // Opens the database at `location` (a SQLite path or a postgresql://
  // URL), making or migrating its schema (games/store.h errors); a server
  // keeps up to `idle` connections between calls.
  static absl::StatusOr<std::unique_ptr<StorePool>> Open(const std::string& location, size_t idle);

  // A connection for one call: an idle one, else a new one (UNAVAILABLE
  // when the database cannot be reached).
  absl::StatusOr<Lease> Acquire();
  // "SQLite database games.db", "PostgreSQL database scribe at ...".
  const std::string& name() const { return name_; }

 private:
  StorePool(std::string location, std::string name, size_t idle)
      : location_(std::move(location)), name_(std::move(name)), idle_limit_(idle) {}
  void GiveBack(std::unique_ptr<Connection> connection);
  const std::string location_, name_;
  const size_t idle_limit_;
  std::mutex mu_;
  std::vector<std::unique_ptr<Connection>> idle_;
};

}  // namespace scribe::service

#endif  // SCRIBE_SERVICE_STORE_POOL_H_
