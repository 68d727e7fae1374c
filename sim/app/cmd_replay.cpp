// `lynxsim replay RESULT --scenario DEPLOYMENT [--json]`: the requests of a real benchmark run
// (store/benchmark_result.hpp: vllm bench serve, genai-perf or AIPerf exports) sent again, with
// the same client, to the deployment scenario, and the measured latencies beside the simulated ones
// (report/replay_table.hpp).
//
// The scenario's workload is replaced by the run's successful requests, in order, with their
// prompt and output lengths (so the scenario's checks apply to them, e.g. max_context). The client:
//   - with a max_concurrency (vLLM's, genai-perf's concurrency mode, AIPerf's loadgen concurrency):
//     the closed-loop client (serving/client.hpp) at that concurrency, ready times from vLLM's
//     rate process at the recorded request_rate and burstiness (all at 0
//     for "inf"; the real gamma draws are not recorded, so the simulated ones are the scenario
//     seed's);
//   - without one, the recorded send times (start_times, timestamps) when the file has them, else the rate
//     process, open loop.
// Every method of the scenario is simulated; accuracy is measured as a run measures it.

#include <fmt/format.h>

#include "sim/core/printable.hpp"
#include "sim/app/commands.hpp"
#include "sim/app/method_quality.hpp"
#include "sim/app/scenario_check.hpp"
#include "sim/app/scenario_serving.hpp"
#include "sim/fields/object_reader.hpp"
#include "sim/report/replay_table.hpp"
#include "sim/serving/closed_loop_workload.hpp"
#include "sim/serving/serving_run.hpp"
#include "sim/store/benchmark_result.hpp"

namespace lynxsim::app {
namespace {

std::string workload_override(const store::BenchmarkResult& run, bool recorded_times) {
  nlohmann::json list = nlohmann::json::array();
  for (const store::MeasuredRequest& m : run.requests) {
    const Time at = recorded_times ? Time::from_seconds(*m.sent_s) : Time::zero();
    list.push_back({{"context", m.input_tokens}, {"output", m.output_tokens}, {"arrival", fields::time_text(at)}});
  }
  return "workload=" + nlohmann::json{{"requests", list}}.dump();
}

bool has_send_times(const store::BenchmarkResult& run) {
  return std::all_of(run.requests.begin(), run.requests.end(),
                     [](const store::MeasuredRequest& m) { return m.sent_s.has_value(); });
}

std::string client_text(const store::BenchmarkResult& run, bool recorded_times) {
  const std::string rate = run.request_rate ? fmt::format("{:g}/s", *run.request_rate) : "inf";
  const std::string source = run.client_source.empty() ? "" : " (client from " + run.client_source + ")";
  if (run.max_concurrency) {
    return fmt::format("closed loop, max concurrency {}, request rate {}, burstiness {:g}{}",
                       *run.max_concurrency, rate, run.burstiness, source);
  }
  return (recorded_times ? "open loop at the recorded send times"
                         : fmt::format("open loop, request rate {}, burstiness {:g}", rate, run.burstiness)) +
         source;
}

report::LatencySample measured_sample(const store::BenchmarkResult& run) {
  report::LatencySample s;
  for (const store::MeasuredRequest& m : run.requests) s.add(m.ttft_s, m.e2e_s, m.output_tokens);
  s.requests_per_s = run.request_throughput;
  return s;
}

}  // namespace

int cmd_replay(const DataPaths& data, const ReplayOptions& options) {
  const store::BenchmarkResult run = store::read_benchmark_result(options.result);
  const bool recorded_times = !run.max_concurrency && has_send_times(run);
  ScenarioRequest request;
  request.file = options.scenario;
  request.overrides = options.overrides;
  request.overrides.push_back(workload_override(run, recorded_times));
  scenario::Scenario s = load_checked_scenario(data, request);
  if (!recorded_times) {
    serving::set_ready_times(s.serving.requests, run.request_rate, run.burstiness, s.seed);
    const int everyone = static_cast<int>(s.serving.requests.size());
    s.serving.client = serving::ClientSpec{run.max_concurrency.value_or(everyone), Time::zero()};
  }
  const std::vector<serving::MethodQuality> qualities = measure_method_qualities(data, s);
  const serving::ServingConfig config = runnable_serving(s);
  report::ReplayComparison c;
  c.title = fmt::format("replay of {} ({}, {} requests, {} failed not replayed; {}) on {}",
                        terminal_text(options.result.string()), run.tool, run.requests.size(), run.failed,
                        client_text(run, recorded_times), terminal_text(options.scenario.string()));
  c.measured = measured_sample(run);
  for (std::size_t i = 0; i < s.methods.size(); ++i) {
    c.simulated.emplace_back(s.methods[i].name,
                             report::simulated_sample(serving::run_serving(config, s.methods[i], qualities[i])));
  }
  fmt::print("{}", options.json ? report::replay_json(c).dump(2) + "\n" : report::format_replay(c));
  return 0;
}

}  // namespace lynxsim::app
