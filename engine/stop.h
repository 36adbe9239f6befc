// A caller's wish that long work stop, handed down into the loops that can
// run long: the search (engine/search.h), the solver (engine/solver.h), and
// the annotation built on them (review/annotate.h). Each polls it often
// enough to stop within a few milliseconds; stopped work returns at once,
// its result unusable (CANCELLED where it returns a status).
//
// The service asks its call (the client cancelled, the deadline passed, the
// server is stopping); the command line, whether SIGINT came. Knows nothing
// of either.
#ifndef SCRIBE_ENGINE_STOP_H_
#define SCRIBE_ENGINE_STOP_H_

#include <functional>

#include "absl/status/status.h"

namespace scribe {

// True once the work should stop; may be called from any thread, so it
// must be thread-safe. Empty: never stop.
using StopCheck = std::function<bool()>;

inline bool StopRequested(const StopCheck& stop) { return stop && stop(); }

// What stopped work returns.
inline absl::Status Stopped() { return absl::CancelledError("stopped: the caller gave up"); }

}  // namespace scribe

#endif  // SCRIBE_ENGINE_STOP_H_
