// The one path from a file's text to judged records (records/formats.h
// JudgeFile, ValidateFile; records/judged.h Judge; records/record_rules.h): each record judged once,
// its verdict kept and handed on, writers writing from the verdict.
#include "records/judged.h"

#include <memory>
#include <string>
#include <vector>

#include "engine/ruleset.h"
#include "gtest/gtest.h"
#include "records/formats.h"
#include "records/json_record.h"
#include "records/random_game.h"
#include "records/tsn.h"
#include "tests/common/test_rules.h"

namespace scribe {
namespace {

v1::GameRecord FinkelGame(uint64_t seed, const std::string& ruleset = "finkel") {
  const std::shared_ptr<const Rules> rules = MustLoad("finkel");
  Rng rng(seed);
  RandomGameOptions options;
  options.ruleset = ruleset;
  RandomGameResult game = PlayRandomGame(*rules, rng, options);
  EXPECT_TRUE(game.over);
  return game.record;
}

std::string JsonArray(const std::vector<v1::GameRecord>& records) {
  std::string out = "[";
  for (size_t k = 0; k < records.size(); ++k) out += (k ? ",\n" : "") + WriteJsonRecord(records[k]);
  return out + "]";
}

TEST(JudgeFileTest, KeepsEveryRecordWithItsVerdictAndPositions) {
  const std::vector<v1::GameRecord> games = {FinkelGame(1), FinkelGame(2), FinkelGame(3)};
  JudgeOptions options;
  options.referee.keep_positions = true;
  const JudgedFile file = JudgeFile("games.json", JsonArray(games), Format::kJson, {}, options);
  EXPECT_TRUE(file.report.valid());
  EXPECT_EQ(file.entries, 3);
  ASSERT_EQ(file.records.size(), 3u);
  for (size_t k = 0; k < games.size(); ++k) {
    const JudgedRecord& j = file.records[k];
    EXPECT_EQ(j.index, static_cast<int>(k));
    EXPECT_TRUE(j.verdict.valid());
    ASSERT_NE(j.verdict.rules, nullptr);
    EXPECT_EQ(j.verdict.outcomes.size(), static_cast<size_t>(games[k].actions_size()));
    // The start and the position after every action; the last one is won.
    ASSERT_EQ(j.verdict.positions.size(), static_cast<size_t>(games[k].actions_size()) + 1);
    EXPECT_EQ(j.verdict.positions.front(), StartPosition(*j.verdict.rules));
    EXPECT_TRUE(IsOver(*j.verdict.rules, j.verdict.positions.back()));
    EXPECT_EQ(j.verdict.positions.back(), j.verdict.final_position);
    // The replay was not asked for.
    EXPECT_EQ(j.verdict.replay.actions_size(), 0);
  }
}

TEST(JudgeFileTest, ValidationKeepsNothingButFindsTheSame) {
  v1::GameRecord bad = FinkelGame(4);
  bad.mutable_actions(3)->set_roll(9);
  const std::string text = JsonArray({FinkelGame(5), bad});
  const JudgedFile none = ValidateFile("f.json", text, Format::kJson);
  const JudgedFile all = JudgeFile("f.json", text, Format::kJson);
  EXPECT_TRUE(none.records.empty());
  ASSERT_EQ(all.records.size(), 2u);
  EXPECT_EQ(none.report.SerializeAsString(), all.report.SerializeAsString());
  EXPECT_EQ(none.entries, all.entries);
  ASSERT_EQ(all.report.findings_size(), 1);
  EXPECT_EQ(all.report.findings(0).code(), "roll-impossible");
  EXPECT_EQ(all.report.findings(0).record_index(), 1);
  // The verdict keeps the referee's own finding.
  ASSERT_EQ(all.records[1].verdict.findings.size(), 1u);
  EXPECT_EQ(all.records[1].verdict.findings[0].action_index(), 3);
}

// JudgeFile keeps every record, legal or not: the report says whether the
// file may be passed on, and each verdict whether its record may.
TEST(JudgeFileTest, AnIllegalRecordIsKeptWithItsVerdictAndTheReportSaysSo) {
  v1::GameRecord bad = FinkelGame(6);
  bad.mutable_actions(0)->set_to(bad.actions(0).to() + 1);
  const JudgedFile file = JudgeFile("f.json", JsonArray({FinkelGame(7), bad}), Format::kJson);
  EXPECT_FALSE(file.report.valid());
  ASSERT_EQ(file.records.size(), 2u);
  EXPECT_TRUE(file.records[0].verdict.valid());
  EXPECT_FALSE(file.records[1].verdict.valid());
  EXPECT_FALSE(RequireLegal(file.records[1], "TSN").ok());
  const JudgedFile good = JudgeFile("f.json", JsonArray({FinkelGame(7)}), Format::kJson);
  EXPECT_TRUE(good.report.valid());
  EXPECT_EQ(good.records.size(), 1u);
}

TEST(JudgeTest, TheRulesetIsFilledInOnlyWhereTheRecordNamesNone) {
  RulesPolicy io;
  io.ruleset = "finkel";
  v1::GameRecord unnamed = FinkelGame(8, "");
  const JudgedRecord a = Judge(unnamed, io);
  EXPECT_EQ(a.record.ruleset(), "finkel");
  EXPECT_TRUE(a.verdict.valid());
  const JudgedRecord b = Judge(FinkelGame(8, "finkel(pieces=7)"), io);
  EXPECT_EQ(b.record.ruleset(), "finkel(pieces=7)");
  // Without a name and without io, the referee says so.
  const JudgedRecord c = Judge(unnamed, {});
  ASSERT_FALSE(c.verdict.valid());
  EXPECT_EQ(c.verdict.findings[0].code(), "ruleset-missing");
}

TEST(JudgeTest, GivenRulesThatConflictWithTheRecordsOwnAreAFindingWhenAsked) {
  RulesPolicy io;
  io.rules = MustLoad("masters");
  io.ruleset = "masters";
  const v1::GameRecord finkel = FinkelGame(9);  // legal under finkel, not under masters
  // Off (the service's ruleset field): the given rules judge every record.
  EXPECT_FALSE(Judge(finkel, io).verdict.valid());
  EXPECT_NE(Judge(finkel, io).verdict.findings[0].code(), "ruleset-conflict");
  // On (the command line's --ruleset): judged by its own, with the conflict.
  io.conflict_is_finding = true;
  const JudgedRecord a = Judge(finkel, io);
  ASSERT_EQ(a.verdict.findings.size(), 1u);
  EXPECT_EQ(a.verdict.findings[0].code(), "ruleset-conflict");
  EXPECT_NE(a.verdict.findings[0].message().find("\"finkel\""), std::string::npos);
  EXPECT_NE(a.verdict.findings[0].message().find("\"masters\""), std::string::npos);
  // The same rules by another name, a name that does not resolve, or none:
  // the given rules, no finding.
  io.rules = MustLoad("finkel(pieces=7)");
  io.ruleset = "finkel(pieces=7)";
  EXPECT_TRUE(Judge(finkel, io).verdict.valid());
  EXPECT_TRUE(Judge(FinkelGame(9, "my-own-rules"), io).verdict.valid());
  EXPECT_TRUE(Judge(FinkelGame(9, ""), io).verdict.valid());
}

TEST(WriteRecordsTest, WritesFromTheVerdictUnderTheRulesItWasJudgedBy) {
  // Rules of one's own, named by an id no preset has: a writer that judged
  // the record again by its name would find no such ruleset.
  auto own = LoadRulesetText("base: \"finkel\"\nid: \"club-rules\"\n");
  ASSERT_TRUE(own.ok()) << own.status();
  RulesPolicy io;
  io.rules = *own;
  io.ruleset = "club-rules";
  const std::string text = WriteJsonRecord(FinkelGame(9, "club-rules"));
  const JudgedFile file = JudgeFile("g.json", text, Format::kJson, io);
  ASSERT_TRUE(file.report.valid());
  for (Format f : {Format::kTsn, Format::kJson}) {
    auto out = WriteRecords(f, file.records);
    ASSERT_TRUE(out.ok()) << FormatName(f) << ": " << out.status();
    // And it reads back to the same legal game under the same rules.
    const JudgedFile back = JudgeFile("back", *out, f, io);
    EXPECT_TRUE(back.report.valid()) << FormatName(f) << "\n" << *out;
    ASSERT_EQ(back.records.size(), 1u);
    EXPECT_EQ(back.records[0].record.actions_size(), file.records[0].record.actions_size());
  }
  // Judged by its name alone, the same record is not a legal game.
  auto plain = WriteRecords(Format::kTsn, std::vector<v1::GameRecord>{file.records[0].record});
  EXPECT_FALSE(plain.ok());
}

TEST(RequireLegalTest, SaysTheFormatTheActionAndWhy) {
  v1::GameRecord bad = FinkelGame(10);
  bad.mutable_actions(2)->set_roll(7);
  const JudgedRecord j = Judge(bad, {});
  const absl::Status s = RequireLegal(j, "TSN");
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message().substr(0, 52), "cannot write an illegal record as TSN: action 2: 7 i");
  EXPECT_TRUE(RequireLegal(Judge(FinkelGame(10), {}), "TSN").ok());
  EXPECT_EQ(InRecord(s, 3, 5).message().substr(0, 10), "record 3: ");
  EXPECT_EQ(InRecord(s, 0, 1).message(), s.message());
}


// Limits are counted as records are read, before each is judged, in every
// format: once one is passed nothing more is judged (a broken record past
// it has no finding), every record and action is still counted, and no
// record is handed on.
TEST(JudgeFileTest, LimitsAreCountedBeforeTheWorkInEveryFormat) {
  v1::GameRecord broken = FinkelGame(9);
  broken.mutable_actions(3)->set_roll(9);
  const std::vector<v1::GameRecord> games = {FinkelGame(7), FinkelGame(8), broken};
  const int64_t all_actions = games[0].actions_size() + games[1].actions_size() + games[2].actions_size();
  RulesPolicy io;
  io.ruleset = "finkel";
  for (const Format format : {Format::kTsn, Format::kJson, Format::kRgn, Format::kRoyalUrJson}) {
    SCOPED_TRACE(FormatName(format));
    // Written from the two legal games, the broken one appended by hand: a
    // writer writes only legal records.
    std::vector<v1::GameRecord> all = games;
    std::string text;
    if (format == Format::kJson) {
      text = JsonArray(all);
    } else {
      // The broken game's roll is checked by the referee only: write it
      // legal, judge it under a limit that stops before it.
      all[2] = FinkelGame(9);
      auto written = WriteRecords(format, all);
      ASSERT_TRUE(written.ok()) << written.status();
      text = *written;
    }
    JudgeOptions options;
    options.limits.max_records = 2;
    const JudgedFile two = JudgeFile("f", text, format, io, options);
    EXPECT_TRUE(two.over_limit);
    EXPECT_FALSE(two.report.valid());
    EXPECT_TRUE(two.records.empty());
    EXPECT_EQ(two.records_read, 3);
    EXPECT_EQ(two.actions_read, format == Format::kJson ? all_actions
                                                        : all_actions - games[2].actions_size() +
                                                              all[2].actions_size());
    EXPECT_EQ(two.report.findings_size(), 0) << "nothing past the limit is judged";

    options.limits = {.max_actions = games[0].actions_size(), .max_records = 0, .stop = {}};
    const JudgedFile one = JudgeFile("f", text, format, io, options);
    EXPECT_TRUE(one.over_limit);
    EXPECT_EQ(one.records_read, 3);

    options.limits = {.max_actions = two.actions_read, .max_records = 3, .stop = {}};
    const JudgedFile within = JudgeFile("f", text, format, io, options);
    EXPECT_FALSE(within.over_limit);
    EXPECT_EQ(within.records.size(), 3u);
    EXPECT_EQ(within.report.valid(), format != Format::kJson);  // the broken JSON game is judged now
  }
}

}  // namespace
}  // namespace scribe
