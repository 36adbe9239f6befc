// Ends a stream whose client sends nothing for a while: an idle client
// must not hold a call's slot and its batch for ever.
#ifndef SCRIBE_SERVICE_IDLE_WATCH_H_
#define SCRIBE_SERVICE_IDLE_WATCH_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace scribe::service {

// The clock runs only while the server waits for the client's next
// message (Waiting() before each read, Received() when one came): the time
// the server spends judging and writing a message is not the client's
// silence. When it has run `seconds`, `cancel` is called once (for a call:
// its context's TryCancel, so the read waiting returns) and fired() is
// true. `seconds` ≤ 0: never. The clock is checked every 200 ms.
class IdleWatch {
 public:
  IdleWatch(int seconds, std::function<void()> cancel);
  ~IdleWatch();
  IdleWatch(const IdleWatch&) = delete;
  IdleWatch& operator=(const IdleWatch&) = delete;

  void Waiting();
  void Received();
  bool fired() const { return fired_.load(); }

 private:
  using Clock = std::chrono::steady_clock;
  const int seconds_;
  const std::function<void()> cancel_;
  std::atomic<Clock::time_point> since_;  // when the wait began
  std::atomic<bool> waiting_{false};
  std::atomic<bool> fired_{false};
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace scribe::service

#endif  // SCRIBE_SERVICE_IDLE_WATCH_H_
