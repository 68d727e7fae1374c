#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "sim/app/card_lookup.hpp"
#include "sim/app/data_paths.hpp"
#include "sim/app/scenario_serving.hpp"
#include "sim/plan/deployment_cost.hpp"
#include "sim/plan/energy.hpp"
#include "sim/plan/memory_fit.hpp"
#include "sim/plan/pareto.hpp"
#include "sim/plan/slo_targets.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/serving/serving_run.hpp"

namespace lynxsim::app {
namespace {

DataPaths data() { return resolve_data_paths(LYNXSIM_SOURCE_DIR, std::nullopt); }

std::filesystem::path two_instance_scenario(const std::string& decode_gpu, int decode_tp, int context) {
  const auto file = std::filesystem::temp_directory_path() / "lynxsim-test-two-instance.json";
  std::ofstream(file) << R"({"schema_version": 1, "name": "two", "model": "llama-3.1-70b",
    "prefill": {"gpu": "h100-sxm", "tp": 4}, "decode": {"gpu": ")" << decode_gpu << R"(", "tp": )" << decode_tp << R"(},
    "network": {"topology": "single-link", "bandwidth": "100Gbps"},
    "workload": {"requests": [{"context": )" << context << R"(, "output": 256}]},
    "serving": {"engine": "ideal"}, "methods": ["int8"], "accuracy": {"enabled": false}})";
  return file;
}

bool loader_accepts(const std::string& gpu, int tp, int context) {
  try {
    scenario::load_scenario(two_instance_scenario(gpu, tp, context), {}, data());
    return true;
  } catch (const scenario::ScenarioError& e) {
    REQUIRE(e.issues().at(0).json_path == "/decode");
    return false;
  }
}

}  // namespace

TEST_CASE("pruning drops exactly the decode configurations the loader refuses, over a small exhaustive grid") {
  const ModelSpec model = find_model(data(), "llama-3.1-70b");
  int feasible = 0;
  int pruned = 0;
  for (const char* name : {"a100-40g", "a100-80g", "h100-sxm", "h200"}) {
    const HardwareSpec gpu = find_gpu(data(), name);
    for (const int tp : {1, 2, 4, 8}) {
      for (const int context : {1024, 131072}) {
        const plan::FitResult fit =
            plan::memory_fit({&model, &gpu, tp, default_layout(model, tp, false), context + 256, 0.9});
        const bool accepted = loader_accepts(name, tp, context);
        CHECK_MESSAGE(fit.fits == accepted, name, " tp", tp, " context ", context);
        feasible += accepted ? 1 : 0;
        pruned += fit.fits ? 0 : 1;
      }
    }
  }
  CHECK(feasible > 0);
  CHECK(pruned > 0);
}

TEST_CASE("a prefill fits when its weights and the longest prompt's KV fit the whole HBM") {
  const ModelSpec model = find_model(data(), "llama-3.1-70b");
  const HardwareSpec h100 = find_gpu(data(), "h100-sxm");
  const plan::FitResult tp1 = plan::memory_fit({&model, &h100, 1, {}, 1024, 1.0});
  CHECK_FALSE(tp1.fits);  // 141 GB of BF16 weights on one 80 GB GPU
  const plan::FitResult tp2 = plan::memory_fit({&model, &h100, 2, {}, 1024, 1.0});
  CHECK(tp2.fits);
  CHECK(tp2.weights_bytes + tp2.kv_bytes <= tp2.usable_bytes);
  CHECK(tp2.usable_bytes == doctest::Approx(80e9));
}

TEST_CASE("the price of a two-instance deployment is the sum by hand") {
  plan::PriceTable prices;
  prices.gpus["h100-sxm"] = {3.24, "", ""};
  prices.gpus["a100-80g"] = {1.99, "", ""};
  prices.ports = {{BitsPerSecond{25e9}, {0.05, "", ""}}, {BitsPerSecond{100e9}, {0.2, "", ""}}};
  const plan::DeploymentCost c = plan::deployment_cost(prices, {{"h100-sxm", 4, 1}, {"a100-80g", 2, 1}}, BitsPerSecond{40e9});
  CHECK(c.gpus == 6);
  CHECK(c.gpu_usd_per_hour == doctest::Approx(4 * 3.24 + 2 * 1.99));
  CHECK(c.network_usd_per_hour == doctest::Approx(6 * 0.2));  // 40 Gb/s needs the 100 Gb/s port
  CHECK(plan::usd_per_million_tokens(c.usd_per_hour(), 2.0, 250.0) ==
        doctest::Approx(c.usd_per_hour() / (2.0 * 250.0 * 3600.0) * 1e6));
  CHECK_THROWS_AS(plan::deployment_cost(prices, {{"b200", 1, 1}}, BitsPerSecond{25e9}), std::invalid_argument);
  CHECK_THROWS_AS(plan::deployment_cost(prices, {{"h100-sxm", 1, 1}}, BitsPerSecond{400e9}), std::invalid_argument);
}

TEST_CASE("energy of a two-instance run: idle, network and work sums by hand") {
  const scenario::Scenario s = scenario::load_scenario(two_instance_scenario("a100-80g", 4, 4096), {}, data());
  serving::MethodResult result = serving::run_serving(runnable_serving(s), s.methods.at(0), {});
  plan::EnergyTable table;
  table.gpus["h100-sxm"] = {100.0, 700.0, ""};
  table.gpus["a100-80g"] = {50.0, 400.0, ""};
  table.nic_j_per_bit = 0.0;
  table.switch_j_per_bit = 10e-12;
  const int hops = 3;
  const serving::EnergyTotals e = plan::run_energy(s.serving, result, table, hops);
  const double seconds = result.simulated_time.seconds();
  CHECK(e.gpu_idle_j == doctest::Approx((4 * 100.0 + 4 * 50.0) * seconds));
  const double bytes = static_cast<double>(result.requests.at(0).kv_bytes_sent.value);
  CHECK(bytes > 0);
  CHECK(e.network_j == doctest::Approx(bytes * 8 * 10e-12 * hops));
  CHECK(e.gpu_work_j > 0);
  CHECK(e.codec_j > 0);
  CHECK(e.per_token_j == doctest::Approx(e.total_j() / 256));
  CHECK(e.per_request_j == doctest::Approx(e.total_j()));
}

TEST_CASE("an idle interval uses idle power times its length; a transfer's network energy is bytes x energy per bit x hops") {
  const scenario::Scenario s = scenario::load_scenario(two_instance_scenario("h100-sxm", 2, 1024), {}, data());
  serving::MethodResult idle;
  idle.method = s.methods.at(0);
  idle.simulated_time = Time::from_seconds(3600.0);
  plan::EnergyTable table;
  table.gpus["h100-sxm"] = {105.0, 700.0, ""};
  table.nic_j_per_bit = 90e-12;
  const serving::EnergyTotals e = plan::run_energy(s.serving, idle, table, 0);
  CHECK(e.total_j() == doctest::Approx(105.0 * 6 * 3600.0));
  CHECK(e.gpu_work_j == 0.0);
  CHECK(e.network_j == 0.0);
  serving::RequestMetrics transfer;
  transfer.prefill_instance = -1;
  transfer.decode_instance = -1;
  transfer.kv_bytes_sent = Bytes{1'000'000'000};
  idle.requests.push_back(transfer);
  idle.simulated_time = Time::zero();
  table.nic_j_per_bit = 0.0;
  table.switch_j_per_bit = 9.77e-12;
  CHECK(plan::run_energy(s.serving, idle, table, 5).network_j == doctest::Approx(1e9 * 8 * 9.77e-12 * 5));
  CHECK(plan::switch_hops(s.network.topology) == 0);
}

TEST_CASE("the Pareto front keeps the points no other beats on cost and goodput") {
  const std::vector<plan::ParetoPoint> points{{10, 1.0}, {12, 2.0}, {12, 1.5}, {8, 0.0}, {20, 2.0}, {15, 3.0}};
  CHECK(plan::pareto_front(points) == std::vector<std::size_t>{0, 1, 5});
}

TEST_CASE("SLO targets read the percentiles and attainment of the chosen TTFT") {
  std::vector<serving::RequestMetrics> requests(10);
  for (int i = 0; i < 10; ++i) {
    serving::RequestMetrics& r = requests[static_cast<std::size_t>(i)];
    r.output_tokens = 1;
    r.first_token_at = Time::from_seconds(0.1 * (i + 1));
    r.first_commit_at = Time::from_seconds(0.2 * (i + 1));
    r.last_token_at = r.first_commit_at;
  }
  plan::SloTargets t;
  t.ttft = Time::from_seconds(1.0);
  t.ttft_percentile = 50;
  t.min_attainment = 0.5;
  const plan::SloOutcome committed = plan::evaluate_slo(requests, t);
  CHECK(committed.attainment == doctest::Approx(0.5));  // commits at 0.2 .. 2.0 s
  CHECK(committed.ttft_s == doctest::Approx(1.1));
  CHECK_FALSE(committed.meets);
  t.reading = plan::TtftReading::speculative;
  const plan::SloOutcome speculative = plan::evaluate_slo(requests, t);
  CHECK(speculative.attainment == doctest::Approx(1.0));
  CHECK(speculative.meets);
}

}  // namespace lynxsim::app
