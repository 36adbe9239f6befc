// The rules of a database's rulesets, resolved once per process: each
// stored ruleset row keeps the rules as text (RulesetToText), so any
// ruleset (a preset, one with overrides, a user's file) resolves again
// from the database alone, and its digest is checked on the way.
#ifndef SCRIBE_GAMES_RULES_CACHE_H_
#define SCRIBE_GAMES_RULES_CACHE_H_

#include <climits>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "engine/rules.h"
#include "games/position_key.h"
#include "games/store.h"

namespace scribe::games {

struct KnownRules {
  int64_t id = 0;
  std::shared_ptr<const Rules> rules;
  std::unique_ptr<PositionKeys> keys;
  // The first run of the position index that keeps each key's postings
  // apart (games/position_index.h, kApartSetting); INT64_MAX: none.
  int64_t apart_from = INT64_MAX;
};

class RulesCache {
 public:
  explicit RulesCache(Store& store) : store_(store) {}
  // The stored ruleset's rules; NOT_FOUND when the database has no game
  // of these rules.
  absl::StatusOr<const KnownRules*> ById(int64_t id);
  absl::StatusOr<const KnownRules*> ByDigest(const std::string& digest);
  // The ruleset's row, added when new (inside a write).
  absl::StatusOr<const KnownRules*> Add(const std::shared_ptr<const Rules>& rules);
  // Forgets rows added by a write that was rolled back.
  void Forget() { by_id_.clear(); }

 private:
  absl::Status Load();
  absl::Status LoadApart();
  absl::StatusOr<const KnownRules*> Keep(int64_t id, std::shared_ptr<const Rules> rules);
  Store& store_;
  std::map<int64_t, std::unique_ptr<KnownRules>> by_id_;
  std::optional<int64_t> apart_from_;  // read once
};

// The text a ruleset row keeps for these rules.
std::string StoredRulesText(const Rules& rules);

}  // namespace scribe::games

#endif  // SCRIBE_GAMES_RULES_CACHE_H_
