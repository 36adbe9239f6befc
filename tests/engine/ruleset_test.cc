// The ruleset loader: every preset of docs/rulesets.md with the parameters that
// page gives (checked against its table, not against the preset files),
// stable digests, overrides, users' ruleset texts, and refusals that list
// every problem with its field path.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine/ruleset.h"
#include "gtest/gtest.h"

namespace scribe {
namespace {

// --- Helpers ---------------------------------------------------------------

std::vector<std::string> Split(const std::string& tiles) {
  return absl::StrSplit(tiles, ' ', absl::SkipEmpty());
}

template <typename Repeated>
std::vector<std::string> Strings(const Repeated& r) {
  return std::vector<std::string>(r.begin(), r.end());
}

template <typename Repeated>
std::vector<int> Ints(const Repeated& r) {
  return std::vector<int>(r.begin(), r.end());
}

// Lane A <-> C, the mirror image of a path.
std::vector<std::string> Mirror(const std::vector<std::string>& path) {
  std::vector<std::string> out;
  for (std::string t : path) {
    if (t[0] == 'A') {
      t[0] = 'C';
    } else if (t[0] == 'C') {
      t[0] = 'A';
    }
    out.push_back(t);
  }
  return out;
}

std::string Describe(const std::vector<FieldProblem>& problems) {
  std::vector<std::string> lines;
  for (const FieldProblem& p : problems) lines.push_back(absl::StrCat("[", p.field, "] ", p.message));
  return absl::StrJoin(lines, "\n");
}

// The problem about `field`, or null.
const FieldProblem* FindProblem(const std::vector<FieldProblem>& problems,
                                const std::string& field) {
  for (const FieldProblem& p : problems) {
    if (p.field == field) return &p;
  }
  return nullptr;
}

// Expects a problem about `field` whose message contains every fragment.
void ExpectProblem(const std::vector<FieldProblem>& problems, const std::string& field,
                   const std::vector<std::string>& fragments = {}) {
  const FieldProblem* p = FindProblem(problems, field);
  ASSERT_NE(p, nullptr) << "no problem about \"" << field << "\" among:\n" << Describe(problems);
  for (const std::string& f : fragments) {
    EXPECT_TRUE(absl::StrContains(p->message, f))
        << "problem about " << field << " says \"" << p->message << "\", expected it to mention \""
        << f << "\"";
  }
}

// Resolves a reference expected to be refused; returns its problems.
std::vector<FieldProblem> Refused(const std::string& reference,
                                  absl::StatusCode code = absl::StatusCode::kInvalidArgument) {
  std::vector<FieldProblem> problems;
  auto r = LoadRuleset(reference, &problems);
  EXPECT_FALSE(r.ok()) << reference << " was accepted";
  if (!r.ok()) {
    EXPECT_EQ(r.status().code(), code) << reference << ": " << r.status();
  }
  EXPECT_FALSE(problems.empty()) << reference << ": refused without a problem listed";
  // The status message carries every problem too.
  for (const FieldProblem& p : problems) {
    EXPECT_TRUE(absl::StrContains(r.status().message(), p.message))
        << "status \"" << r.status().message() << "\" leaves out \"" << p.message << "\"";
  }
  return problems;
}

std::vector<FieldProblem> RefusedText(const std::string& text) {
  std::vector<FieldProblem> problems;
  auto r = LoadRulesetText(text, &problems);
  EXPECT_FALSE(r.ok()) << "text was accepted:\n" << text;
  if (!r.ok()) {
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << r.status();
  }
  EXPECT_FALSE(problems.empty()) << "refused without a problem listed:\n" << text;
  return problems;
}

std::shared_ptr<const Rules> MustLoad(const std::string& reference) {
  std::vector<FieldProblem> problems;
  auto r = LoadRuleset(reference, &problems);
  EXPECT_TRUE(r.ok()) << reference << ": " << r.status();
  EXPECT_TRUE(problems.empty()) << Describe(problems);
  return r.ok() ? *r : nullptr;
}

std::shared_ptr<const Rules> MustLoadText(const std::string& text) {
  std::vector<FieldProblem> problems;
  auto r = LoadRulesetText(text, &problems);
  EXPECT_TRUE(r.ok()) << r.status() << "\n" << text;
  return r.ok() ? *r : nullptr;
}

// Chance of each throw in sixteenths, as docs/rulesets.md#the-dice gives it.
std::map<int, int> ChancesIn16(const Rules& rules) {
  std::map<int, int> out;
  for (const RollOutcome& o : rules.outcomes) out[o.roll] = o.weight * 16 / (1 << rules.dice_count);
  return out;
}

// --- The presets, as docs/rulesets.md#the-presets gives them ---------------

const char kFinkelPath[] = "A4 A3 A2 A1 B1 B2 B3 B4 B5 B6 B7 B8 A8 A7";
const char kMastersPath[] = "A4 A3 A2 A1 B1 B2 B3 B4 B5 B6 B7 C7 C8 B8 A8 A7";
const char kSawahPath[] = "A4 A3 A2 A1 B1 B2 B3 B4 B5 B6 B7 B8 B9 B10 B11 B12";
const char kTurnoverPath[] = "A1 A2 A3 A4 B4 B5 B6 B7 A7 A8 B8 C8 C7 B7 B6 B5 B4 B3 B2 B1";
const char kMurrayPath[] =
    "A4 A3 A2 A1 B1 B2 B3 B4 B5 B6 B7 C7 C8 B8 A8 A7 B7 B6 B5 B4 B3 B2 B1 C1 C2 C3 C4";
const char kSkiriukPath[] =
    "A4 A3 A2 A1 B1 B2 B3 B4 B5 B6 B7 C7 C8 B8 A8 A7 B7 B6 B5 B4 B3 B2 B1";

struct Expected {
  std::string id;
  v1::Board board;
  std::string path;
  int length;
  std::vector<int> roll_for_marks;  // dice.count is its size - 1
  std::map<int, int> chances16;
  int pieces;
  std::vector<int> extra;
  bool capture_extra = false;
  std::vector<int> safe;
  std::string digest;
};

const std::map<int, int> kFourBinary = {{0, 1}, {1, 4}, {2, 6}, {3, 4}, {4, 1}};
const std::map<int, int> kBlank4 = {{1, 6}, {2, 6}, {3, 2}, {4, 2}};
const std::map<int, int> kTurnoverDice = {{0, 6}, {1, 6}, {4, 2}, {5, 2}};

std::vector<Expected> ExpectedPresets() {
  return {
      {"finkel", v1::BOARD_UR, kFinkelPath, 14, {0, 1, 2, 3, 4}, kFourBinary, 7, {4, 8, 14}, false,
       {4, 8, 14}, "13f33ad027a00895"},
      {"finkel-blank4", v1::BOARD_UR, kFinkelPath, 14, {4, 1, 2, 3}, kBlank4, 7, {4, 8, 14}, false,
       {4, 8, 14}, "36776ba24477aeb0"},
      {"masters", v1::BOARD_UR, kMastersPath, 16, {4, 1, 2, 3}, kBlank4, 7, {4, 8, 12, 16}, false,
       {}, "cd85a9ab3452ad1e"},
      {"blitz", v1::BOARD_UR, kMastersPath, 16, {0, 1, 2, 3, 4}, kFourBinary, 5, {4, 8, 12, 16},
       true, {}, "10d600bf5a817c83"},
      {"sawah", v1::BOARD_EGYPTIAN, kSawahPath, 16, {0, 1, 2, 3, 4}, kFourBinary, 7,
       {4, 8, 12, 16}, false, {4, 8, 12, 16}, "0525379e599b8b8f"},
      {"sawah-tablet", v1::BOARD_EGYPTIAN, kSawahPath, 16, {0, 1, 2, 3, 4}, kFourBinary, 5,
       {4, 8, 12, 16}, false, {4, 8, 12, 16}, "eb95d8126006b893"},
      {"sawah-marks", v1::BOARD_EGYPTIAN, kSawahPath, 16, {0, 1, 2, 3, 4}, kFourBinary, 7,
       {4, 8, 12, 16}, false, {}, "e849919db7695884"},
      // Three dice: 0 marks -> 4, 1 -> 0, 2 -> 1, 3 -> 5.
      {"turnover", v1::BOARD_UR, kTurnoverPath, 20, {4, 0, 1, 5}, kTurnoverDice, 7, {}, false,
       {1, 5, 9, 13, 20}, "2c99904850f1ae68"},
      {"murray", v1::BOARD_UR, kMurrayPath, 27, {0, 1, 2, 3, 4}, kFourBinary, 7,
       {4, 8, 12, 16, 20, 24}, false, {4, 8, 12, 16, 20, 24}, "11167850bbd8589d"},
      {"skiriuk", v1::BOARD_UR, kSkiriukPath, 23, {0, 1, 2, 3, 4}, kFourBinary, 7,
       {4, 8, 12, 16, 20}, false, {4, 8, 12, 16, 20}, "5efe986b32275648"},
  };
}

TEST(PresetsTest, ListsEveryPresetInOrderWithAliases) {
  std::vector<std::string> ids;
  for (const PresetInfo& p : Presets()) {
    ids.push_back(p.id);
    EXPECT_FALSE(p.title.empty()) << p.id;
    EXPECT_FALSE(p.source.empty()) << p.id;
    if (p.id == "sawah-tablet") {
      EXPECT_EQ(p.aliases, std::vector<std::string>{"aseb"});
    } else {
      EXPECT_TRUE(p.aliases.empty()) << p.id;
    }
  }
  EXPECT_EQ(ids, (std::vector<std::string>{"finkel", "finkel-blank4", "masters", "blitz", "sawah",
                                           "sawah-tablet", "sawah-marks", "turnover", "murray",
                                           "skiriuk"}));
}

class PresetTest : public ::testing::TestWithParam<Expected> {};

TEST_P(PresetTest, HasTheParametersOfRulesetsMd) {
  const Expected& e = GetParam();
  auto rules = MustLoad(e.id);
  ASSERT_NE(rules, nullptr);
  const v1::Ruleset& r = rules->ruleset;
  EXPECT_EQ(r.id(), e.id);
  EXPECT_EQ(r.board(), e.board);
  const std::vector<std::string> path = Split(e.path);
  ASSERT_EQ(static_cast<int>(path.size()), e.length) << "the expected path itself";
  EXPECT_EQ(Strings(r.path()), path);
  // Dark's path is the mirror image of light's in every preset.
  EXPECT_EQ(Strings(r.dark_path()), Mirror(path));
  EXPECT_EQ(rules->path_length, e.length);
  EXPECT_EQ(rules->off, e.length + 1);
  for (int i = 1; i <= e.length; ++i) {
    EXPECT_EQ(rules->TileNameAt(kLight, i), path[i - 1]) << "index " << i;
    EXPECT_EQ(rules->TileNameAt(kDark, i), Mirror(path)[i - 1]) << "index " << i;
  }
  EXPECT_EQ(r.dice().count(), static_cast<int>(e.roll_for_marks.size()) - 1);
  EXPECT_EQ(Ints(r.dice().roll_for_marks()), e.roll_for_marks);
  EXPECT_EQ(ChancesIn16(*rules), e.chances16);
  EXPECT_EQ(r.pieces(), e.pieces);
  EXPECT_EQ(rules->pieces, e.pieces);
  EXPECT_EQ(Ints(r.extra_roll_squares()), e.extra);
  EXPECT_EQ(r.capture_extra_roll(), e.capture_extra);
  EXPECT_EQ(Ints(r.safe_squares()), e.safe);
  for (int i = 1; i <= e.length; ++i) {
    const bool safe = std::find(e.safe.begin(), e.safe.end(), i) != e.safe.end();
    const bool extra = std::find(e.extra.begin(), e.extra.end(), i) != e.extra.end();
    EXPECT_EQ(rules->IsSafe(i), safe) << "index " << i;
    EXPECT_EQ(rules->GivesExtraRoll(i), extra) << "index " << i;
  }
  EXPECT_EQ(rules->digest, e.digest) << "digest changed: a preset's digest is a regression value";
  EXPECT_EQ(RulesetDigest(r), e.digest);

  if (e.id == "turnover") {
    EXPECT_TRUE(r.stacking());
    EXPECT_TRUE(r.safe_shared());
    EXPECT_EQ(Ints(r.phase_starts()), std::vector<int>{14});
    EXPECT_EQ(Ints(r.entry_rolls()), (std::vector<int>{1, 5}));
    EXPECT_EQ(Ints(r.auto_place_squares()), (std::vector<int>{1, 5, 9, 13}));
    EXPECT_EQ(r.auto_place_to(), 1);
    EXPECT_EQ(r.bear_off(), v1::BEAR_OFF_STACK_FROM_LAST);
    EXPECT_EQ(r.bear_off_roll(), 4);
    EXPECT_EQ(r.opening(), v1::OPENING_THROW_OFF);
  } else {
    // Rules common to all presets but turnover.
    EXPECT_FALSE(r.stacking());
    EXPECT_FALSE(r.safe_shared());
    EXPECT_TRUE(r.phase_starts().empty());
    EXPECT_TRUE(r.entry_rolls().empty()) << "a waiting piece enters with any throw";
    EXPECT_TRUE(r.auto_place_squares().empty());
    EXPECT_EQ(r.bear_off(), v1::BEAR_OFF_EXACT);
    EXPECT_EQ(r.bear_off_roll(), 0);
    EXPECT_EQ(r.opening(), v1::OPENING_AGREED);
  }
}

INSTANTIATE_TEST_SUITE_P(RulesetsMd, PresetTest, ::testing::ValuesIn(ExpectedPresets()),
                         [](const ::testing::TestParamInfo<Expected>& info) {
                           std::string name = info.param.id;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

TEST(PresetsTest, AsebIsSawahTablet) {
  auto aseb = MustLoad("aseb");
  auto tablet = MustLoad("sawah-tablet");
  ASSERT_NE(aseb, nullptr);
  ASSERT_NE(tablet, nullptr);
  EXPECT_EQ(aseb->digest, tablet->digest);
  EXPECT_EQ(aseb->digest, "eb95d8126006b893");
  EXPECT_EQ(aseb->ruleset.pieces(), 5);
  // Overrides work through the alias as well.
  auto aseb7 = MustLoad("aseb(pieces=7)");
  ASSERT_NE(aseb7, nullptr);
  EXPECT_EQ(aseb7->digest, MustLoad("sawah")->digest);
}

TEST(PresetsTest, DigestsAreDistinctAndWellFormed) {
  std::map<std::string, std::string> by_digest;
  for (const PresetInfo& p : Presets()) {
    auto rules = MustLoad(p.id);
    ASSERT_NE(rules, nullptr);
    EXPECT_EQ(rules->digest.size(), 16u) << p.id;
    EXPECT_EQ(rules->digest.find_first_not_of("0123456789abcdef"), std::string::npos) << p.id;
    auto [it, fresh] = by_digest.emplace(rules->digest, p.id);
    EXPECT_TRUE(fresh) << p.id << " has the digest of " << it->second;
    // Loading again (cached) gives the same digest.
    EXPECT_EQ(MustLoad(p.id)->digest, rules->digest);
  }
}

TEST(DigestTest, DependsOnTheRulesOnly) {
  const std::string finkel = MustLoad("finkel")->digest;
  EXPECT_EQ(MustLoad("finkel(pieces=7)")->digest, finkel);
  EXPECT_EQ(MustLoad(" finkel ( pieces = 7 ) ")->digest, finkel);
  EXPECT_EQ(MustLoad("finkel()")->digest, finkel);
  EXPECT_NE(MustLoad("finkel(pieces=5)")->digest, finkel);
  // Index lists are sets: their order does not matter.
  EXPECT_EQ(MustLoad("finkel(safe_squares=[14,4,8], extra_roll_squares=[8,14,4])")->digest, finkel);
  // Names are not rules.
  EXPECT_EQ(MustLoad("finkel(title=\"Something else\", source=elsewhere)")->digest, finkel);
  // Every parameter is part of the digest.
  for (const char* ref :
       {"finkel(capture_extra_roll=true)", "finkel(safe_shared=true)", "finkel(safe_squares=[])",
        "finkel(extra_roll_squares=[4,8])", "finkel(entry_rolls=[1,2,3])",
        "finkel(dice.roll_for_marks=[0,1,2,3,3])", "finkel(opening=OPENING_THROW_OFF)"}) {
    auto r = MustLoad(ref);
    ASSERT_NE(r, nullptr) << ref;
    EXPECT_NE(r->digest, finkel) << ref;
  }
}

TEST(DigestTest, CanonicalFormDropsNamesAndSorts) {
  v1::Ruleset r = MustLoad("finkel")->ruleset;
  r.mutable_safe_squares()->SwapElements(0, 2);
  r.set_id("other");
  r.set_title("other");
  r.set_source("other");
  r.set_base("other");
  const v1::Ruleset c = CanonicalRuleset(r);
  EXPECT_TRUE(c.id().empty());
  EXPECT_TRUE(c.title().empty());
  EXPECT_TRUE(c.source().empty());
  EXPECT_TRUE(c.base().empty());
  EXPECT_EQ(Ints(c.safe_squares()), (std::vector<int>{4, 8, 14}));
  EXPECT_EQ(RulesetDigest(r), "13f33ad027a00895");
}

// --- Overrides -------------------------------------------------------------

TEST(OverrideTest, PiecesAndCaptureExtraRoll) {
  auto r = MustLoad("finkel(pieces=5,capture_extra_roll=true)");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->pieces, 5);
  EXPECT_TRUE(r->capture_extra_roll);
  EXPECT_TRUE(r->ruleset.capture_extra_roll());
  EXPECT_EQ(r->ruleset.id(), "finkel(pieces=5,capture_extra_roll=true)");
  // Everything else is finkel's.
  EXPECT_EQ(Strings(r->ruleset.path()), Split(kFinkelPath));
  EXPECT_EQ(Ints(r->ruleset.safe_squares()), (std::vector<int>{4, 8, 14}));
  EXPECT_EQ(Ints(r->ruleset.extra_roll_squares()), (std::vector<int>{4, 8, 14}));
  EXPECT_EQ(ChancesIn16(*r), kFourBinary);
  // With spaces, and with safe_shared too (the tournament variants,
  // docs/rulesets.md#sources-of-the-variants).
  auto t = MustLoad("finkel(pieces=5, capture_extra_roll=true, safe_shared=true)");
  ASSERT_NE(t, nullptr);
  EXPECT_TRUE(t->safe_shared);
  EXPECT_EQ(t->pieces, 5);
  EXPECT_NE(t->digest, r->digest);
}

TEST(OverrideTest, DottedDiceKeys) {
  auto r = MustLoad("sawah(dice.count=3, dice.roll_for_marks=[4,1,2,3])");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->ruleset.dice().count(), 3);
  EXPECT_EQ(Ints(r->ruleset.dice().roll_for_marks()), (std::vector<int>{4, 1, 2, 3}));
  EXPECT_EQ(r->dice_count, 3);
  EXPECT_EQ(ChancesIn16(*r), kBlank4);
  EXPECT_FALSE(r->CanRoll(0));
  EXPECT_TRUE(r->CanRoll(4));
  // The rest is sawah's.
  EXPECT_EQ(r->ruleset.board(), v1::BOARD_EGYPTIAN);
  EXPECT_EQ(Strings(r->ruleset.path()), Split(kSawahPath));
  EXPECT_EQ(r->pieces, 7);
  EXPECT_NE(r->digest, MustLoad("sawah")->digest);
  // Only roll_for_marks: count stays 4.
  auto s = MustLoad("sawah(dice.roll_for_marks=[0,1,2,3,5])");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->ruleset.dice().count(), 4);
  EXPECT_EQ(s->max_roll, 5);
}

TEST(OverrideTest, ListValues) {
  auto two = MustLoad("finkel(safe_squares=[4,14])");
  ASSERT_NE(two, nullptr);
  EXPECT_EQ(Ints(two->ruleset.safe_squares()), (std::vector<int>{4, 14}));
  EXPECT_TRUE(two->IsSafe(4));
  EXPECT_FALSE(two->IsSafe(8));
  EXPECT_TRUE(two->IsSafe(14));
  // Extra throws are untouched.
  EXPECT_EQ(Ints(two->ruleset.extra_roll_squares()), (std::vector<int>{4, 8, 14}));

  auto none = MustLoad("finkel(safe_squares=[])");
  ASSERT_NE(none, nullptr);
  EXPECT_TRUE(none->ruleset.safe_squares().empty());
  for (int i = 1; i <= 14; ++i) EXPECT_FALSE(none->IsSafe(i)) << i;
  EXPECT_NE(none->digest, two->digest);

  auto spaced = MustLoad("finkel(safe_squares=[ 4 , 14 ])");
  ASSERT_NE(spaced, nullptr);
  EXPECT_EQ(spaced->digest, two->digest);

  // A path as a list of tile names, quoted or not.
  auto path = MustLoad("masters(path=[A4,A3,A2,A1,B1,B2,B3,B4,B5,B6,B7,B8,A8,A7], "
                       "extra_roll_squares=[4,8,14])");
  ASSERT_NE(path, nullptr);
  EXPECT_EQ(Strings(path->ruleset.path()), Split(kFinkelPath));
  EXPECT_EQ(Strings(path->ruleset.dark_path()), Mirror(Split(kFinkelPath)))
      << "a new path without dark_path means the mirror of the new path";
  auto quoted = MustLoad(
      "masters(path=[\"A4\",\"A3\",\"A2\",\"A1\",\"B1\",\"B2\",\"B3\",\"B4\",\"B5\",\"B6\",\"B7\","
      "\"B8\",\"A8\",\"A7\"], extra_roll_squares=[4,8,14])");
  ASSERT_NE(quoted, nullptr);
  EXPECT_EQ(quoted->digest, path->digest);
}

TEST(OverrideTest, EnumValues) {
  auto r = MustLoad("finkel(opening=OPENING_THROW_OFF)");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->opening, v1::OPENING_THROW_OFF);
  auto t = MustLoad("turnover(bear_off=BEAR_OFF_EXACT, bear_off_roll=0)");
  ASSERT_NE(t, nullptr);
  EXPECT_FALSE(t->bear_off_stack);
}

// --- Users' ruleset texts --------------------------------------------------

TEST(RulesetTextTest, WithoutBase) {
  auto r = MustLoadText(R"pb(
    # A short race of my own.
    path: ["A4", "A3", "A2", "A1", "B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "A8", "A7"]
    pieces: 3
    dice { count: 4 roll_for_marks: [0, 1, 2, 3, 4] }
    extra_roll_squares: [8]
  )pb");
  ASSERT_NE(r, nullptr);
  const v1::Ruleset& s = r->ruleset;
  EXPECT_EQ(s.pieces(), 3);
  EXPECT_EQ(Strings(s.path()), Split(kFinkelPath));
  EXPECT_EQ(Strings(s.dark_path()), Mirror(Split(kFinkelPath)));
  EXPECT_EQ(Ints(s.extra_roll_squares()), std::vector<int>{8});
  EXPECT_TRUE(s.safe_squares().empty());
  // Defaults filled in.
  EXPECT_EQ(s.board(), v1::BOARD_UR);
  EXPECT_EQ(s.bear_off(), v1::BEAR_OFF_EXACT);
  EXPECT_EQ(s.opening(), v1::OPENING_AGREED);
  EXPECT_TRUE(s.base().empty());
  // Same rules as finkel with those three changes.
  EXPECT_EQ(r->digest, MustLoad("finkel(pieces=3, extra_roll_squares=[8], safe_squares=[])")->digest);
}

TEST(RulesetTextTest, WithBaseFieldsReplaceTheBases) {
  auto r = MustLoadText(R"pb(
    base: "finkel"
    id: "mine"
    safe_squares: [4]
    dice { count: 3 roll_for_marks: [4, 1, 2, 3] }
  )pb");
  ASSERT_NE(r, nullptr);
  const v1::Ruleset& s = r->ruleset;
  EXPECT_EQ(s.id(), "mine");
  EXPECT_TRUE(s.base().empty());
  // Replaced, not merged with finkel's [4, 8, 14].
  EXPECT_EQ(Ints(s.safe_squares()), std::vector<int>{4});
  EXPECT_EQ(Ints(s.dice().roll_for_marks()), (std::vector<int>{4, 1, 2, 3}));
  // Not written: finkel's.
  EXPECT_EQ(Ints(s.extra_roll_squares()), (std::vector<int>{4, 8, 14}));
  EXPECT_EQ(s.pieces(), 7);
  EXPECT_EQ(Strings(s.path()), Split(kFinkelPath));
  // A derived ruleset does not carry its base's title.
  EXPECT_NE(s.title(), MustLoad("finkel")->ruleset.title());
  EXPECT_EQ(r->digest, MustLoad("finkel(safe_squares=[4], dice.count=3, "
                                "dice.roll_for_marks=[4,1,2,3])")->digest);

  // A base with overrides.
  auto o = MustLoadText("base: \"finkel(pieces=5)\"\ncapture_extra_roll: true\n");
  ASSERT_NE(o, nullptr);
  EXPECT_EQ(o->digest, MustLoad("finkel(pieces=5,capture_extra_roll=true)")->digest);
  // Only the base: the base's rules.
  EXPECT_EQ(MustLoadText("base: \"aseb\"")->digest, "eb95d8126006b893");
}

TEST(RulesetTextTest, NewPathWithoutDarkPathIsMirrored) {
  // masters' dark path is the mirror of masters' path; a new light path
  // must not keep it.
  auto r = MustLoadText(R"pb(
    base: "masters"
    path: ["A4", "A3", "A2", "A1", "B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "A8", "A7"]
    extra_roll_squares: [4, 8, 14]
  )pb");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(Strings(r->ruleset.path()), Split(kFinkelPath));
  EXPECT_EQ(Strings(r->ruleset.dark_path()), Mirror(Split(kFinkelPath)));
  EXPECT_EQ(r->TileNameAt(kDark, 13), "C8");
  EXPECT_EQ(r->TileNameAt(kDark, 14), "C7");
}

TEST(RulesetTextTest, ExplicitDarkPathIsKept) {
  // A dark path that is not the mirror (both sides use lane A's squares,
  // entering from the other end).
  const std::string dark = "A1 A2 A3 A4 B4 B3 B2 B1";
  auto r = MustLoadText(R"pb(
    path: ["C1", "C2", "C3", "C4", "B4", "B5", "B6", "B7"]
    dark_path: ["A1", "A2", "A3", "A4", "B4", "B3", "B2", "B1"]
    pieces: 2
    dice { count: 4 roll_for_marks: [0, 1, 2, 3, 4] }
  )pb");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(Strings(r->ruleset.dark_path()), Split(dark));
  EXPECT_EQ(r->TileNameAt(kDark, 1), "A1");
  EXPECT_EQ(r->TileNameAt(kLight, 1), "C1");
}

TEST(RulesetTextTest, ToTextReadsBackForEveryPreset) {
  for (const PresetInfo& p : Presets()) {
    SCOPED_TRACE(p.id);
    auto rules = MustLoad(p.id);
    ASSERT_NE(rules, nullptr);
    const std::string text = RulesetToText(rules->ruleset);
    EXPECT_FALSE(absl::StrContains(text, "base:")) << text;
    auto back = MustLoadText(text);
    ASSERT_NE(back, nullptr) << text;
    EXPECT_EQ(back->digest, rules->digest) << text;
    EXPECT_EQ(back->ruleset.id(), p.id);
    EXPECT_EQ(back->ruleset.title(), rules->ruleset.title());
    EXPECT_EQ(RulesetToText(back->ruleset), text);
  }
}

TEST(RulesetTextTest, ToTextReadsBackForOverridesAndOddStrings) {
  for (const char* ref : {"finkel(pieces=5,capture_extra_roll=true,safe_shared=true)",
                          "sawah(dice.count=3, dice.roll_for_marks=[4,1,2,3])",
                          "finkel(safe_squares=[])", "murray(pieces=1)",
                          "finkel(title=\"quote \\\" back\\\\slash\")"}) {
    SCOPED_TRACE(ref);
    auto rules = MustLoad(ref);
    ASSERT_NE(rules, nullptr);
    const std::string text = RulesetToText(rules->ruleset);
    auto back = MustLoadText(text);
    ASSERT_NE(back, nullptr) << text;
    EXPECT_EQ(back->digest, rules->digest);
    EXPECT_EQ(back->ruleset.title(), rules->ruleset.title());
  }
}

// --- Refusals: every problem, each with its field path ---------------------

TEST(RefusalTest, SeveralUnknownKeysAtOnce) {
  auto problems = Refused("finkel(foo=1, pieces=5, bar=2, dice.sides=6)");
  ExpectProblem(problems, "foo", {"unknown key", "foo"});
  ExpectProblem(problems, "bar", {"unknown key", "bar"});
  ExpectProblem(problems, "dice.sides", {"unknown key", "dice.sides"});
  EXPECT_EQ(FindProblem(problems, "pieces"), nullptr) << Describe(problems);
  EXPECT_EQ(problems.size(), 3u) << Describe(problems);
}

TEST(RefusalTest, UnknownKeysInTextAllListed) {
  auto problems = RefusedText("base: \"finkel\"\nfoo: 1\nbar: 2\ndice { baz: 3 }\n");
  // Line and column of the key itself.
  ExpectProblem(problems, "foo", {"unknown key", "foo", "line 2:1:"});
  ExpectProblem(problems, "bar", {"unknown key", "bar", "line 3:1:"});
  ExpectProblem(problems, "dice.baz", {"unknown key", "baz", "line 4:8:"});
}

TEST(RefusalTest, UnknownKeysAndRangeProblemsTogether) {
  auto problems = Refused("finkel(pieces=0, foo=1, dice.count=9)");
  ExpectProblem(problems, "foo", {"unknown key"});
  ExpectProblem(problems, "pieces", {"0", "1 to 15"});
  ExpectProblem(problems, "dice.count", {"9", "1 to 8"});
}

// docs/rulesets.md#errors / ruleset.h: a failure lists every problem. An unknown key in
// a text must not hide the other problems of the same text (as it does not
// in a reference, see UnknownKeysAndRangeProblemsTogether).
TEST(RefusalTest, UnknownKeysAndRangeProblemsTogetherInText) {
  auto problems = RefusedText("base: \"finkel\"\npieces: 0\nfoo: 1\n");
  ExpectProblem(problems, "foo", {"unknown key"});
  ExpectProblem(problems, "pieces", {"0", "1 to 15"});
}

TEST(RefusalTest, PiecesOutOfRange) {
  ExpectProblem(Refused("finkel(pieces=0)"), "pieces", {"0", "1 to 15"});
  ExpectProblem(Refused("finkel(pieces=16)"), "pieces", {"16", "1 to 15"});
  ExpectProblem(Refused("finkel(pieces=-3)"), "pieces", {"-3"});
  EXPECT_NE(MustLoad("finkel(pieces=1)"), nullptr);
  EXPECT_NE(MustLoad("finkel(pieces=15)"), nullptr);
}

TEST(RefusalTest, DiceOutOfRangeAndMismatched) {
  ExpectProblem(Refused("finkel(dice.count=0)"), "dice.count", {"1 to 8"});
  ExpectProblem(Refused("finkel(dice.count=9)"), "dice.count", {"1 to 8"});
  // count 3 with finkel's five entries.
  ExpectProblem(Refused("finkel(dice.count=3)"), "dice.roll_for_marks", {"5", "4"});
  ExpectProblem(Refused("finkel(dice.count=3, dice.roll_for_marks=[4,1,2])"),
                "dice.roll_for_marks", {"3 entries", "4"});
  ExpectProblem(Refused("finkel(dice.roll_for_marks=[0,1,2,3,99])"), "dice.roll_for_marks[4]",
                {"99"});
  ExpectProblem(Refused("finkel(dice.roll_for_marks=[-1,1,2,3,4])"), "dice.roll_for_marks[0]",
                {"-1"});
  ExpectProblem(Refused("finkel(dice.roll_for_marks=[0,0,0,0,0])"), "dice.roll_for_marks",
                {"no throw"});
}

TEST(RefusalTest, TileNotOnTheBoard) {
  auto problems = Refused("finkel(path=[A4,A3,A2,A1,B1,B2,B3,B4,B5,B6,B7,B8,B9,A7])");
  ExpectProblem(problems, "path[12]", {"B9", "ur"});
  // Dark's path is the mirror of light's: its problems are light's, said once.
  EXPECT_EQ(FindProblem(problems, "dark_path[12]"), nullptr) << Describe(problems);
  // A dark path the user wrote is checked on its own.
  auto own_dark = Refused(
      "finkel(dark_path=[C4,C3,C2,C1,B1,B2,B3,B4,B5,B6,B7,B8,B9,C7])");
  ExpectProblem(own_dark, "dark_path[12]", {"B9"});
  ExpectProblem(Refused("finkel(path=[A4,A3,A2,A1,B1,B2,B3,B4,B5,B6,B7,B8,A8,A6])"), "path[13]",
                {"A6"});
  ExpectProblem(Refused("finkel(path=[A4,A3,A2,A1,B1,B2,B3,B4,B5,B6,B7,B8,A8,XX])"), "path[13]",
                {"XX"});
  // Finkel's path does not fit the Egyptian board.
  auto egypt = Refused("finkel(board=BOARD_EGYPTIAN)");
  ExpectProblem(egypt, "path[12]", {"A8", "egyptian"});
  ExpectProblem(egypt, "path[13]", {"A7"});
}

TEST(RefusalTest, PathNotConnected) {
  auto problems = Refused("finkel(path=[A4,B3,A2,A1,B1,B2,B3,B4,B5,B6,B7,B8,A8,A7])");
  ExpectProblem(problems, "path[1]", {"B3", "A4"});
  ExpectProblem(problems, "path[2]", {"A2", "B3"});
}

TEST(RefusalTest, PathShorterThanLargestThrow) {
  auto problems = Refused("finkel(path=[A4,A3,A2], extra_roll_squares=[], safe_squares=[])");
  ExpectProblem(problems, "path", {"3", "largest throw", "4"});
  // With finkel's index lists left as they are, those are out of range too.
  auto more = Refused("finkel(path=[A4,A3])");
  ExpectProblem(more, "path", {"largest throw"});
  ExpectProblem(more, "extra_roll_squares[0]", {"4", "1 to 2"});
  ExpectProblem(more, "extra_roll_squares[1]", {"8"});
  ExpectProblem(more, "safe_squares[2]", {"14"});
  ExpectProblem(Refused("finkel(path=[])"), "path", {"0"});
}

TEST(RefusalTest, DuplicateAndOutOfRangeIndices) {
  ExpectProblem(Refused("finkel(safe_squares=[4,4])"), "safe_squares[1]", {"4", "twice"});
  auto problems = Refused("finkel(extra_roll_squares=[8,4,8], safe_squares=[0,15])");
  ExpectProblem(problems, "extra_roll_squares[2]", {"8", "twice"});
  ExpectProblem(problems, "safe_squares[0]", {"0", "out of range"});
  ExpectProblem(problems, "safe_squares[1]", {"15", "out of range"});
  ExpectProblem(Refused("finkel(phase_starts=[1])"), "phase_starts[0]", {"1"});
  ExpectProblem(Refused("turnover(auto_place_to=21)"), "auto_place_to", {"21"});
}

TEST(RefusalTest, EntryRollsMustBeThrowsOfTheDice) {
  ExpectProblem(Refused("finkel(entry_rolls=[5])"), "entry_rolls[0]", {"5", "throw"});
  ExpectProblem(Refused("finkel(entry_rolls=[1,0])"), "entry_rolls[1]", {"0"});
  // A blank counts four: three dice never give 0.
  ExpectProblem(Refused("finkel-blank4(entry_rolls=[4,0])"), "entry_rolls[1]", {"0"});
  EXPECT_NE(MustLoad("finkel(entry_rolls=[1,4])"), nullptr);
}

TEST(RefusalTest, BearOffRollOnlyWithStackBearOff) {
  ExpectProblem(Refused("finkel(bear_off_roll=4)"), "bear_off_roll", {"BEAR_OFF_STACK_FROM_LAST"});
  ExpectProblem(Refused("turnover(bear_off=BEAR_OFF_EXACT)"), "bear_off_roll");
  ExpectProblem(Refused("turnover(bear_off_roll=2)"), "bear_off_roll", {"2"});
}

TEST(RefusalTest, SafeSquareContradictionBetweenLightAndDark) {
  // masters: C7 is light's index 12 and dark's index 16 (A7 the reverse).
  auto problems = Refused("masters(safe_squares=[12])");
  ExpectProblem(problems, "safe_squares", {"C7", "12", "16", "light", "dark"});
  bool a7 = false;
  for (const FieldProblem& p : problems) a7 = a7 || absl::StrContains(p.message, "A7");
  EXPECT_TRUE(a7) << Describe(problems);
  // skiriuk visits B4 at 8 and 20: one of them safe is a contradiction too.
  ExpectProblem(Refused("skiriuk(safe_squares=[4,8,12,16])"), "safe_squares", {"B4", "8", "20"});
}

TEST(RefusalTest, ProblemsOfDifferentKindsAllListed) {
  // pieces has nothing to do with the index lists: both must be reported.
  auto problems = Refused("finkel(pieces=0, safe_squares=[4,4], bear_off_roll=4)");
  ExpectProblem(problems, "pieces");
  ExpectProblem(problems, "safe_squares[1]");
  ExpectProblem(problems, "bear_off_roll");
}

TEST(RefusalTest, SeveralProblemsInATextWithoutBase) {
  auto problems = RefusedText(R"pb(
    path: ["A4", "B9"]
    pieces: 16
    dice { count: 9 }
  )pb");
  ExpectProblem(problems, "path[1]", {"B9"});
  ExpectProblem(problems, "pieces", {"16"});
  ExpectProblem(problems, "dice.count", {"9"});
}

TEST(RefusalTest, BaseUnknownOrCyclic) {
  auto unknown = RefusedText("base: \"nosuch\"\npieces: 3\n");
  ExpectProblem(unknown, "base", {"nosuch", "finkel"});
  auto broken = RefusedText("base: \"finkel(pieces=0)\"\n");
  ExpectProblem(broken, "base", {"pieces", "0"});
  // A text's base is a reference, and a reference cannot name a base: no
  // cycle can be written. Trying is refused, not followed.
  ExpectProblem(Refused("finkel(base=finkel)"), "base", {"unknown key"});
  ExpectProblem(RefusedText("base: \"finkel(base=finkel)\"\n"), "base", {"base"});
  // base is not a ruleset key a reference may set in any form.
  ExpectProblem(Refused("finkel(base=\"sawah\")"), "base");
}

TEST(RefusalTest, MalformedReferences) {
  auto open = Refused("finkel(pieces=5");
  ASSERT_FALSE(open.empty());
  EXPECT_TRUE(absl::StrContains(open[0].message, ")")) << open[0].message;
  ExpectProblem(Refused("finkel(pieces)"), "pieces", {"key=value"});
  ExpectProblem(Refused("finkel(pieces=abc)"), "pieces", {"abc"});
  ExpectProblem(Refused("finkel(pieces=)"), "pieces");
  ExpectProblem(Refused("finkel(capture_extra_roll=maybe)"), "capture_extra_roll", {"maybe"});
  ExpectProblem(Refused("finkel(dice=3)"), "dice");
  ExpectProblem(Refused("finkel(pieces.x=1)"), "pieces.x", {"unknown key"});
  Refused("finkel(pieces=5))");
  Refused("finkel(safe_squares=[4,14)");
  Refused("finkel(=5)");
}

// A key given twice in one reference is ambiguous (as a scalar written twice
// in a ruleset text is an error): it must be refused, not settled silently
// by the last one.
TEST(RefusalTest, KeyGivenTwiceIsRefused) {
  ExpectProblem(Refused("finkel(pieces=5, pieces=6)"), "pieces");
  ExpectProblem(RefusedText("base: \"finkel\"\npieces: 5\npieces: 6\n"), "");
}

// A value is one value: text that happens to be more text format must not
// set other fields behind the reference's back.
TEST(RefusalTest, OverrideValueCannotSmuggleOtherFields) {
  Refused("finkel(pieces=5 capture_extra_roll: true)");
  Refused("finkel(pieces=5 safe_squares: [])");
}

TEST(RefusalTest, UnknownPresetIsNotFoundWithTheList) {
  for (const char* ref : {"nosuch", "FINKEL", "finkel-blank5(pieces=3)", "nosuch(pieces=3)"}) {
    SCOPED_TRACE(ref);
    std::vector<FieldProblem> problems;
    auto r = LoadRuleset(ref, &problems);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), absl::StatusCode::kNotFound) << r.status();
    for (const PresetInfo& p : Presets()) {
      EXPECT_TRUE(absl::StrContains(r.status().message(), p.id)) << r.status();
    }
  }
}

TEST(RefusalTest, PathLikeNameIsJustAnUnknownRulesetAndNothingIsRead) {
  // A real file with a ruleset key in it: if the loader read files, its
  // content would show up (as a problem, or as the rules).
  const std::string path = ::testing::TempDir() + "ruleset_test_not_read.textproto";
  {
    std::ofstream out(path);
    out << "marker_key_from_the_file: 1\n";
  }
  for (const std::string& ref : {std::string("../../etc/passwd"), path,
                                 std::string("/etc/passwd"), std::string("./finkel")}) {
    SCOPED_TRACE(ref);
    std::vector<FieldProblem> problems;
    auto r = LoadRuleset(ref, &problems);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), absl::StatusCode::kNotFound) << r.status();
    EXPECT_TRUE(absl::StrContains(r.status().message(), "unknown ruleset")) << r.status();
    EXPECT_FALSE(absl::StrContains(r.status().message(), "marker_key_from_the_file"));
    EXPECT_FALSE(absl::StrContains(r.status().message(), "root:")) << r.status();
  }
  std::remove(path.c_str());
}

TEST(RefusalTest, TabletBettingIsDeclined) {
  for (const char* ref : {"tablet-betting", "tablet-betting(pieces=5)"}) {
    SCOPED_TRACE(ref);
    std::vector<FieldProblem> problems;
    auto r = LoadRuleset(ref, &problems);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << r.status();
    EXPECT_TRUE(absl::StrContains(r.status().message(), "not a complete ruleset")) << r.status();
    EXPECT_TRUE(absl::StrContains(r.status().message(), "sawah-tablet")) << r.status();
  }
  ASSERT_NE(DeclinedRulesetReason("tablet-betting"), nullptr);
  EXPECT_EQ(DeclinedRulesetReason("sawah-tablet"), nullptr);
  EXPECT_EQ(DeclinedRulesetReason("finkel"), nullptr);
  // As a base too.
  auto problems = RefusedText("base: \"tablet-betting\"\n");
  ExpectProblem(problems, "base", {"not a complete ruleset"});
  for (const PresetInfo& p : Presets()) EXPECT_NE(p.id, "tablet-betting");
}

TEST(RefusalTest, TooLongIsRefusedUnread) {
  const std::string huge(100 * 1024, 'x');
  auto r = LoadRuleset(huge);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_LT(r.status().message().size(), 1000u);
  auto t = LoadRulesetText(absl::StrCat("base: \"finkel\"\n# ", huge, "\n"));
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
}

// --- Garbage ---------------------------------------------------------------

TEST(GarbageTest, ReferencesNeverCrash) {
  const std::vector<std::string> nasty = {
      "",
      " ",
      "(",
      ")",
      "()",
      "((((",
      "))))",
      "finkel((",
      "finkel(()",
      "finkel(pieces=[",
      "finkel(pieces=]",
      "finkel(path=[A4,A3",
      "finkel(\"",
      "finkel(title=\"x)",
      "finkel(,,,,)",
      "finkel(=)",
      "finkel(pieces=99999999999999999999999)",
      "finkel(pieces=0x10)",
      "finkel(pieces=1e3)",
      "finkel(path=[\"\\\"\"])",
      "finkel(path=[A0,A99,Z1,B-1,\"\"])",
      "finkel(dice.count=8, dice.roll_for_marks=[15,15,15,15,15,15,15,15,15])",
      "finkel(dice.roll_for_marks=[])",
      "finkel(dice.count=-2147483648)",
      "finkel(safe_squares=[2147483647,-2147483648])",
      "finkel(phase_starts=[2,3,4,5,6,7,8,9,10,11,12,13,14])",
      "finkel(auto_place_squares=[1,2,3], auto_place_to=-5)",
      "finkel(board=7)",
      "finkel(bear_off=99)",
      "finkel(opening=-1)",
      "finkel(dice.dice.dice=1)",
      "finkel(.=1)",
      "finkel(pieces=5 pieces: 6)",
      std::string("finkel\0(pieces=5)", 17),
      std::string("fin\xff\xfekel"),
      "\xe2\x80\x8b" "finkel",
      "finkel(" + std::string(5000, '[') + ")",
      "finkel(path=" + std::string(5000, '[') + ")",
      "tablet-betting(((",
  };
  for (const std::string& ref : nasty) {
    SCOPED_TRACE(absl::CHexEscape(ref));
    std::vector<FieldProblem> problems;
    auto r = LoadRuleset(ref, &problems);
    if (r.ok()) {
      EXPECT_TRUE(CheckRuleset((*r)->ruleset).empty());
    } else {
      EXPECT_FALSE(problems.empty()) << r.status();
      EXPECT_FALSE(r.status().message().empty());
    }
  }
}

TEST(GarbageTest, TextsNeverCrash) {
  const std::vector<std::string> nasty = {
      "",
      "{",
      "}",
      "dice {",
      "dice { count: }",
      "path: [",
      "path: [\"A4\",",
      "pieces: \"seven\"",
      "pieces: 7 pieces: 8",
      "base: 1",
      "base: \"\"",
      "base: \"finkel\" base: \"sawah\"",
      "board: BOARD_MARS",
      "board: 42",
      "dice { count: 4 roll_for_marks: [0, 1, 2, 3, 4] } dice { count: 3 }",
      "path: [\"A4\"] path: [\"A3\"]",
      "\"unterminated",
      "# only a comment",
      std::string("pieces: 5\0garbage", 17),
      "\xff\xfe\xfd",
      std::string(3000, '{'),
      "dice " + std::string(3000, '{'),
      "dice { dice { dice { count: 1 } } }",
      "path: [\"A4\", \"A3\", \"A2\", \"A1\", \"B1\", \"B2\", \"B3\", \"B4\", \"B5\", \"B6\", "
      "\"B7\", \"B8\", \"A8\", \"A7\", \"B8\", \"B7\", \"B6\", \"B5\", \"B4\", \"B3\", \"B2\", "
      "\"B1\", \"A1\", \"A2\", \"A3\", \"A4\", \"A3\", \"A2\", \"A1\", \"B1\", \"B2\"] pieces: 15 "
      "dice { count: 8 roll_for_marks: [0, 15, 15, 15, 15, 15, 15, 15, 15] }",
      "base: \"finkel\" dark_path: []",
      "base: \"finkel\" dark_path: [\"C4\"]",
      "base: \"finkel\" path: []",
      "base: \"turnover\" phase_starts: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]",
  };
  for (const std::string& text : nasty) {
    SCOPED_TRACE(absl::CHexEscape(text.substr(0, 200)));
    std::vector<FieldProblem> problems;
    auto r = LoadRulesetText(text, &problems);
    if (r.ok()) {
      EXPECT_TRUE(CheckRuleset((*r)->ruleset).empty());
    } else {
      EXPECT_FALSE(problems.empty()) << r.status();
    }
  }
}

TEST(GarbageTest, BrokenProtoIsCheckedNotTrusted) {
  // CheckRuleset on hand-made protos, defaults not filled in.
  v1::Ruleset empty;
  EXPECT_FALSE(CheckRuleset(empty).empty());
  v1::Ruleset r = MustLoad("finkel")->ruleset;
  r.clear_dark_path();
  ExpectProblem(CheckRuleset(r), "dark_path", {"0", "14"});
  r = MustLoad("finkel")->ruleset;
  r.mutable_path()->RemoveLast();
  ExpectProblem(CheckRuleset(r), "dark_path", {"14", "13"});
}

}  // namespace
}  // namespace scribe
