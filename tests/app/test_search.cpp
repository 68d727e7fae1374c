#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "sim/app/data_paths.hpp"
#include "sim/app/scenario_serving.hpp"
#include "sim/app/search_space.hpp"
#include "sim/plan/rate_bisection.hpp"
#include "sim/plan/slo_targets.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/serving/serving_run.hpp"

namespace lynxsim::app {
namespace {

DataPaths data() { return resolve_data_paths(LYNXSIM_SOURCE_DIR, std::nullopt); }

// One H100 prefill instance with the host-cost-free engine, prompts of one length and one output
// token, a link fast enough never to queue: the prefill instance is an M/D/1 server whose service
// time D is one prefill.
std::filesystem::path md1_scenario() {
  const auto file = std::filesystem::temp_directory_path() / "lynxsim-test-md1.json";
  std::ofstream(file) << R"({"schema_version": 1, "name": "md1", "model": "llama-3.1-8b",
    "prefill": {"gpu": "h100-sxm"}, "decode": {"gpu": "h100-sxm"},
    "network": {"topology": "single-link", "bandwidth": "800Gbps"},
    "workload": {"synthetic": {"rate_per_s": 1, "count": 3000, "context": 2048, "output": 1}},
    "serving": {"engine": "ideal"}, "methods": ["int8"], "accuracy": {"enabled": false}})";
  return file;
}

serving::MethodResult run_at(const std::filesystem::path& file, std::vector<std::string> overrides) {
  const scenario::Scenario s = scenario::load_scenario(file, overrides, data());
  return serving::run_serving(runnable_serving(s), s.methods.at(0), {});
}

}  // namespace

// M/D/1: an arrival finds the server idle with probability 1 - rho, rho = lambda * D. A request
// meets TTFT <= TTFT_alone + D / 100 (almost) only when it did not wait, so the share meeting it
// is 1 - lambda * D and the highest rate at which half of the requests meet it is 0.5 / D.
TEST_CASE("the bisection finds the M/D/1 rate at which half of the requests wait, within its tolerance") {
  const auto file = md1_scenario();
  const serving::MethodResult alone = run_at(file, {"workload.synthetic.count=1"});
  const serving::RequestMetrics& r = alone.requests.at(0);
  const double d = (r.prefill_done_at - r.prefill_start_at).seconds();
  plan::SloTargets targets;
  targets.ttft = r.ttft_commit() + Time::from_seconds(d / 100.0);
  targets.ttft_percentile = 50.0;
  targets.min_attainment = 0.5;
  const plan::RateRange range{0.05 / d, 2.0 / d, 0.02};
  const plan::RateSearchResult found = plan::highest_rate(range, [&](double rate) {
    return plan::evaluate_slo(run_at(file, {rate_override(rate)}).requests, targets).meets;
  });
  const double expected = 0.5 / d;
  // The bisection's tolerance plus the sampling error of a share of 3000 requests (3 sigma).
  CHECK(found.found == doctest::Approx(expected).epsilon(0.02 + 3 * std::sqrt(0.25 / 3000)));
  CHECK(found.failed_at <= found.found * 1.02 + 1e-12);
  CHECK(found.simulations <= 2 + static_cast<int>(std::ceil(std::log2(std::log(40.0) / std::log(1.02)))));
}

TEST_CASE("the bisection brackets a step function's threshold within its tolerance") {
  const plan::RateSearchResult r = plan::highest_rate({0.1, 100.0, 0.01}, [](double rate) { return rate <= 7.3; });
  CHECK(r.found <= 7.3);
  CHECK(r.failed_at > 7.3);
  CHECK(r.failed_at <= r.found * 1.01);
  CHECK(plan::highest_rate({0.1, 100.0, 0.01}, [](double) { return false; }).found == 0.0);
  const plan::RateSearchResult capped = plan::highest_rate({0.1, 100.0, 0.01}, [](double) { return true; });
  CHECK(capped.capped);
  CHECK(capped.found == 100.0);
}

}  // namespace lynxsim::app
