// A request's fields read and checked: each function turns part of a
// request into what the handler works with, or appends the
// google.rpc.BadRequest violations that say why it cannot (the handler
// sends them all, in the order found).
#ifndef SCRIBE_SERVICE_REQUESTS_H_
#define SCRIBE_SERVICE_REQUESTS_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

#include "engine/bots.h"
#include "engine/position.h"
#include "engine/ruleset.h"
#include "google/protobuf/message.h"
#include "records/formats.h"
#include "scribe/v1/scribe_service.pb.h"
#include "service/errors.h"
#include "service/options.h"

namespace scribe::service {

// A search's depth when a request names none (capped by the server's).
inline constexpr int kDefaultSearchDepth = 2;

// The format a request names; none for UNSPECIFIED or a value this server
// does not know.
std::optional<Format> ToFormat(v1::RecordFormat format);

// The rules a selector names, null with violations under `field` when it
// names none (only when `required`) or broken rules. Never reads a file: a
// reference is resolved among the built-in presets only.
std::shared_ptr<const Rules> ResolveSelector(const v1::RulesetSelector& selector, const std::string& field,
                                             bool required, std::vector<FieldViolation>* violations);

// A record input, read: a text in a format, or a structured record, with
// the rules it is read under.
struct Input {
  Format format = Format::kJson;
  absl::string_view text;  // the request's own bytes: the request outlives the Input
  RulesPolicy io;  // the rules it is read and judged under
  bool structured = false;
  v1::GameRecord record;
};

// Reads `in` into `out`; false with violations under `field` when the
// request itself is unusable (no record, a text too long, an unknown
// format or a broken ruleset). Its records and actions are counted against
// the limits later, as they are read (service/records_io.h).
bool ReadInput(const v1::RecordInput& in, const std::string& field, const ServiceOptions& options, Input* out,
               std::vector<FieldViolation>* violations);

// The findings of an input that is not legal, as violations under `field`
// ("line L:C: action N: [code] message").
void AddFindings(const v1::FileReport& report, const std::string& field, std::vector<FieldViolation>* violations);

// What is sent back (records, texts written from them) is proto3 strings,
// which a client's parser refuses unless they are UTF-8: false with a
// violation per record of `input` that has a field in another encoding.
bool CheckUtf8(const Input& input, const std::string& field, const std::vector<JudgedRecord>& records,
               std::vector<FieldViolation>* violations);

// Resolves the ruleset, position and throw of a referee request
// (ListLegalMoves, MakeMove, SuggestMoves); false with a violation for
// each of them that is unusable, in that order (without rules, only a
// negative throw is one).
bool RefereeInputs(const v1::RulesetSelector& selector, const std::string& position, int roll,
                   std::shared_ptr<const Rules>* rules, Position* pos, std::vector<FieldViolation>* violations);

// MakeMove's move, among the legal moves of its throw: none with a
// violation under "move" when it is not one of them.
std::optional<Move> CheckMove(const v1::Move& move, int roll, const MoveList& legal,
                              std::vector<FieldViolation>* violations);

// An Evaluation of a request, checked.
struct EvaluationChoice {
  v1::EvaluationMode mode = v1::EVALUATION_MODE_UNSPECIFIED;
  int depth = kDefaultSearchDepth;
};

// Violations under `field` for a mode this server does not know or a depth
// past its cap.
EvaluationChoice CheckEvaluation(const v1::Evaluation& evaluation, const std::string& field,
                                 const ServiceOptions& options, std::vector<FieldViolation>* violations);

// SuggestMoves' strength (empty: none): a violation under "strength" for
// one the parser refuses or one that searches deeper than this server does.
std::optional<BotSpec> CheckStrength(const std::string& strength, const ServiceOptions& options,
                                     std::vector<FieldViolation>* violations);

// Items [start, end) of a list of `total`: the page a page size and token
// ask for, with violations for a negative size or a token this server did
// not give (then the page is empty).
struct Page {
  int start = 0;
  int end = 0;
};
Page CheckPage(int page_size, const std::string& page_token, int total, std::vector<FieldViolation>* violations);

}  // namespace scribe::service

#endif  // SCRIBE_SERVICE_REQUESTS_H_
