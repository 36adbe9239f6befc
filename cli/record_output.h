// What the record commands print besides the records themselves: the
// progress bar of `scribe validate`, findings as text, the text of `scribe
// replay`, and the SVG files of `replay --svg` and `annotate --graph`.
#ifndef SCRIBE_CLI_RECORD_OUTPUT_H_
#define SCRIBE_CLI_RECORD_OUTPUT_H_

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "engine/evaluator.h"
#include "engine/rules.h"
#include "records/judged.h"
#include "review/annotate.h"
#include "records/referee.h"
#include "scribe/v1/record.pb.h"

namespace scribe {

// A progress bar on standard error, when it is a terminal and the run is
// long enough to want one. Results go through Print, which ends the bar's
// line before a line that shows on the same terminal (every line to
// standard error; standard output's when it is that terminal too) and
// draws the bar again after it. Finish clears it for good (before a result
// printed otherwise); the destructor does too.
class Progress {
 public:
  explicit Progress(size_t total);
  ~Progress();
  void Step();
  // Prints `line` and a line end to `out` (std::cout or std::cerr).
  void Print(std::ostream& out, const std::string& line);
  void Finish();

 private:
  void Draw();
  void Clear();
  size_t total_, done_ = 0;
  bool enabled_, drawn_ = false;
  bool stdout_on_bar_ = false;  // standard output is the bar's terminal
  int last_ = -1;
};

// "file:line:column: error[code]: message (record R, action A)".
std::string FindingToText(const std::string& file, const v1::Finding& f);

// The replay of a judged record as JSON (scribe.v1.Replay), written step by
// step as it is made (ReplaySteps, JsonMessageStream), without a newline.
void PrintReplayJson(const RefereeResult& verdict, const v1::GameRecord& record);

// The annotation of a judged legal record as JSON (scribe.v1.Annotation),
// with winning chances when `evaluator` is set, written action by action
// (AnnotationSteps), without a newline. Fails, writing nothing, as
// AnnotationSteps::Start does.
absl::Status PrintAnnotationJson(const JudgedRecord& judged, const Evaluator* evaluator);

// The text of `scribe replay`. With `board` (the verdict judged with
// keep_positions), the text board of the start and of the position after
// every action (review/render.h) follows each
// line.
void PrintReplayText(const RefereeResult& result, const v1::GameRecord& record, bool board = false);

// Writes the SVG of the record's position after `at` actions (-1: all of
// them that are legal), from the verdict's positions (judged with
// keep_positions). False, with a message, when there is no such position or
// the file cannot be written.
bool WriteSvg(const RefereeResult& verdict, const v1::GameRecord& record, int at, const std::string& path);

// Writes the SVG graph of light's winning chance over an annotated record.
// False, with a message, when it cannot.
bool WriteChanceGraph(const AnnotatedRecord& annotated, const v1::GameRecord& record, const std::string& path);

}  // namespace scribe

#endif  // SCRIBE_CLI_RECORD_OUTPUT_H_
