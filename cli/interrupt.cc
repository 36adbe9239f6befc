#include "cli/interrupt.h"

#include <signal.h>

#include <atomic>

namespace scribe {
namespace {

std::atomic<bool> interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");

extern "C" void OnInterrupt(int) { interrupted.store(true); }

}  // namespace

StopCheck StopOnInterrupt() {
  struct sigaction on_interrupt = {};
  on_interrupt.sa_handler = OnInterrupt;
  sigemptyset(&on_interrupt.sa_mask);
  sigaction(SIGINT, &on_interrupt, nullptr);
  sigaction(SIGTERM, &on_interrupt, nullptr);
  return [] { return interrupted.load(); };
}

bool Interrupted() { return interrupted.load(); }

}  // namespace scribe
