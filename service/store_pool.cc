#include "service/store_pool.h"

#include <utility>

#include "storage/open_store.h"

namespace scribe::service {

StorePool::Lease::~Lease() {
  if (connection_ != nullptr) pool_->GiveBack(std::move(connection_));
}

absl::StatusOr<std::unique_ptr<StorePool>> StorePool::Open(const std::string& location, size_t idle) {
  // The first connection makes or migrates the schema (on PostgreSQL under
  // a lock: replicas starting together migrate once); later ones open the
  // database as it is.
  absl::StatusOr<std::unique_ptr<games::Store>> store = storage::OpenStore(location, storage::OpenMode::kCreate);
  if (!store.ok()) return store.status();
  std::unique_ptr<StorePool> pool(new StorePool(location, (*store)->Name(), idle));
  auto connection = std::make_unique<Connection>();
  connection->rules = std::make_unique<games::RulesCache>(**store);
  connection->store = *std::move(store);
  pool->GiveBack(std::move(connection));
  return pool;
}

absl::StatusOr<StorePool::Lease> StorePool::Acquire() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!idle_.empty()) {
      std::unique_ptr<Connection> connection = std::move(idle_.back());
      idle_.pop_back();
      return Lease(this, std::move(connection));
    }
  }
  absl::StatusOr<std::unique_ptr<games::Store>> store = storage::OpenStore(location_, storage::OpenMode::kExisting);
  if (!store.ok()) return store.status();
  auto connection = std::make_unique<Connection>();
  connection->rules = std::make_unique<games::RulesCache>(**store);
  connection->store = *std::move(store);
  return Lease(this, std::move(connection));
}

void StorePool::GiveBack(std::unique_ptr<Connection> connection) {
  std::lock_guard<std::mutex> lock(mu_);
  if (idle_.size() < idle_limit_) idle_.push_back(std::move(connection));
}

}  // namespace scribe::service
