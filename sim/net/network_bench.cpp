#include "sim/net/network_bench.hpp"

#include <chrono>
#include <ctime>
#include <fmt/format.h>
#include <functional>

#include "sim/core/simulator.hpp"
#include "sim/net/network_factory.hpp"

namespace lynxsim::net {
namespace {

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

}  // namespace

NetworkBenchResult run_network_bench(const NetworkBenchConfig& config) {
  Simulator sim(config.seed);
  NetworkSpec spec;
  spec.topology = FatTreeTopology{config.fat_tree_k, LinkSpec{BitsPerSecond{100e9}, Time::from_us(1), 1.0},
                                  std::nullopt};
  spec.rate_tolerance = config.rate_tolerance;
  spec.rate_quantum = config.rate_quantum;
  auto network = make_flow_network(sim, spec);
  network->set_time_recomputations(true);
  const auto hosts = network->num_hosts();
  RngStream& rng = sim.rng("bench.flows");
  std::uint64_t started = 0;
  std::int64_t expected_bytes = 0;
  std::function<void(const FlowRecord&)> on_done;
  const auto start_one = [&] {
    const auto src = static_cast<HostId>(rng.uniform_int(hosts));
    auto dst = static_cast<HostId>(rng.uniform_int(hosts - 1));
    if (dst >= src) ++dst;
    FlowSpec f;
    f.src = src;
    f.dst = dst;
    f.size = Bytes{static_cast<std::int64_t>(rng.uniform(1e6, 64e6))};
    expected_bytes += f.size.value;
    ++started;
    network->start_flow(f, on_done);
  };
  NetworkBenchResult r;
  double fct_sum = 0.0;
  on_done = [&](const FlowRecord& record) {
    ++r.flows_finished;
    fct_sum += (record.finished_at - record.started_at).seconds();
    if (started < config.arrivals) start_one();
  };
  const auto t0 = std::chrono::steady_clock::now();
  const double cpu0 = thread_cpu_seconds();
  for (std::uint64_t i = 0; i < config.concurrent && started < config.arrivals; ++i) start_one();
  r.events = sim.run();
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.cpu_seconds = thread_cpu_seconds() - cpu0;
  r.config = config;
  r.hosts = hosts;
  r.events_per_second = static_cast<double>(r.events) / r.wall_seconds;
  r.recomputations = network->counters().recomputations;
  r.mean_recompute_us =
      1e6 * network->counters().recompute_wall_seconds / static_cast<double>(r.recomputations);
  const auto& st = network->solver_stats();
  const auto& rx = network->relaxation_stats();
  const auto per = [](std::uint64_t n, std::uint64_t d) {
    return d == 0 ? 0.0 : static_cast<double>(n) / static_cast<double>(d);
  };
  const auto per_flow = [](double sum, std::uint64_t n) {
    return n == 0 ? 0.0 : sum / static_cast<double>(n);
  };
  r.mean_flows_per_fill = per(st.flows_filled, st.fills);
  r.mean_link_updates = per(rx.link_updates, rx.solves);
  r.mean_flows_changed = per(st.flows_changed + rx.flows_changed, st.solves + rx.solves);
  r.simulated_seconds = sim.now().seconds();
  r.mean_fct_ms = 1e3 * per_flow(fct_sum, r.flows_finished);
  r.bytes_conserved = network->bytes_delivered().value == expected_bytes;
  return r;
}

std::string format_network_bench(const NetworkBenchResult& r) {
  const auto& c = r.config;
  return fmt::format(
      "network bench: fat-tree k={} ({} hosts), {} concurrent flows, {} arrivals\n"
      "  rate tolerance       {:g}\n"
      "  rate quantum         {}\n"
      "  flows finished       {}\n"
      "  mean completion      {:.3f} ms\n"
      "  simulated time       {:.3f} s\n"
      "  events               {} ({:.0f} events/s)\n"
      "  rate recomputations  {} (mean {:.1f} us, {:.1f} rates changed)\n"
      "  work per recompute   {:.1f} flows re-filled (exact), {:.1f} link levels (relaxed)\n"
      "  wall time            {:.2f} s\n"
      "  cpu time             {:.2f} s\n"
      "  bytes conserved      {}\n",
      c.fat_tree_k, r.hosts, c.concurrent, c.arrivals, c.rate_tolerance,
      c.rate_quantum == Time::zero() ? std::string("0 (every change)") : to_string(c.rate_quantum),
      r.flows_finished, r.mean_fct_ms, r.simulated_seconds, r.events, r.events_per_second,
      r.recomputations, r.mean_recompute_us, r.mean_flows_changed, r.mean_flows_per_fill,
      r.mean_link_updates, r.wall_seconds, r.cpu_seconds, r.bytes_conserved ? "yes" : "NO");
}

}  // namespace lynxsim::net
