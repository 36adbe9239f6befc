#include "service/limits.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"

namespace scribe::service {

namespace {

// Room kept in every message for what the bounds do not count (the
// response's own fields, framing).
constexpr int64_t kMessageMargin = 64 << 10;

// What the answer may use of the largest message: the message less the
// input's text it may carry and the margin.
int64_t Room(const AnswerSize& answer, int64_t max_message_bytes, int64_t input_bytes) {
  return std::max<int64_t>(0, max_message_bytes - answer.input_copies * input_bytes - kMessageMargin);
}

std::string Mib(int64_t bytes) {
  return bytes % (1 << 20) == 0 ? absl::StrCat(bytes >> 20, " MiB") : absl::StrCat(bytes, " bytes");
}

}  // namespace

// The bounds are a few times what the presets' games take (a finkel game's
// replay step is about 50 bytes, its annotation 130, its RoyalUr JSON 85),
// and hold for any ruleset's largest board and piece count.
AnswerSize ValidateAnswer() { return {"validates", 0, 1000, 0}; }
AnswerSize ReplayAnswer() { return {"replays", 200, 200, 0}; }
AnswerSize AnnotateAnswer(bool with_text) {
  return with_text ? AnswerSize{"annotates", 500, 400, 1} : AnswerSize{"annotates", 250, 400, 0};
}
AnswerSize ConvertAnswer(Format to) {
  int64_t text = 40;
  switch (to) {
    case Format::kTsn: text = 32; break;
    case Format::kJson: text = 40; break;
    case Format::kRgn: text = 32; break;
    case Format::kRoyalUrJson: text = 160; break;
  }
  return {"converts", 16 + text, 500, 2};
}

int64_t InputBytes(const v1::RecordInput& input) {
  return input.has_record() ? static_cast<int64_t>(input.record().ByteSizeLong())
                            : static_cast<int64_t>(input.text().size());
}

CallLimits LimitsFor(const AnswerSize& answer, const ServiceOptions& options, int64_t input_bytes,
                     StopCheck stop) {
  CallLimits limits;
  limits.judge.stop = std::move(stop);
  limits.answer = answer;
  limits.max_message_bytes = options.max_message_bytes;
  const int64_t room = Room(answer, options.max_message_bytes, input_bytes);
  limits.room = room;
  limits.judge.max_actions = options.max_record_actions;
  if (answer.per_action > 0 && room / answer.per_action < limits.judge.max_actions) {
    limits.judge.max_actions = room / answer.per_action;
    limits.actions_by_answer = true;
  }
  limits.judge.max_records = options.max_records;
  if (answer.per_record > 0 && room / answer.per_record < limits.judge.max_records) {
    limits.judge.max_records = room / answer.per_record;
    limits.records_by_answer = true;
  }
  // An input with no record at all is still judged (its finding says so).
  limits.judge.max_records = std::max<int64_t>(limits.judge.max_records, 1);
  limits.judge.max_actions = std::max<int64_t>(limits.judge.max_actions, 1);
  return limits;
}

bool CheckLimits(const CallLimits& limits, const std::string& field, int64_t records, int64_t actions,
                 std::vector<FieldViolation>* violations) {
  const AnswerSize& a = limits.answer;
  const int64_t room = limits.room;
  const int64_t estimate = a.per_action * actions + a.per_record * records;
  const std::string fit =
      absl::StrCat("the answer, up to ", a.per_action, " bytes an action and ", a.per_record, " a record",
                   a.input_copies > 0 ? absl::StrCat(" besides the input's own text (", a.input_copies,
                                                     a.input_copies == 1 ? " time)" : " times)")
                                      : "",
                   ", must fit in ", Mib(limits.max_message_bytes), " (--max-message-mb)");
  if (records > limits.judge.max_records) {
    violations->push_back(
        {field, absl::StrCat(records, " records is more than the ", limits.judge.max_records, " this server ", a.verb,
                             " in one call (", limits.records_by_answer ? fit : "--max-records",
                             "); send fewer records in each call")});
    return false;
  }
  if (actions > limits.judge.max_actions) {
    violations->push_back({field, absl::StrCat(actions, " actions is more than the ", limits.judge.max_actions,
                                               " this server ", a.verb, " in one call (",
                                               limits.actions_by_answer ? fit : "--max-record-actions", ")")});
    return false;
  }
  if (estimate > room) {
    // Each count alone fits, not both together.
    const int64_t fits = (room - a.per_record * records) / std::max<int64_t>(a.per_action, 1);
    violations->push_back({field, absl::StrCat(actions, " actions in ", records, " records is more than this server ",
                                               a.verb, " in one call (", fit, "): at most ", std::max<int64_t>(fits, 0),
                                               " actions in that many records")});
    return false;
  }
  return true;
}

bool CheckAnswer(const google::protobuf::Message& response, const CallLimits& limits, const std::string& field,
                 std::vector<FieldViolation>* violations) {
  const size_t bytes = response.ByteSizeLong();
  if (static_cast<int64_t>(bytes) <= limits.max_message_bytes) return true;
  violations->push_back({field, absl::StrCat("the answer would be ", bytes, " bytes, more than the ",
                                             Mib(limits.max_message_bytes), " this server sends (--max-message-mb); "
                                             "send fewer records or actions in each call")});
  return false;
}

}  // namespace scribe::service
