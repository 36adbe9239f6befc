// TSN, "Twenty Squares Notation": Scribe's text notation for game records
// (specified in docs/notation.md).
//
//   [TSN "1"]
//   [Ruleset "finkel"]
//   [Light "Ann"]
//   [Dark "Bo"]
//   [Result "light"]
//
//   1. L 3:0-3
//   2. D 1:0-1
//   3. L 1:3-4* 2:4-6
//   ...
//
// One turn per line; the throws a turn earned stay on its line; squares are
// path numbers or tile names; markers (x capture, * another throw, + a
// piece placed, # the game ends) are checked when present; comments in
// braces may carry annotations ([%key value]). Many games in one file.
#ifndef SCRIBE_RECORDS_TSN_H_
#define SCRIBE_RECORDS_TSN_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "records/judged.h"
#include "records/record_rules.h"
#include "records/json_record.h"
#include "records/referee.h"
#include "records/squares.h"
#include "scribe/v1/record.pb.h"

namespace scribe {

struct TsnWriteOptions {
  SquareStyle squares = SquareStyle::kPathNumbers;
};

// Reads every game of a TSN text. A game with a syntax error or an unusable
// ruleset gets a finding and is skipped; reading goes on with the next game.
// The result's `sources` say where each action was written, so findings
// about records can point at line and column.
// Each game is read under the rules RulesFor (records/record_rules.h)
// gives it under `policy`, and given policy.ruleset when it names none.
// With policy.rules (a user's ruleset, `--ruleset`) every game is read
// under them, even one whose own rules will judge it (conflict_is_finding:
// the judge says so), and its Ruleset tag need not name a resolvable
// ruleset.
ParsedRecords ReadTsn(absl::string_view text, const RulesPolicy& policy = {});

// The same, one game at a time, for callers that judge each game and keep
// none (validation): `each` gets every game read, in order, with its index
// in the file. The record and source are reused for the next game (their
// storage kept), so `each` moves them out to keep them. The result holds
// the findings and the count of entries; its records stay empty.
ParsedRecords ReadTsnEach(absl::string_view text,
                          absl::FunctionRef<void(v1::GameRecord& record, RecordSource& source, int index)> each,
                          const RulesPolicy& policy = {});

// Writes judged records in canonical TSN. Each must be a legal game (the
// turns and markers come from its verdict); otherwise an INVALID_ARGUMENT
// error says why.
absl::StatusOr<std::string> WriteTsn(const std::vector<JudgedRecord>& records, const TsnWriteOptions& options = {});
// The same for records not yet judged: each is judged under its own ruleset.
absl::StatusOr<std::string> WriteTsn(const std::vector<v1::GameRecord>& records,
                                     const TsnWriteOptions& options = {});

// The checks only the written form allows: the side letter of each turn,
// turn numbers, throws earned staying in their turn, markers, the Result
// tag. `source` is the reader's account of the record; `result` the
// referee's replay of it. Findings carry line and column; `lines` serves
// only for those (ValidateFile passes none first and builds the line
// starts only for a record with findings).
std::vector<v1::Finding> CheckTsnForm(const RecordSource& source, const RefereeResult& result,
                                      const v1::GameRecord& record, const LineIndex& lines,
                                      int record_index);

}  // namespace scribe

#endif  // SCRIBE_RECORDS_TSN_H_
