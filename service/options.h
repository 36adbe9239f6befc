// The limits and tables a server runs with (scribed's flags set them).
#ifndef SCRIBE_SERVICE_OPTIONS_H_
#define SCRIBE_SERVICE_OPTIONS_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "engine/evaluator.h"

namespace scribe::service {

struct ServiceOptions {
  // Calls doing work at once; more get RESOURCE_EXHAUSTED at once instead
  // of queueing (health checks are not counted).
  int max_concurrent_calls = 64;
  // What one call's record input may hold (service/limits.h): its text in
  // bytes (the readers' memory grows with it: a JSON text takes up to 30
  // times its size while it is read), its records, and their actions,
  // summed over the records (text or structured).
  int64_t max_record_bytes = 4 << 20;
  int64_t max_records = 10000;
  int64_t max_record_actions = 200000;
  // The largest message received or sent (--max-message-mb): answers are
  // bounded to it before they are built.
  int64_t max_message_bytes = 16 << 20;
  // The deepest search (in throws) a request may ask for: SuggestMoves'
  // and AnnotateRecord's evaluation depth, and "search:N" opponents.
  int max_search_depth = 3;
  // Most actions one AnnotateRecord call annotates with a search's winning
  // chances (a table's exact values have no such limit: they are looked
  // up). At depth 3 an action costs 3 to 7 ms of a core: 1000 is one long
  // game of any preset, a few seconds.
  int max_search_actions = 1000;
  // Solved tables (service/tables.h), at most one per ruleset digest:
  // exact winning chances for their rulesets.
  std::vector<std::shared_ptr<const Evaluator>> tables;
};

}  // namespace scribe::service

#endif  // SCRIBE_SERVICE_OPTIONS_H_
