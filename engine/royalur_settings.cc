#include "engine/royalur_settings.h"

#include <algorithm>
#include <map>
#include <mutex>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "engine/board.h"
#include "engine/ruleset.h"
#include "engine/status_macros.h"

namespace scribe {
namespace {

// RoyalUr's path pairs, the board each needs and the Scribe preset that has
// the same path (with finkel's rules around it).
struct RoyalUrPath {
  const char* name;
  const char* board_shape;
  const char* preset;
};
constexpr RoyalUrPath kPaths[] = {
    {"bell", "standard", "finkel"},  {"masters", "standard", "masters"}, {"murray", "standard", "murray"},
    {"skiriuk", "standard", "skiriuk"}, {"aseb", "aseb", "sawah"},
};

struct RoyalUrDice {
  const char* name;
  int count;
  std::vector<int> roll_for_marks;
};
const std::vector<RoyalUrDice>& Dice() {
  static const auto* kDice = new std::vector<RoyalUrDice>{
      {"four_binary", 4, {0, 1, 2, 3, 4}},
      {"three_binary_0eq4", 3, {4, 1, 2, 3}},
  };
  return *kDice;
}

// RoyalUr's presets and the Scribe presets with the same rules.
struct RoyalUrPreset {
  const char* royalur_name;
  const char* scribe_preset;
};
constexpr RoyalUrPreset kPresets[] = {
    {"finkel", "finkel"}, {"masters", "masters"}, {"blitz", "blitz"}, {"aseb", "sawah-tablet"}};

v1::Board BoardFor(absl::string_view shape) {
  return shape == "aseb" ? v1::BOARD_EGYPTIAN : v1::BOARD_UR;
}

std::string Names(auto begin, auto end, auto name) {
  std::vector<std::string> names;
  for (auto it = begin; it != end; ++it) names.push_back(absl::StrCat("\"", name(*it), "\""));
  return absl::StrJoin(names, ", ");
}

std::string IndexList(const google::protobuf::RepeatedField<int32_t>& list) {
  return absl::StrCat("[", absl::StrJoin(list, ","), "]");
}

// The fields in which two rulesets differ, by name.
std::vector<std::string> DifferingFields(const v1::Ruleset& a, const v1::Ruleset& b) {
  const v1::Ruleset ca = CanonicalRuleset(a), cb = CanonicalRuleset(b);
  std::vector<std::string> out;
  const auto* desc = v1::Ruleset::descriptor();
  for (int i = 0; i < desc->field_count(); ++i) {
    // Each ruleset with every other field cleared.
    v1::Ruleset fa = ca, fb = cb;
    for (int j = 0; j < desc->field_count(); ++j) {
      if (j == i) continue;
      fa.GetReflection()->ClearField(&fa, desc->field(j));
      fb.GetReflection()->ClearField(&fb, desc->field(j));
    }
    if (fa.SerializeAsString() != fb.SerializeAsString()) out.push_back(desc->field(i)->name());
  }
  return out;
}

}  // namespace

absl::StatusOr<v1::Ruleset> RulesetFromRoyalUrSettings(const RoyalUrSettings& s) {
  if (s.board_shape != "standard" && s.board_shape != "aseb") {
    return absl::InvalidArgumentError(absl::StrCat("board_shape \"", absl::CHexEscape(s.board_shape),
                                                   "\" is not one Scribe knows (\"standard\", \"aseb\")"));
  }
  const RoyalUrPath* path = nullptr;
  for (const RoyalUrPath& p : kPaths) {
    if (s.paths == p.name) path = &p;
  }
  if (path == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("paths \"", absl::CHexEscape(s.paths), "\" is not one Scribe knows (",
                     Names(std::begin(kPaths), std::end(kPaths), [](const RoyalUrPath& p) { return p.name; }),
                     ")"));
  }
  if (s.board_shape != path->board_shape) {
    return absl::InvalidArgumentError(absl::StrCat("paths \"", s.paths, "\" run on board_shape \"",
                                                   path->board_shape, "\", not \"", s.board_shape, "\""));
  }
  const RoyalUrDice* dice = nullptr;
  for (const RoyalUrDice& d : Dice()) {
    if (s.dice == d.name) dice = &d;
  }
  if (dice == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("dice \"", absl::CHexEscape(s.dice), "\" is not one Scribe knows (",
                     Names(Dice().begin(), Dice().end(), [](const RoyalUrDice& d) { return d.name; }), ")"));
  }
  if (s.start_pieces < 1 || s.start_pieces > kMaxPieces) {
    return absl::InvalidArgumentError(
        absl::StrCat("start_pieces ", s.start_pieces, " is out of range: Scribe plays 1 to ", kMaxPieces));
  }
  SCRIBE_ASSIGN_OR_RETURN(v1::Ruleset r, ResolveReference(path->preset));
  r.clear_id();
  r.clear_title();
  r.clear_source();
  r.set_board(BoardFor(s.board_shape));
  r.set_pieces(s.start_pieces);
  r.mutable_dice()->set_count(dice->count);
  r.mutable_dice()->clear_roll_for_marks();
  for (int v : dice->roll_for_marks) r.mutable_dice()->add_roll_for_marks(v);
  r.clear_extra_roll_squares();
  r.clear_safe_squares();
  for (int i = 1; i <= r.path_size(); ++i) {
    const auto tile = ParseTileName(r.path(i - 1));
    if (!tile || !IsMarkedTile(r.board(), *tile)) continue;
    if (s.rosettes_grant_rolls) r.add_extra_roll_squares(i);
    if (s.safe_rosettes) r.add_safe_squares(i);
  }
  r.set_capture_extra_roll(s.captures_grant_rolls);
  return r;
}

namespace {

// Results by key, for the mappings every game of a file asks again.
template <typename T>
class Cache {
 public:
  template <typename Fn>
  T Get(const std::string& key, Fn compute) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (auto it = entries_.find(key); it != entries_.end()) return it->second;
    }
    T value = compute();
    std::lock_guard<std::mutex> lock(mu_);
    if (entries_.size() < 1024) entries_.emplace(key, value);
    return value;
  }

 private:
  std::mutex mu_;
  std::map<std::string, T> entries_;
};

absl::StatusOr<std::string> ComputeRulesetReference(const RoyalUrSettings& s) {
  SCRIBE_ASSIGN_OR_RETURN(const v1::Ruleset wanted, RulesetFromRoyalUrSettings(s));
  const std::string digest = RulesetDigest(wanted);
  for (const PresetInfo& p : Presets()) {
    auto rules = LoadRuleset(p.id);
    if (rules.ok() && (*rules)->digest == digest) return p.id;
  }
  const char* base_id = nullptr;
  for (const RoyalUrPath& p : kPaths) {
    if (s.paths == p.name) base_id = p.preset;
  }
  SCRIBE_ASSIGN_OR_RETURN(const std::shared_ptr<const Rules> base, LoadRuleset(base_id));
  const v1::Ruleset& b = base->ruleset;
  const v1::Ruleset& w = wanted;
  std::vector<std::string> overrides;
  if (w.pieces() != b.pieces()) overrides.push_back(absl::StrCat("pieces=", w.pieces()));
  if (w.dice().count() != b.dice().count()) overrides.push_back(absl::StrCat("dice.count=", w.dice().count()));
  if (w.dice().SerializeAsString() != b.dice().SerializeAsString()) {
    overrides.push_back(absl::StrCat("dice.roll_for_marks=", IndexList(w.dice().roll_for_marks())));
  }
  if (IndexList(w.extra_roll_squares()) != IndexList(b.extra_roll_squares())) {
    overrides.push_back(absl::StrCat("extra_roll_squares=", IndexList(w.extra_roll_squares())));
  }
  if (IndexList(w.safe_squares()) != IndexList(b.safe_squares())) {
    overrides.push_back(absl::StrCat("safe_squares=", IndexList(w.safe_squares())));
  }
  if (w.capture_extra_roll() != b.capture_extra_roll()) {
    overrides.push_back(absl::StrCat("capture_extra_roll=", w.capture_extra_roll() ? "true" : "false"));
  }
  const std::string reference = absl::StrCat(base_id, "(", absl::StrJoin(overrides, ", "), ")");
  auto check = LoadRuleset(reference);
  if (!check.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("the settings give the ruleset \"", reference,
                                                   "\", which Scribe cannot play: ",
                                                   absl::StrReplaceAll(check.status().message(), {{"\n", "; "}})));
  }
  if ((*check)->digest != digest) {
    return absl::InternalError(absl::StrCat("\"", reference, "\" resolves to digest ", (*check)->digest,
                                            ", not the settings' ", digest));
  }
  return reference;
}

absl::StatusOr<RoyalUrSettings> ComputeSettings(const Rules& rules) {
  const v1::Ruleset& r = rules.ruleset;
  const std::string name = r.id().empty() ? RulesetName(rules) : absl::StrCat("ruleset \"", r.id(), "\"");
  RoyalUrSettings s;
  const RoyalUrPath* path = nullptr;
  for (const RoyalUrPath& p : kPaths) {
    auto preset = LoadRuleset(p.preset);
    if (!preset.ok()) continue;
    const v1::Ruleset& pr = (*preset)->ruleset;
    if (pr.board() == r.board() && pr.path().size() == r.path().size() &&
        std::equal(pr.path().begin(), pr.path().end(), r.path().begin()) &&
        pr.dark_path().size() == r.dark_path().size() &&
        std::equal(pr.dark_path().begin(), pr.dark_path().end(), r.dark_path().begin())) {
      path = &p;
      break;
    }
  }
  if (path == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "RoyalUr cannot express ", name, ": its board and paths (", BoardName(r.board()), " board, light's path ",
        absl::StrJoin(r.path(), " "), ") are none of RoyalUr's (",
        Names(std::begin(kPaths), std::end(kPaths), [](const RoyalUrPath& p) { return p.name; }), ")"));
  }
  s.board_shape = path->board_shape;
  s.paths = path->name;
  for (const RoyalUrDice& d : Dice()) {
    if (r.dice().count() == d.count &&
        std::equal(d.roll_for_marks.begin(), d.roll_for_marks.end(), r.dice().roll_for_marks().begin(),
                   r.dice().roll_for_marks().end())) {
      s.dice = d.name;
    }
  }
  if (s.dice.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "RoyalUr cannot express ", name, ": its dice (", r.dice().count(), " dice, roll_for_marks ",
        IndexList(r.dice().roll_for_marks()),
        ") are neither of RoyalUr's (four_binary: 4 dice [0,1,2,3,4]; three_binary_0eq4: 3 dice [4,1,2,3])"));
  }
  s.start_pieces = r.pieces();
  s.safe_rosettes = r.safe_squares_size() > 0;
  s.rosettes_grant_rolls = r.extra_roll_squares_size() > 0;
  s.captures_grant_rolls = r.capture_extra_roll();
  auto candidate = RulesetFromRoyalUrSettings(s);
  if (!candidate.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("RoyalUr cannot express ", name, ": ", candidate.status().message()));
  }
  if (RulesetDigest(*candidate) != rules.digest) {
    return absl::InvalidArgumentError(absl::StrCat(
        "RoyalUr cannot express ", name, ": its ", absl::StrJoin(DifferingFields(*candidate, r), ", "),
        " differ from anything RoyalUr's settings say (rosettes that are safe or not and give another throw "
        "or not, a capture that gives another throw or not; no stacking, exact bearing off)"));
  }
  return s;
}

}  // namespace

absl::StatusOr<std::string> RulesetReferenceForRoyalUrSettings(const RoyalUrSettings& s) {
  static auto* cache = new Cache<absl::StatusOr<std::string>>;
  const std::string key = absl::StrCat(absl::CHexEscape(s.board_shape), "|", absl::CHexEscape(s.paths), "|",
                                       absl::CHexEscape(s.dice), "|", s.start_pieces, "|", s.safe_rosettes, "|",
                                       s.rosettes_grant_rolls, "|", s.captures_grant_rolls);
  return cache->Get(key, [&] { return ComputeRulesetReference(s); });
}

absl::StatusOr<RoyalUrSettings> RoyalUrSettingsForRules(const Rules& rules) {
  // The message names the ruleset: key by its id too.
  static auto* cache = new Cache<absl::StatusOr<RoyalUrSettings>>;
  return cache->Get(absl::StrCat(rules.digest, "|", rules.ruleset.id()), [&] { return ComputeSettings(rules); });
}

std::optional<std::string> RoyalUrPresetName(const Rules& rules) {
  for (const RoyalUrPreset& p : kPresets) {
    auto preset = LoadRuleset(p.scribe_preset);
    if (preset.ok() && (*preset)->digest == rules.digest) return std::string(p.royalur_name);
  }
  return std::nullopt;
}

std::string RoyalUrPresetList() { return "finkel, masters, blitz and aseb, which is sawah-tablet"; }

}  // namespace scribe
