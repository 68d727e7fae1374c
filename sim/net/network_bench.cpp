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
  auto network = make_flow_network(sim, spec);
  network->set_rate_tolerance(config.rate_tolerance);
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
  on_done = [&](const FlowRecord&) {
    ++r.flows_finished;
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
  r.mean_flows_per_fill = static_cast<double>(st.flows_filled) / static_cast<double>(st.fills);
  r.simulated_seconds = sim.now().seconds();
  r.bytes_conserved = network->bytes_delivered().value == expected_bytes;
  return r;
}

std::string format_network_bench(const NetworkBenchResult& r) {
  return fmt::format(
      "network bench: fat-tree k={} ({} hosts), {} concurrent flows, {} arrivals\n"
      "  flows finished       {}\n"
      "  simulated time       {:.3f} s\n"
      "  events               {} ({:.0f} events/s)\n"
      "  rate recomputations  {} (mean {:.1f} us, mean {:.1f} flows re-filled)\n"
      "  rate tolerance       {:g}\n"
      "  wall time            {:.2f} s\n"
      "  cpu time             {:.2f} s\n"
      "  bytes conserved      {}\n",
      r.config.fat_tree_k, r.hosts, r.config.concurrent, r.config.arrivals, r.flows_finished,
      r.simulated_seconds, r.events, r.events_per_second, r.recomputations, r.mean_recompute_us,
      r.mean_flows_per_fill, r.config.rate_tolerance, r.wall_seconds, r.cpu_seconds,
      r.bytes_conserved ? "yes" : "NO");
}

}  // namespace lynxsim::net
