// SIGTERM and SIGINT for scribed, taken by one thread with sigwait from
// the very start, so that a process told to stop while it is still
// starting (waiting for another replica's migration of the game database,
// or for a database that does not answer) stops then, not once it serves.
#ifndef SCRIBE_SERVICE_STOP_SIGNALS_H_
#define SCRIBE_SERVICE_STOP_SIGNALS_H_

#include <signal.h>

#include <condition_variable>
#include <functional>
#include <mutex>

namespace scribe::service {

class StopSignals {
 public:
  // Blocks the signals in this thread and every thread started after (do
  // it before gRPC starts its threads), and starts the thread that waits
  // for them. A signal before Serving() calls `before_serving(signal)`,
  // which ends the process.
  explicit StopSignals(std::function<void(int)> before_serving);
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  // From now on a signal is handed to Wait() (the drain).
  void Serving();
  // The first signal after Serving().
  int Wait();

 private:
  void Run();

  sigset_t signals_;
  std::function<void(int)> before_serving_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool serving_ = false;
  int signal_ = 0;
};

}  // namespace scribe::service

#endif  // SCRIBE_SERVICE_STOP_SIGNALS_H_
