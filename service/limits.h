// What one call may hold and answer, decided before the work: memory is
// bounded per call by design. A record input's text is bounded in bytes
// (ReadInput); its records are counted as they are read, before any is
// judged, against the server's limits of records and actions in one call,
// and against what keeps the answer within the largest message the server
// sends (each answer is estimated from its records and actions, at most so
// many bytes an action). A call past a limit is INVALID_ARGUMENT naming the
// field and the limit, never RESOURCE_EXHAUSTED (which means overload).
#ifndef SCRIBE_SERVICE_LIMITS_H_
#define SCRIBE_SERVICE_LIMITS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "google/protobuf/message.h"
#include "records/formats.h"
#include "scribe/v1/scribe_service.pb.h"
#include "service/errors.h"
#include "service/options.h"

namespace scribe::service {

// An answer's size, bounded from its input before it is built.
struct AnswerSize {
  const char* verb;         // what the method does, for messages: "replays"
  int64_t per_action = 0;   // bytes at most for each action
  int64_t per_record = 0;   // and for each record
  int input_copies = 0;     // times the input's own text (tags, comments) may be carried
};

// ValidateRecord(s): findings only (a few per record).
AnswerSize ValidateAnswer();
// ReplayRecord: a step per action (its legal moves and the position after).
AnswerSize ReplayAnswer();
// AnnotateRecord: an annotation per action, and the annotated text when
// `with_text`.
AnswerSize AnnotateAnswer(bool with_text);
// ConvertRecord: the records and their text in `to`.
AnswerSize ConvertAnswer(Format to);

// The bytes of a record input: its text, or its structured record.
int64_t InputBytes(const v1::RecordInput& input);

// The limits of one call's input for an answer of `answer`'s size, the input
// `input_bytes` long.
struct CallLimits {
  JudgeLimits judge;
  AnswerSize answer;
  int64_t max_message_bytes = 0;
  // What the answer may take of a message: the message less the input's
  // text it may carry, and a margin.
  int64_t room = 0;
  // True when judge.max_actions (max_records) is the answer's bound, not
  // --max-record-actions (--max-records).
  bool actions_by_answer = false;
  bool records_by_answer = false;
};
// The judging polls `stop` (the call's) before each record.
CallLimits LimitsFor(const AnswerSize& answer, const ServiceOptions& options, int64_t input_bytes,
                     StopCheck stop = {});

// The violation under `field` of an input of `records` records and
// `actions` actions that passes `limits`; false when it passes none.
bool CheckLimits(const CallLimits& limits, const std::string& field, int64_t records, int64_t actions,
                 std::vector<FieldViolation>* violations);

// The answer as built, against the largest message (the estimate is a
// bound, this is the last word): false with a violation under `field`.
bool CheckAnswer(const google::protobuf::Message& response, const CallLimits& limits, const std::string& field,
                 std::vector<FieldViolation>* violations);

}  // namespace scribe::service

#endif  // SCRIBE_SERVICE_LIMITS_H_
