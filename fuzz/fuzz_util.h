// Shared helpers for Scribe's libFuzzer targets (fuzz/*_fuzz.cc).
//
// Every target reads at most kMaxInput bytes, never aborts on bad input,
// and checks a property of what it accepted (a round trip, an invariant);
// a broken property prints what broke to stderr and aborts, which libFuzzer
// reports as a crash and saves the input.
#ifndef SCRIBE_FUZZ_FUZZ_UTIL_H_
#define SCRIBE_FUZZ_FUZZ_UTIL_H_

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "engine/rules.h"
#include "engine/ruleset.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/message.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/stubs/logging.h"
#include "google/protobuf/util/message_differencer.h"

// For the targets' own reference code (engine_checks.h): no coverage
// feedback and no comparison tracing, which would slow every step down
// and steer the fuzzer by the checker's branches instead of the engine's.
#if defined(__clang__)
#define SCRIBE_FUZZ_NO_COVERAGE __attribute__((no_sanitize("coverage")))
#else
#define SCRIBE_FUZZ_NO_COVERAGE
#endif

namespace scribe::fuzz {

// Inputs longer than this are refused unread (and not kept in the corpus).
inline constexpr size_t kMaxInput = 64 * 1024;

// What LLVMFuzzerTestOneInput returns for an input it refuses: libFuzzer
// then does not add it to the corpus.
inline constexpr int kRejectInput = -1;

// Protobuf logs every invalid UTF-8 string it parses: a minute of fuzzing
// would write hundreds of MB of log.
inline void SilenceProtobufLogs() { google::protobuf::SetLogHandler(nullptr); }

// `text` read as `message`'s protobuf text format, without a word on
// errors: false, and `message` cleared, when it is not.
inline bool ParseTextFormat(absl::string_view text, google::protobuf::Message* message) {
  google::protobuf::TextFormat::Parser parser;
  class Silent : public google::protobuf::io::ErrorCollector {
   public:
    void AddError(int, int, const std::string&) override {}
    void AddWarning(int, int, const std::string&) override {}
  } silent;
  parser.RecordErrorsTo(&silent);
  if (parser.ParseFromString(std::string(text), message)) return true;
  message->Clear();
  return false;
}

// Reports a broken property and aborts (libFuzzer saves the input).
[[noreturn]] inline void Fail(absl::string_view property, absl::string_view detail) {
  std::fprintf(stderr, "\n==== PROPERTY BROKEN: %.*s\n%.*s\n====\n",
               static_cast<int>(property.size()), property.data(), static_cast<int>(detail.size()),
               detail.data());
  std::fflush(stderr);
  std::abort();
}

// FUZZ_CHECK(cond, detail...): the arguments after the condition are
// absl::StrCat'ed into the report, and only evaluated on failure.
#define FUZZ_CHECK(cond, ...)                                                                  \
  do {                                                                                         \
    if (!(cond)) {                                                                             \
      ::scribe::fuzz::Fail(#cond, ::absl::StrCat(__FILE__, ":", __LINE__, ": ", __VA_ARGS__)); \
    }                                                                                          \
  } while (false)

// A short, printable form of some bytes, for reports.
inline std::string Shown(absl::string_view text, size_t limit = 600) {
  if (text.size() > limit) {
    return absl::StrCat("\"", absl::CHexEscape(text.substr(0, limit)), "\"... (", text.size(),
                        " bytes)");
  }
  return absl::StrCat("\"", absl::CHexEscape(text), "\"");
}

// Whether two messages are equal field by field (presence included);
// `diff` says how they differ when they do not.
inline bool SameMessage(const google::protobuf::Message& a, const google::protobuf::Message& b,
                        std::string* diff) {
  google::protobuf::util::MessageDifferencer differencer;
  diff->clear();
  differencer.ReportDifferencesToString(diff);
  return differencer.Compare(a, b);
}

// Every preset id and alias, in the order Presets() lists them.
inline const std::vector<std::string>& PresetNames() {
  static const std::vector<std::string>* names = [] {
    auto* out = new std::vector<std::string>;
    for (const PresetInfo& p : Presets()) {
      out->push_back(p.id);
      for (const std::string& alias : p.aliases) out->push_back(alias);
    }
    return out;
  }();
  return *names;
}

// Loads a reference that must resolve (a preset, or one of the targets' own
// fixed references); a failure is a broken property, not a bad input.
inline std::shared_ptr<const Rules> MustLoad(const std::string& reference) {
  std::vector<FieldProblem> problems;
  auto rules = LoadRuleset(reference, &problems);
  FUZZ_CHECK(rules.ok(), "the reference ", reference,
             " does not resolve: ", rules.status().message());
  return *rules;
}

}  // namespace scribe::fuzz

#endif  // SCRIBE_FUZZ_FUZZ_UTIL_H_
