#pragma once
// Turns the events of a serving run into Chrome trace events, one process per GPU instance.
//
// Each traced method of a run gets 1 + P + D trace processes, from `first_pid` on:
//   "<method>: network"                        counters: utilisation of each directed link that
//                                              carried traffic (used / capacity, named by the
//                                              link), summed rate of each plane in Gb/s
//   "<method>: prefill i (<gpu>, TP<n>)"       thread "compute": one slice per prefill pass
//                                              (args: requests, tokens); "encode kernels"
//   "<method>: decode j (<gpu>, TP<n>)"        thread "compute": one slice per run of back-to-back
//                                              decode steps over the same batch (args: steps,
//                                              batch, verifying, requests); "KV kernels"
//                                              (dequantize, merge); "requests" (instants: first
//                                              token, first commit, verified or rollback, done)
// and, in the instance that receives them, one thread per transfer plane ("KV" for a one-plane
// method, "anchor" and "residual" for a split one) holding each KV flow from its start to the
// arrival of its last byte (args: request, bytes). Streams whose work overlaps (concurrent flows
// of a plane, kernels of two streams) spill into numbered lanes ("anchor #2", ...), so no two
// slices of one thread overlap. Each instance has a counter "waiting requests" (prompts queued at
// a prefill instance; requests ready to decode that have not joined the batch of a decode
// instance). Counters are written only when their value changes (utilisation rounded to 0.001), and
// once per instant (the value it ends with: the network passes through transient states while it
// updates the rates of several flows at one instant).
// Flows without a request (background traffic) show only in the link counters. Link counters are
// written by finish(), after the run, for the busiest N links when the filter asks for that.
//
// The TraceFilter decides what is kept (trace_filter.hpp); with a window, each counter's value at
// the window's start is written at the start. finish() writes what is still held (the open run of
// decode steps, counters that never changed inside the window); call it after the run.

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/app/trace_filter.hpp"
#include "sim/core/simulator.hpp"
#include "sim/net/network.hpp"
#include "sim/report/trace_writer.hpp"
#include "sim/serving/serving_config.hpp"
#include "sim/serving/serving_events.hpp"
#include "sim/quant/method_spec.hpp"

namespace lynxsim::app {

struct TracedRun {
  const quant::MethodSpec* method = nullptr;
  std::vector<serving::InstanceSpec> prefill;
  std::vector<serving::InstanceSpec> decode;
};

class TraceObserver {
public:
  TraceObserver(report::TraceWriter& trace, const TraceFilter& filter, int first_pid, TracedRun run);

  void attach(Simulator& sim);
  // The run's network, for link and host names; call when it is made, before the run starts.
  void attach_network(Simulator& sim, const net::Network& network);
  void finish();
  int process_count() const;

private:
  struct Lanes {
    std::vector<Time> ends;
    std::vector<int> tids;
  };
  struct Counter {
    std::string key;
    double last = 0.0;
    bool seen = false;
    bool held = false;  // `last` is a value from before the window, not yet written
    bool pending = false;  // the latest value of the instant `pending_at`, not yet committed
    Time pending_at;
    double pending_value = 0.0;
  };
  struct Steps {
    bool open = false;
    Time start;
    Time end;
    int steps = 0;
    int verifying = 0;
    std::vector<std::uint64_t> requests;
  };

  void name_processes();
  int prefill_pid(int instance) const { return first_pid_ + 1 + instance; }
  int decode_pid(int instance) const;
  int thread(int pid, int stream, const std::string& name);
  int lane(int pid, int stream, const std::string& name, Time start, Time end);
  void commit_counter(int pid, const std::string& name, Counter& c);
  void write_counter(int pid, const std::string& name, const Counter& c, Time at, double value);
  void counter(int pid, const std::string& name, const std::string& key, Time at, double value);
  void on_pass(const serving::PrefillPassDone& e);
  void on_step(const serving::DecodeStepDone& e);
  void flush_steps(int instance);
  void on_kernel(const serving::KernelRan& e);
  void on_request_done(const serving::RequestDone& e);
  void on_verification(const serving::VerificationDone& e);
  void on_flow(const net::FlowFinished& e);
  void on_link(const net::LinkLoadChanged& e);
  void write_links();
  int flow_pid(const net::FlowSpec& spec) const;
  int request_pid(std::uint64_t request) const;
  std::string plane_name(int plane) const;

  report::TraceWriter& trace_;
  const TraceFilter& filter_;
  int first_pid_;
  TracedRun run_;
  const net::Network* network_ = nullptr;
  std::unordered_map<std::uint64_t, serving::RequestRouted> routed_;
  std::unordered_multimap<net::HostId, int> host_pids_;
  std::map<std::pair<int, int>, Lanes> lanes_;
  std::map<std::pair<int, std::string>, Counter> counters_;
  std::map<std::uint32_t, std::string> link_names_;
  std::set<std::string> link_name_set_;
  std::map<std::uint32_t, std::vector<std::pair<Time, double>>> link_samples_;
  std::vector<Steps> steps_;
};

}  // namespace lynxsim::app
