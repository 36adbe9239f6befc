// Counters of calls, errors and latency per method, for operators: written
// in the Prometheus text format (to a file a node exporter scrapes, or to
// the log).
#ifndef SCRIBE_SERVICE_METRICS_H_
#define SCRIBE_SERVICE_METRICS_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace scribe::service {

class Metrics {
 public:
  // Latency buckets, upper bounds in microseconds.
  static constexpr std::array<int64_t, 10> kBucketsUs = {100,    250,    500,     1000,    2500,
                                                         5000,   10000,  50000,   250000,  1000000};

  // Records one finished call of `method` with its gRPC status code.
  void Record(const std::string& method, int status_code, int64_t micros);
  void RecordShed(const std::string& method);

  // Every counter, in the Prometheus text exposition format.
  std::string Prometheus() const;
  // One line for the log: calls, errors, shed, p50/p99 estimate per method.
  std::string Summary() const;

 private:
  struct MethodStats {
    uint64_t calls = 0;
    uint64_t errors = 0;
    uint64_t shed = 0;
    uint64_t sum_us = 0;
    std::array<uint64_t, kBucketsUs.size() + 1> buckets{};
    std::map<int, uint64_t> codes;
  };
  mutable std::mutex mu_;
  std::map<std::string, MethodStats> methods_;
};

}  // namespace scribe::service

#endif  // SCRIBE_SERVICE_METRICS_H_
