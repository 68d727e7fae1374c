#include "sim/app/trace_observer.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace lynxsim::app {
namespace {

// Threads are sorted by stream * kLaneStride + lane inside a process.
constexpr int kLaneStride = 1000;
constexpr int kComputeStream = 0;
constexpr int kKernelStream = 1;
constexpr int kRequestStream = 2;
constexpr int kFirstPlaneStream = 3;

std::string instance_name(const std::string& method, const char* role, std::size_t i,
                          const serving::InstanceSpec& spec) {
  return fmt::format("{}: {} {} ({}, TP{})", method, role, i, spec.gpu.name, spec.tensor_parallel);
}

nlohmann::json ids_json(const std::vector<std::uint64_t>& ids) { return nlohmann::json(ids); }

}  // namespace

TraceObserver::TraceObserver(report::TraceWriter& trace, const TraceFilter& filter, int first_pid,
                             TracedRun run)
    : trace_(trace), filter_(filter), first_pid_(first_pid), run_(std::move(run)),
      steps_(run_.decode.size()) {
  name_processes();
}

int TraceObserver::process_count() const {
  return 1 + static_cast<int>(run_.prefill.size() + run_.decode.size());
}

int TraceObserver::decode_pid(int instance) const {
  return first_pid_ + 1 + static_cast<int>(run_.prefill.size()) + instance;
}

void TraceObserver::name_processes() {
  const std::string& method = run_.method->name;
  trace_.set_process_name(first_pid_, fmt::format("{}: network", method), first_pid_);
  for (std::size_t i = 0; i < run_.prefill.size(); ++i) {
    const int pid = prefill_pid(static_cast<int>(i));
    trace_.set_process_name(pid, instance_name(method, "prefill", i, run_.prefill[i]), pid);
    thread(pid, kComputeStream, "compute");
  }
  for (std::size_t i = 0; i < run_.decode.size(); ++i) {
    const int pid = decode_pid(static_cast<int>(i));
    trace_.set_process_name(pid, instance_name(method, "decode", i, run_.decode[i]), pid);
    thread(pid, kComputeStream, "compute");
    thread(pid, kRequestStream, "requests");
  }
}

std::string TraceObserver::plane_name(int plane) const {
  const quant::MethodSpec& m = *run_.method;
  if (m.num_planes() <= 1) return "KV";
  if (plane < m.decode_after_planes) {
    return m.decode_after_planes == 1 ? "anchor" : fmt::format("anchor {}", plane + 1);
  }
  const int residuals = m.num_planes() - m.decode_after_planes;
  if (plane >= m.num_planes()) return fmt::format("plane {}", plane);
  return residuals == 1 ? "residual" : fmt::format("residual {}", plane - m.decode_after_planes + 1);
}

int TraceObserver::thread(int pid, int stream, const std::string& name) {
  Lanes& lanes = lanes_[{pid, stream}];
  if (lanes.tids.empty()) {
    lanes.tids.push_back(trace_.add_thread(pid, name, stream * kLaneStride));
    lanes.ends.push_back(Time::zero());
  }
  return lanes.tids.front();
}

int TraceObserver::lane(int pid, int stream, const std::string& name, Time start, Time end) {
  thread(pid, stream, name);
  Lanes& lanes = lanes_[{pid, stream}];
  std::size_t i = 0;
  while (i < lanes.ends.size() && lanes.ends[i] > start) ++i;
  if (i == lanes.ends.size()) {
    const int sort_index = stream * kLaneStride + static_cast<int>(i);
    lanes.tids.push_back(trace_.add_thread(pid, fmt::format("{} #{}", name, i + 1), sort_index));
    lanes.ends.push_back(end);
  }
  lanes.ends[i] = end;
  return lanes.tids[i];
}

void TraceObserver::write_counter(int pid, const std::string& name, const Counter& c, Time at,
                                  double value) {
  trace_.counter(name, pid, at, {{c.key, value}});
}

void TraceObserver::counter(int pid, const std::string& name, const std::string& key, Time at,
                            double value) {
  Counter& c = counters_[{pid, name}];
  c.key = key;
  if (c.pending && c.pending_at != at) commit_counter(pid, name, c);
  c.pending = true;
  c.pending_at = at;
  c.pending_value = value;
}

void TraceObserver::commit_counter(int pid, const std::string& name, Counter& c) {
  c.pending = false;
  const Time at = c.pending_at;
  const double before = c.last;
  if (c.seen && c.pending_value == before) return;
  c.seen = true;
  c.last = c.pending_value;
  if (!filter_.keeps_time(at)) {
    c.held = at < filter_.window_start();
    return;
  }
  if (c.held && at > filter_.window_start()) write_counter(pid, name, c, filter_.window_start(), before);
  c.held = false;
  write_counter(pid, name, c, at, c.last);
}

void TraceObserver::attach(Simulator& sim) {
  using namespace serving;
  auto& bus = sim.bus();
  bus.subscribe<RequestRouted>([this](const RequestRouted& e) { routed_.emplace(e.request, e); });
  bus.subscribe<PrefillPassDone>([this](const PrefillPassDone& e) { on_pass(e); });
  bus.subscribe<DecodeStepDone>([this](const DecodeStepDone& e) { on_step(e); });
  bus.subscribe<KernelRan>([this](const KernelRan& e) { on_kernel(e); });
  bus.subscribe<VerificationDone>([this](const VerificationDone& e) { on_verification(e); });
  bus.subscribe<RequestDone>([this](const RequestDone& e) { on_request_done(e); });
  bus.subscribe<QueueChanged>([this](const QueueChanged& e) {
    const int pid = e.decode ? decode_pid(e.instance) : prefill_pid(e.instance);
    counter(pid, "waiting", "requests", e.at, e.waiting);
  });
  bus.subscribe<net::ClassRateChanged>([this](const net::ClassRateChanged& e) {
    counter(first_pid_, plane_name(e.priority_class), "Gb/s", e.at,
            std::round(e.rate.to_bits().value / 1e6) / 1e3);
  });
  bus.subscribe<net::FlowFinished>([this](const net::FlowFinished& e) { on_flow(e); });
}

void TraceObserver::attach_network(Simulator& sim, const net::Network& network) {
  network_ = &network;
  const auto place = [&](net::PoolId pool, const std::vector<serving::InstanceSpec>& specs,
                         auto pid_of) {
    for (std::size_t i = 0; i < specs.size(); ++i) {
      const int tp = specs[i].tensor_parallel;
      for (int r = 0; r < tp; ++r) {
        const net::HostId host = network.place(pool, static_cast<std::uint32_t>(i),
                                               static_cast<std::uint32_t>(r),
                                               static_cast<std::uint32_t>(tp));
        host_pids_.emplace(host, pid_of(static_cast<int>(i)));
      }
    }
  };
  place(serving::kPrefillPool, run_.prefill, [this](int i) { return prefill_pid(i); });
  place(serving::kDecodePool, run_.decode, [this](int i) { return decode_pid(i); });
  sim.bus().subscribe<net::LinkLoadChanged>([this](const net::LinkLoadChanged& e) { on_link(e); });
}

void TraceObserver::on_pass(const serving::PrefillPassDone& e) {
  if (!filter_.keeps_span(e.started_at, e.finished_at) || !filter_.keeps_any(e.requests)) return;
  const int pid = prefill_pid(e.instance);
  trace_.complete_event("prefill", "prefill", pid, thread(pid, kComputeStream, "compute"),
                        e.started_at, e.finished_at - e.started_at,
                        {{"requests", ids_json(e.requests)}, {"tokens", e.tokens}});
}

void TraceObserver::on_step(const serving::DecodeStepDone& e) {
  Steps& s = steps_[static_cast<std::size_t>(e.instance)];
  if (s.open && s.verifying == 0 && e.verifying == 0 && s.end == e.started_at &&
      s.requests == e.requests) {
    s.end = e.finished_at;
    ++s.steps;
    return;
  }
  flush_steps(e.instance);
  s = {true, e.started_at, e.finished_at, 1, e.verifying, e.requests};
}

void TraceObserver::flush_steps(int instance) {
  Steps& s = steps_[static_cast<std::size_t>(instance)];
  if (!s.open) return;
  s.open = false;
  if (!filter_.keeps_span(s.start, s.end) || !filter_.keeps_any(s.requests)) return;
  const int pid = decode_pid(instance);
  trace_.complete_event("decode", "decode", pid, thread(pid, kComputeStream, "compute"),
                        s.start, s.end - s.start,
                        {{"steps", s.steps}, {"batch", s.requests.size()},
                         {"verifying", s.verifying}, {"requests", ids_json(s.requests)}});
}

int TraceObserver::request_pid(std::uint64_t request) const {
  const auto it = routed_.find(request);
  return it == routed_.end() ? first_pid_ : decode_pid(it->second.decode);
}

void TraceObserver::on_kernel(const serving::KernelRan& e) {
  if (!filter_.keeps_span(e.started_at, e.finished_at) || !filter_.keeps_request(e.request)) return;
  const auto it = routed_.find(e.request);
  if (it == routed_.end()) return;
  const bool prefill = e.instance == "prefill" && it->second.prefill >= 0;
  const int pid = prefill ? prefill_pid(it->second.prefill) : decode_pid(it->second.decode);
  const int tid = lane(pid, kKernelStream, prefill ? "encode kernels" : "KV kernels", e.started_at,
                       e.finished_at);
  trace_.complete_event(e.kind, "kernel", pid, tid, e.started_at, e.finished_at - e.started_at,
                        {{"request", e.request}});
}

void TraceObserver::on_verification(const serving::VerificationDone& e) {
  if (!filter_.keeps_time(e.at) || !filter_.keeps_request(e.request)) return;
  const int pid = request_pid(e.request);
  trace_.instant(e.accepted < e.drafted ? "rollback" : "verified", "verification", pid,
                 thread(pid, kRequestStream, "requests"), e.at,
                 {{"request", e.request}, {"drafted", e.drafted}, {"accepted", e.accepted}});
}

void TraceObserver::on_request_done(const serving::RequestDone& e) {
  if (!filter_.keeps_request(e.request)) return;
  const int pid = request_pid(e.request);
  const int tid = thread(pid, kRequestStream, "requests");
  const std::pair<const char*, Time> marks[] = {
      {"first token", e.first_token_at}, {"first commit", e.first_commit_at}, {"request done", e.at}};
  for (const auto& [name, at] : marks) {
    if (filter_.keeps_time(at)) trace_.instant(name, "request", pid, tid, at, {{"request", e.request}});
  }
}

int TraceObserver::flow_pid(const net::FlowSpec& spec) const {
  const auto [first, last] = host_pids_.equal_range(spec.dst);
  if (first == last) return first_pid_;
  const auto routed = routed_.find(static_cast<std::uint64_t>(spec.tag));
  for (auto it = first; it != last && routed != routed_.end(); ++it) {
    const serving::RequestRouted& r = routed->second;
    if (it->second == decode_pid(r.decode) || (r.prefill >= 0 && it->second == prefill_pid(r.prefill))) {
      return it->second;
    }
  }
  return first->second;
}

void TraceObserver::on_flow(const net::FlowFinished& e) {
  const net::FlowRecord& r = e.record;
  if (r.spec.tag < 0) return;
  const auto request = static_cast<std::uint64_t>(r.spec.tag);
  if (!filter_.keeps_span(r.started_at, r.finished_at) || !filter_.keeps_request(request)) return;
  const int pid = flow_pid(r.spec);
  const std::string plane = plane_name(r.spec.priority_class);
  const int tid = lane(pid, kFirstPlaneStream + r.spec.priority_class, plane, r.started_at, r.finished_at);
  trace_.complete_event(plane, "flow", pid, tid, r.started_at, r.finished_at - r.started_at,
                        {{"request", request}, {"bytes", r.spec.size.value}});
}

void TraceObserver::on_link(const net::LinkLoadChanged& e) {
  auto it = link_names_.find(e.link);
  if (it == link_names_.end()) {
    if (e.used.value <= 0.0) return;
    std::string name = network_->link_name(e.link);
    if (!link_name_set_.insert(name).second) name += fmt::format(" (link {})", e.link);
    it = link_names_.emplace(e.link, name).first;
  }
  const double capacity = e.capacity.value;
  const double utilisation = capacity > 0.0 ? std::round(1e3 * e.used.value / capacity) / 1e3 : 0.0;
  auto& samples = link_samples_[e.link];
  if (!samples.empty() && samples.back().first == e.at) samples.pop_back();
  samples.emplace_back(e.at, utilisation);
}

void TraceObserver::write_links() {
  std::vector<std::pair<double, std::uint32_t>> busiest;
  for (const auto& [link, samples] : link_samples_) {
    double busy = 0.0;
    for (std::size_t i = 0; i + 1 < samples.size(); ++i) {
      busy += samples[i].second * filter_.overlap(samples[i].first, samples[i + 1].first).seconds();
    }
    busiest.emplace_back(-busy, link);
  }
  std::sort(busiest.begin(), busiest.end());
  const auto keep = static_cast<std::size_t>(filter_.busiest_links());
  if (keep > 0 && keep < busiest.size()) busiest.resize(keep);
  std::vector<std::uint32_t> links;
  for (const auto& entry : busiest) links.push_back(entry.second);
  std::sort(links.begin(), links.end());
  for (const std::uint32_t link : links) {
    for (const auto& [at, value] : link_samples_[link]) {
      counter(first_pid_, link_names_.at(link), "utilisation", at, value);
    }
  }
}

void TraceObserver::finish() {
  for (std::size_t i = 0; i < steps_.size(); ++i) flush_steps(static_cast<int>(i));
  write_links();
  for (auto& [where, c] : counters_) {
    if (c.pending) commit_counter(where.first, where.second, c);
    if (c.held) write_counter(where.first, where.second, c, filter_.window_start(), c.last);
    c.held = false;
  }
}

}  // namespace lynxsim::app
