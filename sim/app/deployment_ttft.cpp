#include "sim/app/deployment_ttft.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "sim/app/scenario_serving.hpp"
#include "sim/serving/serving_run.hpp"

namespace lynxsim::app {
namespace {

void check_matches(const scenario::Scenario& s, const std::filesystem::path& deployment,
                   const CalibrationPoint& point) {
  const auto& prefill = s.serving.prefill;
  if (s.serving.model.name != point.model || prefill.gpu.name != point.gpu ||
      prefill.tensor_parallel != point.tp) {
    throw std::runtime_error(fmt::format(
        "{}: the deployment runs {} on {} at TP {}, its row names {} on {} at TP {}",
        deployment.string(), s.serving.model.name, prefill.gpu.name, prefill.tensor_parallel,
        point.model, point.gpu, point.tp));
  }
}

}  // namespace

DeploymentTtft deployment_ttft(const DataPaths& data, const std::filesystem::path& deployment,
                               const CalibrationPoint& point) {
  const std::vector<std::string> overrides{
      fmt::format(R"(workload={{"requests":[{{"context":{},"output":{}}}]}})", point.tokens,
                  point.context),
      R"(methods=["bf16"])", "accuracy.enabled=false"};
  const scenario::Scenario s = scenario::load_scenario(deployment, overrides, data);
  check_matches(s, deployment, point);
  const serving::MethodResult result = serving::run_serving(runnable_serving(s), s.methods.at(0), {});
  const auto& engine = s.serving.engine;
  return {result.requests.at(0).ttft().seconds() * 1e3, engine ? engine->name : "none"};
}

}  // namespace lynxsim::app
