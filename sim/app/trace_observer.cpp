#include "sim/app/trace_observer.hpp"

#include <fmt/format.h>

#include "sim/net/network.hpp"
#include "sim/serving/serving_events.hpp"

namespace lynxsim::app {
namespace {

struct Pids {
  int prefill;
  int network;
  int decode;
};

Pids name_processes(report::TraceWriter& trace, int method_index, const std::string& method) {
  const Pids pids{3 * method_index + 1, 3 * method_index + 2, 3 * method_index + 3};
  trace.set_process_name(pids.prefill, fmt::format("{} prefill", method), pids.prefill);
  trace.set_process_name(pids.network, fmt::format("{} network", method), pids.network);
  trace.set_process_name(pids.decode, fmt::format("{} decode", method), pids.decode);
  trace.set_thread_name(pids.decode, 0, "decode steps", 0);
  trace.set_thread_name(pids.decode, 1, "KV kernels", 1);
  trace.set_thread_name(pids.decode, 2, "verification", 2);
  return pids;
}

void observe_serving(Simulator& sim, report::TraceWriter& trace, Pids pids) {
  using namespace serving;
  sim.bus().subscribe<PrefillLayerDone>([&trace, pids](const PrefillLayerDone& e) {
    trace.complete_event(fmt::format("layer {}", e.layer), "prefill", pids.prefill,
                         static_cast<int>(e.request), e.started_at, e.finished_at - e.started_at,
                         {{"request", e.request}});
  });
  sim.bus().subscribe<KernelRan>([&trace, pids](const KernelRan& e) {
    trace.complete_event(e.kind, "kernel", pids.decode, 1, e.started_at, e.finished_at - e.started_at,
                         {{"request", e.request}});
  });
  sim.bus().subscribe<DecodeStepDone>([&trace, pids](const DecodeStepDone& e) {
    trace.complete_event("decode step", "decode", pids.decode, 0, e.started_at,
                         e.finished_at - e.started_at,
                         {{"batch", e.batch_size}, {"verifying", e.verifying}});
  });
  sim.bus().subscribe<VerificationDone>([&trace, pids](const VerificationDone& e) {
    trace.instant(e.accepted < e.drafted ? "rollback" : "verified", "verification", pids.decode, 2,
                  e.at, {{"request", e.request}, {"drafted", e.drafted}, {"accepted", e.accepted}});
  });
  sim.bus().subscribe<RequestDone>([&trace, pids](const RequestDone& e) {
    trace.instant("first token", "request", pids.decode, 2, e.first_token_at, {{"request", e.request}});
    trace.instant("first commit", "request", pids.decode, 2, e.first_commit_at, {{"request", e.request}});
    trace.instant("request done", "request", pids.decode, 2, e.at, {{"request", e.request}});
  });
}

void observe_network(Simulator& sim, report::TraceWriter& trace, Pids pids) {
  sim.bus().subscribe<net::ClassRateChanged>([&trace, pids](const net::ClassRateChanged& e) {
    trace.counter(fmt::format("class {} Gb/s", e.priority_class), pids.network, e.at,
                  {{"rate", e.rate.to_bits().value / 1e9}});
  });
  sim.bus().subscribe<net::FlowFinished>([&trace, pids](const net::FlowFinished& e) {
    const auto& r = e.record;
    trace.complete_event(r.spec.label.empty() ? fmt::format("flow {}", r.id) : r.spec.label, "flow",
                         pids.network, r.spec.priority_class, r.started_at,
                         r.finished_at - r.started_at,
                         {{"bytes", r.spec.size.value}, {"class", r.spec.priority_class},
                          {"request", r.spec.request_id}});
  });
}

}  // namespace

void attach_trace(Simulator& sim, report::TraceWriter& trace, int method_index,
                  const std::string& method_name) {
  const Pids pids = name_processes(trace, method_index, method_name);
  observe_serving(sim, trace, pids);
  observe_network(sim, trace, pids);
}

}  // namespace lynxsim::app
