#include <fmt/format.h>

#include "sim/app/card_lookup.hpp"
#include "sim/app/commands.hpp"
#include "sim/compute/estimate.hpp"
#include "sim/report/estimate_json.hpp"

namespace lynxsim::app {

int cmd_estimate(const DataPaths& data, const EstimateOptions& options) {
  const ModelSpec model = find_model(data, options.model);
  const HardwareSpec gpu = find_gpu(data, options.gpu);
  const Estimate estimate =
      build_estimate(model, gpu, EstimateRequest{options.context, options.batch, options.tp});
  fmt::print("{}\n", options.json ? report::estimate_json(estimate) : estimate_table(estimate));
  return 0;
}

}  // namespace lynxsim::app
