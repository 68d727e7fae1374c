#pragma once
// Time to first token of a prefill/decode deployment, the prediction of the calibration set's
// pd_ttft rows (data/calibration/timing/).
//
// A deployment is a scenario file beside the rows' CSV (<stem>.json next to <stem>.csv): model,
// GPUs, TP degrees, network and serving engine as the source of the rows describes them. A row is
// predicted by running that scenario with its workload replaced by one request of the row's prompt
// (`tokens`) and output (`context`) lengths, alone in the cluster as at the concurrency of 1 the
// sources measured at, transferring BF16 KV (method `bf16`, what the measured connectors send);
// the prediction is that request's client TTFT: arrival to the first token the client receives,
// the engine's host costs, prefill, KV transfer, handover and the decode side's first step
// included.
// The row's model, gpu and tp must be the scenario's (its prefill group), else std::runtime_error
// naming both.

#include <filesystem>
#include <string>

#include "sim/app/data_paths.hpp"
#include "sim/compute/timing_calibration.hpp"

namespace lynxsim::app {

struct DeploymentTtft {
  double ms = 0.0;
  std::string engine;  // the deployment's serving engine, "none" without one
};

DeploymentTtft deployment_ttft(const DataPaths& data, const std::filesystem::path& deployment,
                               const CalibrationPoint& point);

}  // namespace lynxsim::app
