#include <chrono>
#include <fmt/format.h>

#include "sim/app/bench_serving.hpp"
#include "sim/net/network_factory.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/serving/serving_run.hpp"

namespace lynxsim::app {
namespace {

constexpr const char* kBenchScenario = "scenarios/mooncake-hour-h100-8p8d.json";
constexpr double kBenchAcceptance = 0.8;

struct BenchLine {
  std::string name;
  std::size_t requests = 0;
  std::uint64_t events = 0;
  double wall_s = 0.0;
  double simulated_s = 0.0;
};

void print_line(const BenchLine& l) {
  const double wall_s = l.wall_s > 0.0 ? l.wall_s : 1e-9;
  fmt::print("{:<8} {:>9} {:>12} {:>9.2f} {:>12.3e} {:>11.1f} {:>13.1f}\n", l.name, l.requests,
             l.events, l.wall_s, static_cast<double>(l.events) / wall_s, l.simulated_s,
             l.simulated_s / wall_s);
}

BenchLine run_one(const serving::ServingConfig& config, const serving::TransferMethod& method) {
  serving::MethodQuality quality;
  quality.acceptance = kBenchAcceptance;
  quality.acceptance_source = "bench";
  const auto start = std::chrono::steady_clock::now();
  const serving::MethodResult result = serving::run_serving(config, method, quality);
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - start;
  return {method.name, result.requests.size(), result.events_executed, wall.count(),
          result.simulated_time.seconds()};
}

}  // namespace

int cmd_bench_serving(const DataPaths& data) {
  const std::vector<std::string> overrides{R"(methods=["bf16","int8","int4","lynx"])",
                                           "accuracy.enabled=false",
                                           fmt::format("speculation.acceptance={}", kBenchAcceptance)};
  const auto file = data.root / kBenchScenario;
  const scenario::Scenario s = scenario::load_scenario(file, overrides, data);
  serving::ServingConfig config = s.serving;
  config.make_network = [&s](Simulator& sim) { return net::make_network(sim, s.network); };
  fmt::print("serving benchmark: {} ({} requests), acceptance {} (accuracy not measured)\n\n",
             file.string(), config.requests.size(), kBenchAcceptance);
  fmt::print("{:<8} {:>9} {:>12} {:>9} {:>12} {:>11} {:>13}\n", "method", "requests", "events",
             "wall s", "events/s", "simulated s", "sim s/wall s");
  BenchLine total;
  total.name = "total";
  for (const serving::TransferMethod& method : s.methods) {
    const BenchLine line = run_one(config, method);
    print_line(line);
    total.requests += line.requests;
    total.events += line.events;
    total.wall_s += line.wall_s;
    total.simulated_s += line.simulated_s;
  }
  print_line(total);
  return 0;
}

}  // namespace lynxsim::app
