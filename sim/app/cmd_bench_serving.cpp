#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <fmt/format.h>

#include "sim/app/bench_serving.hpp"
#include "sim/app/input_errors.hpp"
#include "sim/app/scenario_serving.hpp"
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
  double cpu_s = 0.0;
  double simulated_s = 0.0;
};

void print_line(const BenchLine& l) {
  const double wall_s = l.wall_s > 0.0 ? l.wall_s : 1e-9;
  fmt::print("{:<8} {:>9} {:>12} {:>9.2f} {:>9.2f} {:>12.3e} {:>11.1f} {:>13.1f}\n", l.name, l.requests,
             l.events, l.wall_s, l.cpu_s, static_cast<double>(l.events) / wall_s, l.simulated_s,
             l.simulated_s / wall_s);
}

BenchLine run_one(const serving::ServingConfig& config, const quant::MethodSpec& method) {
  serving::MethodQuality quality;
  quality.acceptance = kBenchAcceptance;
  quality.acceptance_source = "bench";
  const std::clock_t cpu_start = std::clock();
  const auto start = std::chrono::steady_clock::now();
  const serving::MethodResult result = serving::run_serving(config, method, quality);
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - start;
  const double cpu_s = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  return {method.name, result.requests.size(), result.events_executed, wall.count(), cpu_s,
          result.simulated_time.seconds()};
}

BenchLine run_methods(const serving::ServingConfig& config, const std::vector<quant::MethodSpec>& methods,
                      bool print) {
  BenchLine total;
  total.name = "total";
  for (const quant::MethodSpec& method : methods) {
    const BenchLine line = run_one(config, method);
    if (print) print_line(line);
    total.requests += line.requests;
    total.events += line.events;
    total.wall_s += line.wall_s;
    total.cpu_s += line.cpu_s;
    total.simulated_s += line.simulated_s;
  }
  return total;
}

// The trace repeated back to back and cut at `size` requests (bench_serving.hpp).
std::vector<serving::RequestSpec> repeated_trace(const std::vector<serving::RequestSpec>& trace, std::int64_t size) {
  if (trace.empty()) throw InputError("serving benchmark: the bench scenario has no requests");
  const Time first = trace.front().arrival_at;
  const Time span = trace.back().arrival_at - first;
  const auto gaps = static_cast<std::int64_t>(std::max<std::size_t>(trace.size() - 1, 1));
  const Time period = span + Time::from_seconds(span.seconds() / static_cast<double>(gaps));
  std::vector<serving::RequestSpec> out;
  out.reserve(static_cast<std::size_t>(size));
  for (std::int64_t copy = 0; static_cast<std::int64_t>(out.size()) < size; ++copy) {
    for (const serving::RequestSpec& r : trace) {
      if (static_cast<std::int64_t>(out.size()) == size) break;
      out.push_back(r);
      out.back().arrival_at = r.arrival_at + period * copy;
    }
  }
  return out;
}

double peak_resident_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

void print_scaling(const serving::ServingConfig& hour, const std::vector<quant::MethodSpec>& methods,
                   std::vector<std::int64_t> sizes, std::optional<int> closed_loop) {
  std::sort(sizes.begin(), sizes.end());
  fmt::print("\nlonger traces: the hour repeated back to back, all {} methods per size{}\n\n", methods.size(),
             closed_loop ? fmt::format(", sent by a client capped at {} in flight", *closed_loop) : "");
  fmt::print("{:>9} {:>9} {:>9} {:>12} {:>12} {:>13} {:>14} {:>9}\n", "requests", "wall s", "cpu s", "events",
             "requests/s", "us/request", "cpu us/request", "peak MiB");
  for (const std::int64_t size : sizes) {
    serving::ServingConfig config = hour;
    config.requests = repeated_trace(hour.requests, size);
    if (closed_loop) config.client = serving::ClientSpec{*closed_loop, Time::zero()};
    const BenchLine total = run_methods(config, methods, false);
    const double runs = static_cast<double>(size) * static_cast<double>(methods.size());
    const double wall_s = std::max(total.wall_s, 1e-9);
    fmt::print("{:>9} {:>9.2f} {:>9.2f} {:>12} {:>12.0f} {:>13.2f} {:>14.2f} {:>9.0f}\n", size, total.wall_s,
               total.cpu_s, total.events, runs / wall_s, 1e6 * wall_s / runs, 1e6 * total.cpu_s / runs,
               peak_resident_mib());
  }
}

}  // namespace

int cmd_bench_serving(const DataPaths& data, const ServingBenchOptions& options) {
  for (const std::int64_t size : options.sizes) {
    if (size < 1) throw InputError(fmt::format("--sizes: {} is not a positive request count", size));
  }
  const std::vector<std::string> overrides{R"(methods=["bf16","int8","int4","lynx"])",
                                           "accuracy.enabled=false",
                                           fmt::format("speculation.acceptance={}", kBenchAcceptance)};
  const auto file = data.root / kBenchScenario;
  const scenario::Scenario s = scenario::load_scenario(file, overrides, data);
  const serving::ServingConfig config = runnable_serving(s);
  fmt::print("serving benchmark: {} ({} requests), acceptance {} (accuracy not measured)\n\n",
             file.string(), config.requests.size(), kBenchAcceptance);
  fmt::print("{:<8} {:>9} {:>12} {:>9} {:>9} {:>12} {:>11} {:>13}\n", "method", "requests", "events",
             "wall s", "cpu s", "events/s", "simulated s", "sim s/wall s");
  print_line(run_methods(config, s.methods, true));
  print_scaling(config, s.methods, options.sizes, options.closed_loop);
  return 0;
}

}  // namespace lynxsim::app
