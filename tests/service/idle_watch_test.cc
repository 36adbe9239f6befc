// The idle watch of import streams (service/idle_watch.h): it times only
// the waits for the client, never the server's own work on a message.
#include "service/idle_watch.h"

#include <atomic>
#include <chrono>
#include <thread>

#include "gtest/gtest.h"

namespace scribe::service {
namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

// Waits up to `limit` for the watch to fire; how long it took.
milliseconds UntilFired(const IdleWatch& watch, milliseconds limit) {
  const Clock::time_point start = Clock::now();
  while (!watch.fired() && Clock::now() - start < limit) std::this_thread::sleep_for(milliseconds(20));
  return std::chrono::duration_cast<milliseconds>(Clock::now() - start);
}

TEST(IdleWatchTest, AWaitLongerThanItsSecondsCancelsOnce) {
  std::atomic<int> cancels{0};
  IdleWatch watch(1, [&] { ++cancels; });
  watch.Waiting();
  const milliseconds took = UntilFired(watch, milliseconds(10000));
  EXPECT_TRUE(watch.fired());
  EXPECT_GE(took.count(), 1000);
  std::this_thread::sleep_for(milliseconds(500));
  EXPECT_EQ(cancels.load(), 1);
}

// The defect this class had: a message that took the server longer than
// the limit to judge and write (a loaded machine, a slow database) ended
// a stream whose client was sending.
TEST(IdleWatchTest, TheServersWorkOnAMessageIsNotTheClientsSilence) {
  std::atomic<int> cancels{0};
  IdleWatch watch(1, [&] { ++cancels; });
  watch.Waiting();
  watch.Received();                                    // a message came at once
  std::this_thread::sleep_for(milliseconds(1800));     // and took the server 1.8 s
  EXPECT_FALSE(watch.fired());
  EXPECT_EQ(cancels.load(), 0);
  watch.Waiting();  // the next wait is timed from its own start
  std::this_thread::sleep_for(milliseconds(300));
  EXPECT_FALSE(watch.fired());
  watch.Received();
}

TEST(IdleWatchTest, EachWaitIsTimedFromItsOwnStart) {
  std::atomic<int> cancels{0};
  IdleWatch watch(2, [&] { ++cancels; });
  for (int i = 0; i < 4; ++i) {  // 4 waits of 0.6 s: 2.4 s in all, none over 2 s
    watch.Waiting();
    std::this_thread::sleep_for(milliseconds(600));
    watch.Received();
  }
  EXPECT_FALSE(watch.fired());
  EXPECT_EQ(cancels.load(), 0);
}

TEST(IdleWatchTest, ZeroSecondsNeverFires) {
  std::atomic<int> cancels{0};
  IdleWatch watch(0, [&] { ++cancels; });
  watch.Waiting();
  std::this_thread::sleep_for(milliseconds(500));
  EXPECT_FALSE(watch.fired());
  EXPECT_EQ(cancels.load(), 0);
}

}  // namespace
}  // namespace scribe::service
