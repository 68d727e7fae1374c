#include <fmt/format.h>

#include <optional>
#include <stdexcept>

#include "sim/app/card_lookup.hpp"
#include "sim/app/commands.hpp"
#include "sim/app/input_errors.hpp"
#include "sim/compute/estimate.hpp"
#include "sim/report/estimate_json.hpp"

namespace lynxsim::app {

Estimate run_estimate(const DataPaths& data, const EstimateOptions& options) {
  const ModelSpec model = find_model(data, options.model);
  const HardwareSpec gpu = find_gpu(data, options.gpu);
  const EstimateRequest request{options.context,        options.batch,
                                options.tp,             options.prefill_attention_dp,
                                options.decode_attention_dp, options.expert_parallel,
                                options.expert_load_imbalance, options.output};
  std::optional<EngineSpec> engine;
  if (options.engine != "none") engine = find_engine(data, options.engine);
  try {
    return build_estimate(model, gpu, request, engine);
  } catch (const std::invalid_argument& e) {
    throw InputError(fmt::format("estimate: {}", e.what()));
  } catch (const std::overflow_error& e) {
    throw InputError(fmt::format("estimate: a time beyond the simulated clock: {}", e.what()));
  }
}

int cmd_estimate(const DataPaths& data, const EstimateOptions& options) {
  const Estimate estimate = run_estimate(data, options);
  fmt::print("{}\n", options.json ? report::estimate_json(estimate) : estimate_table(estimate));
  return 0;
}

}  // namespace lynxsim::app
