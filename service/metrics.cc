#include "service/metrics.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace scribe::service {

void Metrics::Record(const std::string& method, int status_code, int64_t micros) {
  std::lock_guard<std::mutex> lock(mu_);
  MethodStats& m = methods_[method];
  ++m.calls;
  if (status_code != 0) ++m.errors;
  ++m.codes[status_code];
  m.sum_us += static_cast<uint64_t>(micros);
  size_t b = 0;
  while (b < kBucketsUs.size() && micros > kBucketsUs[b]) ++b;
  ++m.buckets[b];
}

void Metrics::RecordShed(const std::string& method) {
  std::lock_guard<std::mutex> lock(mu_);
  ++methods_[method].shed;
}

std::string Metrics::Prometheus() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::string out;
  absl::StrAppend(&out, "# HELP scribe_calls_total Finished calls by method and gRPC status code.\n",
                  "# TYPE scribe_calls_total counter\n");
  for (const auto& [name, m] : methods_) {
    for (const auto& [code, n] : m.codes) {
      absl::StrAppend(&out, "scribe_calls_total{method=\"", name, "\",code=\"", code, "\"} ", n, "\n");
    }
  }
  absl::StrAppend(&out, "# HELP scribe_shed_total Calls refused with RESOURCE_EXHAUSTED under overload.\n",
                  "# TYPE scribe_shed_total counter\n");
  for (const auto& [name, m] : methods_) {
    absl::StrAppend(&out, "scribe_shed_total{method=\"", name, "\"} ", m.shed, "\n");
  }
  absl::StrAppend(&out, "# HELP scribe_latency_seconds Call latency.\n",
                  "# TYPE scribe_latency_seconds histogram\n");
  for (const auto& [name, m] : methods_) {
    uint64_t cumulative = 0;
    for (size_t b = 0; b < kBucketsUs.size(); ++b) {
      cumulative += m.buckets[b];
      absl::StrAppend(&out, "scribe_latency_seconds_bucket{method=\"", name, "\",le=\"",
                      static_cast<double>(kBucketsUs[b]) / 1e6, "\"} ", cumulative, "\n");
    }
    cumulative += m.buckets[kBucketsUs.size()];
    absl::StrAppend(&out, "scribe_latency_seconds_bucket{method=\"", name, "\",le=\"+Inf\"} ", cumulative, "\n");
    absl::StrAppend(&out, "scribe_latency_seconds_sum{method=\"", name, "\"} ",
                    static_cast<double>(m.sum_us) / 1e6, "\n");
    absl::StrAppend(&out, "scribe_latency_seconds_count{method=\"", name, "\"} ", m.calls, "\n");
  }
  return out;
}

std::string Metrics::Summary() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> parts;
  for (const auto& [name, m] : methods_) {
    parts.push_back(absl::StrCat(name, " calls=", m.calls, " errors=", m.errors, " shed=", m.shed,
                                 " mean_us=", m.calls ? m.sum_us / m.calls : 0));
  }
  return parts.empty() ? "no calls yet" : absl::StrJoin(parts, "; ");
}

}  // namespace scribe::service
