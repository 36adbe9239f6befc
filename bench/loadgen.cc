// loadgen: a load generator for scribed over gRPC.
//
// Many concurrent unary calls of one method, over N channels (N TCP
// connections), driven by completion-queue threads with the async API:
//
//   closed loop (default): --concurrency calls are always outstanding; each
//     answer starts the next call. Measures the server's capacity.
//   open loop (--rate R): R calls per second are offered on schedule,
//     whether or not earlier ones have answered (up to --max-outstanding).
//     Latency is measured from the scheduled start, so a server that falls
//     behind is charged for the queueing (no coordinated omission).
//
// Methods: validate (ScribeService/ValidateRecord with a record file sent
// as text), list (ScribeService/ListRulesets) and health
// (grpc.health.v1.Health/Check, the near-empty method: the transport's
// ceiling). Every method goes through the generic stub with the request
// serialized once, so the client's cost per call is the same for all.
//
// The run stops by itself: after --seconds (plus --warmup-seconds, whose
// calls are not counted) or --requests calls, whichever comes first; calls
// then in flight are drained (each has a --timeout-ms deadline).
//
// --probe-interval-ms adds a health prober on a connection of its own,
// which reports whether health checks kept answering SERVING under load.
//
// --service-config FILE gives every channel a gRPC service config (JSON,
// e.g. docker/service-config.json with its retry policy), as clients of a
// deployment would. --kill-pid P --kill-after-seconds S sends P SIGKILL S
// seconds into the run (a replica dying mid-run); the report then covers
// the calls that ran at some time in the --failover-seconds from it (those
// in flight at the kill and those started after) apart: how many,
// how many failed, their p99. Retries made by the policy are invisible to
// the application (gRPC re-sends below the API); count them where every
// attempt arrives, e.g. a balancer's access log (tests/e2e/failover_test.sh).
//
// The report: calls per second, p50/p90/p99/max latency and the count per
// status code, then one line starting with "result " of key=value pairs
// for scripts (bench/load_test.sh, tests/e2e/overload_test.sh).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "CLI/CLI.hpp"
#include "grpcpp/generic/generic_stub.h"
#include "grpcpp/grpcpp.h"
#include "scribe/v1/scribe_service.pb.h"

namespace scribe::loadgen {
namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  std::string target = "127.0.0.1:50051";
  std::string method = "validate";
  std::string record = SCRIBE_DEFAULT_RECORD;
  double seconds = 10;
  double warmup_seconds = 1;
  int64_t requests = 0;
  int concurrency = 32;
  int channels = 4;
  int threads = 2;
  double rate = 0;
  int max_outstanding = 10000;
  int timeout_ms = 5000;
  int probe_interval_ms = 0;
  int probe_timeout_ms = 1000;
  std::string service_config;  // the JSON itself, read from --service-config
  int kill_pid = 0;
  double kill_after_seconds = 0;
  double failover_seconds = 5;
};

// The full method name and the serialized request of a method.
struct Method {
  std::string path;
  std::string request;
};

bool MakeMethod(const Options& options, Method* method, std::string* error) {
  if (options.method == "health") {
    // grpc.health.v1.HealthCheckRequest{service: ""} serializes to no bytes.
    method->path = "/grpc.health.v1.Health/Check";
    method->request.clear();
    return true;
  }
  if (options.method == "list") {
    method->path = "/scribe.v1.ScribeService/ListRulesets";
    v1::ListRulesetsRequest request;
    method->request = request.SerializeAsString();
    return true;
  }
  if (options.method == "validate") {
    std::ifstream in(options.record, std::ios::binary);
    if (!in) {
      *error = "cannot read --record " + options.record;
      return false;
    }
    std::stringstream text;
    text << in.rdbuf();
    method->path = "/scribe.v1.ScribeService/ValidateRecord";
    v1::ValidateRecordRequest request;
    request.mutable_input()->set_text(text.str());
    method->request = request.SerializeAsString();
    return true;
  }
  *error = "unknown --method " + options.method + " (validate, list, health)";
  return false;
}

grpc::ByteBuffer ToByteBuffer(const std::string& bytes) {
  grpc::Slice slice(bytes);
  return grpc::ByteBuffer(&slice, 1);
}

std::string FromByteBuffer(const grpc::ByteBuffer& buffer) {
  std::vector<grpc::Slice> slices;
  std::string out;
  if (!buffer.Dump(&slices).ok()) return out;
  for (const grpc::Slice& s : slices) out.append(reinterpret_cast<const char*>(s.begin()), s.size());
  return out;
}

std::string CodeName(int code) {
  static const char* const kNames[] = {
      "OK",        "CANCELLED",      "UNKNOWN",           "INVALID_ARGUMENT",   "DEADLINE_EXCEEDED",
      "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
      "ABORTED",   "OUT_OF_RANGE",   "UNIMPLEMENTED",     "INTERNAL",           "UNAVAILABLE",
      "DATA_LOSS", "UNAUTHENTICATED"};
  if (code >= 0 && code < static_cast<int>(sizeof(kNames) / sizeof(kNames[0]))) return kNames[code];
  return "CODE_" + std::to_string(code);
}

// grpc.health.v1.HealthCheckResponse{status: SERVING} is field 1, varint 1.
bool IsServing(const grpc::ByteBuffer& response) { return FromByteBuffer(response) == std::string("\x08\x01", 2); }

// A channel of its own: distinct channel arguments keep gRPC from sharing
// one subchannel (one TCP connection) among the channels.
std::shared_ptr<grpc::Channel> NewChannel(const Options& options, int index) {
  grpc::ChannelArguments args;
  if (!options.service_config.empty()) args.SetServiceConfigJSON(options.service_config);
  args.SetInt("scribe.loadgen.channel", index);
  args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  args.SetMaxReceiveMessageSize(64 << 20);
  return grpc::CreateCustomChannel(options.target, grpc::InsecureChannelCredentials(), args);
}

// What the completion threads record; one per thread, merged at the end.
struct Tally {
  std::vector<uint32_t> latency_us;  // calls that completed in the window
  std::map<int, int64_t> codes;      // per status code, same calls
  int64_t after_window = 0;          // completed during warmup or drain
  int64_t completed = 0;             // every call, warmup and drain too
  int64_t failed = 0;                // of those, not OK
  std::map<std::string, int64_t> errors;       // failed calls by code and message
  std::vector<uint32_t> failover_latency_us;   // calls started in the failover window
  int64_t failover_failed = 0;
};

struct Call {
  grpc::ClientContext context;
  grpc::ByteBuffer response;
  grpc::Status status;
  std::unique_ptr<grpc::GenericClientAsyncResponseReader> reader;
  Clock::time_point start;
  int thread = 0;
};

class Generator {
 public:
  Generator(const Options& options, Method method)
      : options_(options), method_(std::move(method)), request_(ToByteBuffer(method_.request)) {
    for (int i = 0; i < options_.channels; ++i) {
      channels_.push_back(NewChannel(options_, i));
      stubs_.push_back(std::make_unique<grpc::GenericStub>(channels_.back()));
    }
    for (int i = 0; i < options_.threads; ++i) queues_.push_back(std::make_unique<grpc::CompletionQueue>());
    tallies_.resize(options_.threads);
  }

  // Waits for every channel to connect.
  bool Connect(std::chrono::seconds timeout) {
    const auto deadline = std::chrono::system_clock::now() + timeout;
    for (auto& channel : channels_) {
      if (!channel->WaitForConnected(deadline)) return false;
    }
    return true;
  }

  void Run() {
    begin_ = Clock::now();
    kill_at_ = begin_ + ToDuration(options_.kill_after_seconds);
    failover_end_ = kill_at_ + ToDuration(options_.failover_seconds);
    window_start_ = begin_ + ToDuration(options_.warmup_seconds);
    window_end_ = window_start_ + ToDuration(options_.seconds);
    std::vector<std::thread> workers;
    for (int i = 0; i < options_.threads; ++i) workers.emplace_back([this, i] { Complete(i); });
    if (options_.rate > 0) {
      OfferOpenLoop();
    } else {
      for (int i = 0; i < options_.concurrency; ++i) {
        if (!Issue(i % options_.threads, Clock::now())) break;
      }
      while (!stop_.load() && Clock::now() < window_end_) {
        MaybeKill();
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
    }
    stop_.store(true);
    stopped_at_ = std::min(Clock::now(), window_end_);
    // Drain: every outstanding call ends by its deadline.
    const auto drain_limit = Clock::now() + std::chrono::milliseconds(options_.timeout_ms + 5000);
    while (outstanding_.load() > 0 && Clock::now() < drain_limit) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    for (auto& queue : queues_) queue->Shutdown();
    for (auto& worker : workers) worker.join();
  }

  // The merged results.
  Tally Merged() const {
    Tally all;
    for (const Tally& t : tallies_) {
      all.latency_us.insert(all.latency_us.end(), t.latency_us.begin(), t.latency_us.end());
      for (const auto& [code, n] : t.codes) all.codes[code] += n;
      all.after_window += t.after_window;
      all.completed += t.completed;
      all.failed += t.failed;
      for (const auto& [what, n] : t.errors) all.errors[what] += n;
      all.failover_latency_us.insert(all.failover_latency_us.end(), t.failover_latency_us.begin(),
                                     t.failover_latency_us.end());
      all.failover_failed += t.failover_failed;
    }
    std::sort(all.latency_us.begin(), all.latency_us.end());
    std::sort(all.failover_latency_us.begin(), all.failover_latency_us.end());
    return all;
  }
  double window_seconds() const { return std::chrono::duration<double>(stopped_at_ - window_start_).count(); }
  int64_t not_sent() const { return not_sent_.load(); }
  int64_t issued() const { return issued_.load(); }
  const std::string& first_response() const { return first_response_; }
  bool killed() const { return killed_.load(); }

 private:
  static Clock::duration ToDuration(double seconds) {
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  }

  // Sends --kill-pid SIGKILL once its time has come.
  void MaybeKill() {
    if (options_.kill_pid <= 0 || kill_tried_ || Clock::now() < kill_at_) return;
    killed_.store(::kill(options_.kill_pid, SIGKILL) == 0);
    if (!killed_.load()) std::fprintf(stderr, "loadgen: cannot kill %d\n", options_.kill_pid);
    kill_tried_ = true;
  }

  // Starts one call, completed on thread `thread`'s queue; false when the
  // run is over (time or count).
  bool Issue(int thread, Clock::time_point start) {
    if (stop_.load()) return false;
    if (options_.requests > 0 && issued_.fetch_add(1) >= options_.requests) {
      stop_.store(true);
      return false;
    }
    if (options_.requests <= 0) issued_.fetch_add(1);
    outstanding_.fetch_add(1);
    auto* call = new Call;
    call->start = start;
    call->thread = thread;
    call->context.set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(options_.timeout_ms));
    const uint64_t n = next_channel_.fetch_add(1);
    call->reader =
        stubs_[n % stubs_.size()]->PrepareUnaryCall(&call->context, method_.path, request_, queues_[thread].get());
    call->reader->StartCall();
    call->reader->Finish(&call->response, &call->status, call);
    return true;
  }

  void Complete(int thread) {
    Tally& tally = tallies_[thread];
    void* tag = nullptr;
    bool ok = false;
    while (queues_[thread]->Next(&tag, &ok)) {
      auto* call = static_cast<Call*>(tag);
      const auto now = Clock::now();
      if (call->start >= window_start_ && now <= window_end_ && !stop_.load()) {
        const auto us = std::chrono::duration_cast<std::chrono::microseconds>(now - call->start).count();
        tally.latency_us.push_back(static_cast<uint32_t>(std::min<int64_t>(us, UINT32_MAX)));
        ++tally.codes[call->status.error_code()];
      } else {
        ++tally.after_window;
      }
      ++tally.completed;
      if (!call->status.ok()) {
        ++tally.failed;
        ++tally.errors[CodeName(call->status.error_code()) + ": " + call->status.error_message()];
      }
      // The failover window: every call running at some time in the
      // --failover-seconds from the kill (those in flight at the kill too).
      if (killed_.load() && call->start < failover_end_ && now >= kill_at_) {
        const auto us = std::chrono::duration_cast<std::chrono::microseconds>(now - call->start).count();
        tally.failover_latency_us.push_back(static_cast<uint32_t>(std::min<int64_t>(us, UINT32_MAX)));
        if (!call->status.ok()) ++tally.failover_failed;
      }
      if (call->status.ok() && !have_first_.exchange(true)) first_response_ = FromByteBuffer(call->response);
      // Closed loop: the next call before this one counts as done, so the
      // count of outstanding calls never touches 0 while the run goes on.
      if (options_.rate <= 0) Issue(thread, Clock::now());
      delete call;
      outstanding_.fetch_sub(1);
    }
  }

  // Offers calls on schedule: call i is due at begin + i / rate.
  void OfferOpenLoop() {
    const double period = 1.0 / options_.rate;
    for (int64_t i = 0;; ++i) {
      const Clock::time_point due = begin_ + ToDuration(i * period);
      if (due >= window_end_ || stop_.load()) break;
      const auto now = Clock::now();
      if (due > now) std::this_thread::sleep_until(due);
      if (outstanding_.load() >= options_.max_outstanding) {
        // The client's own limit: counted, never sent.
        if (due >= window_start_) not_sent_.fetch_add(1);
        continue;
      }
      MaybeKill();
      if (!Issue(static_cast<int>(i % options_.threads), due)) break;
    }
  }

  const Options& options_;
  const Method method_;
  const grpc::ByteBuffer request_;
  std::vector<std::shared_ptr<grpc::Channel>> channels_;
  std::vector<std::unique_ptr<grpc::GenericStub>> stubs_;
  std::vector<std::unique_ptr<grpc::CompletionQueue>> queues_;
  std::vector<Tally> tallies_;
  std::atomic<bool> stop_{false};
  std::atomic<int64_t> outstanding_{0};
  std::atomic<int64_t> issued_{0};
  std::atomic<int64_t> not_sent_{0};
  std::atomic<uint64_t> next_channel_{0};
  std::atomic<bool> have_first_{false};
  std::string first_response_;
  Clock::time_point begin_, window_start_, window_end_, stopped_at_, kill_at_, failover_end_;
  std::atomic<bool> killed_{false};
  bool kill_tried_ = false;
};

// Health checks on a connection of their own, every interval, while the
// load runs.
class Prober {
 public:
  Prober(const Options& options) : options_(options), stub_(NewChannel(options, -1)) {}

  void Start() {
    thread_ = std::thread([this] { Loop(); });
  }
  void Stop() {
    stop_.store(true);
    if (thread_.joinable()) thread_.join();
  }

  int64_t sent = 0, serving = 0, not_serving = 0, failed = 0;
  int64_t max_us = 0;

 private:
  void Loop() {
    grpc::CompletionQueue queue;
    const grpc::ByteBuffer request = ToByteBuffer("");  // HealthCheckRequest{service: ""}
    while (!stop_.load()) {
      const auto start = Clock::now();
      grpc::ClientContext context;
      context.set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(options_.probe_timeout_ms));
      grpc::ByteBuffer response;
      grpc::Status status;
      auto reader = stub_.PrepareUnaryCall(&context, "/grpc.health.v1.Health/Check", request, &queue);
      reader->StartCall();
      reader->Finish(&response, &status, reinterpret_cast<void*>(1));
      void* tag = nullptr;
      bool ok = false;
      queue.Next(&tag, &ok);
      const int64_t us = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start).count();
      ++sent;
      max_us = std::max(max_us, us);
      if (!status.ok()) {
        if (++failed <= 10)
          std::fprintf(stderr, "loadgen: health probe failed: %d %s\n", status.error_code(),
                       status.error_message().c_str());
      } else if (IsServing(response)) {
        ++serving;
      } else {
        ++not_serving;
      }
      std::this_thread::sleep_until(start + std::chrono::milliseconds(options_.probe_interval_ms));
    }
    queue.Shutdown();
    void* tag = nullptr;
    bool ok = false;
    while (queue.Next(&tag, &ok)) {
    }
  }

  const Options& options_;
  grpc::GenericStub stub_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

double PercentileMs(const std::vector<uint32_t>& sorted, double p) {
  if (sorted.empty()) return 0;
  const size_t i = std::min(sorted.size() - 1, static_cast<size_t>(p * static_cast<double>(sorted.size())));
  return sorted[i] / 1000.0;
}

// The run's report: a summary for people, then one "result" line of
// key=value pairs for scripts.
void PrintReport(const Options& o, const Method& method, const Generator& generator, const Prober& prober) {
  const Tally all = generator.Merged();
  const double seconds = generator.window_seconds();
  const auto count = static_cast<int64_t>(all.latency_us.size());
  const double rps = seconds > 0 ? static_cast<double>(count) / seconds : 0;
  auto code_count = [&](int code) {
    auto it = all.codes.find(code);
    return it == all.codes.end() ? int64_t{0} : it->second;
  };
  const int64_t ok = code_count(grpc::StatusCode::OK);
  const int64_t exhausted = code_count(grpc::StatusCode::RESOURCE_EXHAUSTED);
  const int64_t other = count - ok - exhausted;

  std::printf("%s %s: %s, %d channels, %d threads, %.2f s measured\n", method.path.c_str(), o.target.c_str(),
              o.rate > 0 ? ("open loop at " + std::to_string(static_cast<int64_t>(o.rate)) + "/s").c_str()
                         : ("closed loop, " + std::to_string(o.concurrency) + " outstanding").c_str(),
              o.channels, o.threads, seconds);
  std::printf("  calls %" PRId64 " (%.0f/s, OK %.0f/s)\n", count, rps, seconds > 0 ? ok / seconds : 0.0);
  std::printf("  latency ms: p50 %.3f  p90 %.3f  p99 %.3f  max %.3f\n", PercentileMs(all.latency_us, 0.50),
              PercentileMs(all.latency_us, 0.90), PercentileMs(all.latency_us, 0.99),
              all.latency_us.empty() ? 0.0 : all.latency_us.back() / 1000.0);
  for (const auto& [code, n] : all.codes) std::printf("  %-20s %" PRId64 "\n", CodeName(code).c_str(), n);
  if (generator.not_sent() > 0) {
    std::printf("  not sent (client at --max-outstanding) %" PRId64 "\n", generator.not_sent());
  }
  if (o.method == "validate" && !generator.first_response().empty()) {
    v1::ValidateRecordResponse response;
    if (response.ParseFromString(generator.first_response())) {
      std::printf("  the record: valid=%s, %d findings\n", response.valid() ? "true" : "false",
                  response.findings_size());
    }
  }
  if (o.probe_interval_ms > 0) {
    std::printf("  health probes: %" PRId64 " sent, %" PRId64 " SERVING, %" PRId64 " NOT_SERVING, %" PRId64
                " failed, max %.3f ms\n",
                prober.sent, prober.serving, prober.not_serving, prober.failed, prober.max_us / 1000.0);
  }
  std::printf("  every call (warmup and drain too): %" PRId64 " completed, %" PRId64 " failed\n", all.completed,
              all.failed);
  for (const auto& [what, n] : all.errors) std::printf("    failed: %s (%" PRId64 ")\n", what.c_str(), n);
  if (o.kill_pid > 0) {
    std::printf("  %s %d at %.2f s; the %.2f s after: %zu calls, %" PRId64 " failed, p99 %.3f ms, max %.3f ms\n",
                generator.killed() ? "killed" : "could not kill", o.kill_pid, o.kill_after_seconds,
                o.failover_seconds, all.failover_latency_us.size(), all.failover_failed,
                PercentileMs(all.failover_latency_us, 0.99),
                all.failover_latency_us.empty() ? 0.0 : all.failover_latency_us.back() / 1000.0);
  }
  std::printf(
      "result method=%s mode=%s seconds=%.3f calls=%" PRId64
      " rps=%.1f ok_rps=%.1f p50_ms=%.3f p90_ms=%.3f"
      " p99_ms=%.3f max_ms=%.3f ok=%" PRId64 " resource_exhausted=%" PRId64 " other=%" PRId64 " not_sent=%" PRId64
      " probe_sent=%" PRId64 " probe_serving=%" PRId64 " probe_failed=%" PRId64 " probe_max_ms=%.3f"
      " completed=%" PRId64 " failed=%" PRId64 " killed=%d failover_calls=%zu failover_failed=%" PRId64
      " failover_p99_ms=%.3f failover_max_ms=%.3f\n",
      o.method.c_str(), o.rate > 0 ? "open" : "closed", seconds, count, rps, seconds > 0 ? ok / seconds : 0.0,
      PercentileMs(all.latency_us, 0.50), PercentileMs(all.latency_us, 0.90), PercentileMs(all.latency_us, 0.99),
      all.latency_us.empty() ? 0.0 : all.latency_us.back() / 1000.0, ok, exhausted, other, generator.not_sent(),
      prober.sent, prober.serving, prober.failed + prober.not_serving, prober.max_us / 1000.0, all.completed,
      all.failed, generator.killed() ? 1 : 0, all.failover_latency_us.size(), all.failover_failed,
      PercentileMs(all.failover_latency_us, 0.99),
      all.failover_latency_us.empty() ? 0.0 : all.failover_latency_us.back() / 1000.0);
}

int Main(int argc, char** argv) {
  CLI::App app{"loadgen: concurrent gRPC calls against scribed, with latency and status counts"};
  Options o;
  app.add_option("--target", o.target, "server address (host:port)")->capture_default_str();
  app.add_option("--method", o.method, "validate, list or health")
      ->check(CLI::IsMember({"validate", "list", "health"}))
      ->capture_default_str();
  app.add_option("--record", o.record, "record file sent as text by validate")->capture_default_str();
  app.add_option("--seconds", o.seconds, "measured seconds (the run stops by itself)")
      ->check(CLI::Range(0.01, 3600.0))
      ->capture_default_str();
  app.add_option("--warmup-seconds", o.warmup_seconds, "seconds of load before measuring, not counted")
      ->check(CLI::Range(0.0, 600.0))
      ->capture_default_str();
  app.add_option("--requests", o.requests, "stop after this many calls (0: no limit)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--concurrency", o.concurrency, "closed loop: calls outstanding at all times")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--channels", o.channels, "channels (TCP connections) the calls are spread over")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  app.add_option("--threads", o.threads, "completion-queue threads")->check(CLI::Range(1, 256))->capture_default_str();
  app.add_option("--rate", o.rate, "open loop: calls offered per second (0: closed loop)")
      ->check(CLI::Range(0.0, 1e7))
      ->capture_default_str();
  app.add_option("--max-outstanding", o.max_outstanding, "open loop: calls in flight before offers are dropped")
      ->check(CLI::Range(1, 10000000))
      ->capture_default_str();
  app.add_option("--timeout-ms", o.timeout_ms, "deadline of each call")
      ->check(CLI::Range(1, 600000))
      ->capture_default_str();
  app.add_option("--probe-interval-ms", o.probe_interval_ms,
                 "health-check every N ms on a separate connection (0: off)")
      ->check(CLI::Range(0, 60000))
      ->capture_default_str();
  app.add_option("--probe-timeout-ms", o.probe_timeout_ms, "deadline of each health probe")
      ->check(CLI::Range(1, 60000))
      ->capture_default_str();
  std::string service_config_file;
  app.add_option("--service-config", service_config_file,
                 "a gRPC service config (JSON) for every channel, e.g. docker/service-config.json");
  app.add_option("--kill-pid", o.kill_pid, "send this process SIGKILL during the run (a replica dying)")
      ->check(CLI::PositiveNumber);
  app.add_option("--kill-after-seconds", o.kill_after_seconds, "when to send it, from the start of the run")
      ->check(CLI::Range(0.0, 3600.0))
      ->capture_default_str();
  app.add_option("--failover-seconds", o.failover_seconds,
                 "the calls running in this long from the kill are reported apart")
      ->check(CLI::Range(0.01, 3600.0))
      ->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }

  if (!service_config_file.empty()) {
    std::ifstream in(service_config_file, std::ios::binary);
    std::stringstream text;
    if (in) text << in.rdbuf();
    if (!in || text.str().empty()) {
      std::fprintf(stderr, "loadgen: cannot read --service-config %s\n", service_config_file.c_str());
      return 2;
    }
    o.service_config = text.str();
  }
  Method method;
  std::string error;
  if (!MakeMethod(o, &method, &error)) {
    std::fprintf(stderr, "loadgen: %s\n", error.c_str());
    return 2;
  }
  Generator generator(o, method);
  if (!generator.Connect(std::chrono::seconds(10))) {
    std::fprintf(stderr, "loadgen: cannot connect to %s\n", o.target.c_str());
    return 1;
  }
  Prober prober(o);
  if (o.probe_interval_ms > 0) prober.Start();
  generator.Run();
  prober.Stop();

  PrintReport(o, method, generator, prober);
  std::fflush(stdout);
  return 0;
}

}  // namespace
}  // namespace scribe::loadgen

int main(int argc, char** argv) { return scribe::loadgen::Main(argc, argv); }
