#include "games/rules_cache.h"

#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "engine/ruleset.h"
#include "games/position_index.h"

namespace scribe::games {

std::string StoredRulesText(const Rules& rules) { return RulesetToText(rules.ruleset); }

absl::StatusOr<const KnownRules*> RulesCache::Keep(int64_t id, std::shared_ptr<const Rules> rules) {
  auto known = std::make_unique<KnownRules>();
  known->id = id;
  known->keys = std::make_unique<PositionKeys>(*rules);
  known->rules = std::move(rules);
  known->apart_from = apart_from_.value_or(INT64_MAX);
  const KnownRules* out = known.get();
  by_id_[id] = std::move(known);
  return out;
}

absl::Status RulesCache::LoadApart() {
  if (apart_from_.has_value()) return absl::OkStatus();
  absl::StatusOr<std::optional<std::string>> value = store_.Setting(kApartSetting);
  if (!value.ok()) return value.status();
  int64_t from = INT64_MAX;  // unset: no run is known to keep keys apart
  if (value->has_value() && !absl::SimpleAtoi(**value, &from)) {
    return absl::DataLossError(
        absl::StrCat(store_.Name(), ": its setting ", kApartSetting, " is \"", **value, "\", not a run"));
  }
  apart_from_ = from;
  return absl::OkStatus();
}

absl::Status RulesCache::Load() {
  absl::Status apart = LoadApart();
  if (!apart.ok()) return apart;
  absl::StatusOr<std::vector<RulesetRow>> rows = store_.Rulesets();
  if (!rows.ok()) return rows.status();
  for (const RulesetRow& row : *rows) {
    if (by_id_.count(row.id) != 0) continue;
    absl::StatusOr<std::shared_ptr<const Rules>> rules = LoadRulesetText(row.reference);
    if (!rules.ok() || (*rules)->digest != row.digest) {
      return absl::DataLossError(absl::StrCat(store_.Name(), ": its ruleset ", row.digest,
                                              " does not resolve to the same rules in this build",
                                              rules.ok() ? "" : absl::StrCat(": ", rules.status().message())));
    }
    absl::StatusOr<const KnownRules*> kept = Keep(row.id, *std::move(rules));
    if (!kept.ok()) return kept.status();
  }
  return absl::OkStatus();
}

absl::StatusOr<const KnownRules*> RulesCache::ById(int64_t id) {
  if (by_id_.count(id) == 0) {
    absl::Status loaded = Load();
    if (!loaded.ok()) return loaded;
  }
  auto it = by_id_.find(id);
  if (it == by_id_.end()) return absl::NotFoundError(absl::StrCat("no ruleset ", id, " in ", store_.Name()));
  return it->second.get();
}

absl::StatusOr<const KnownRules*> RulesCache::ByDigest(const std::string& digest) {
  for (int pass = 0; pass < 2; ++pass) {
    for (const auto& [id, known] : by_id_) {
      if (known->rules->digest == digest) return known.get();
    }
    if (pass == 0) {
      absl::Status loaded = Load();
      if (!loaded.ok()) return loaded;
    }
  }
  return absl::NotFoundError(absl::StrCat(store_.Name(), " holds no game of the rules ", digest));
}

absl::StatusOr<const KnownRules*> RulesCache::Add(const std::shared_ptr<const Rules>& rules) {
  for (const auto& [id, known] : by_id_) {
    if (known->rules->digest == rules->digest) return known.get();
  }
  absl::Status apart = LoadApart();
  if (!apart.ok()) return apart;
  absl::StatusOr<int64_t> id = store_.RulesetId(rules->digest, StoredRulesText(*rules));
  if (!id.ok()) return id.status();
  return Keep(*id, rules);
}

}  // namespace scribe::games
