#pragma once
// `lynxsim accuracy`'s measurement, shared with the Python module's accuracy(): the precision of
// each method on a model's synthetic KV (or a --kv-file), or, for the real models (smollm2-135m,
// gemma3-270m) without a --kv-file, the real model's measurement. Exactly one result is set.

#include <nlohmann/json.hpp>
#include <optional>

#include "sim/accuracy/accuracy_result.hpp"
#include "sim/accuracy/real_model/real_model_result.hpp"
#include "sim/app/commands.hpp"

namespace lynxsim::app {

struct AccuracyMeasurement {
  std::optional<accuracy::AccuracyResult> synthetic;
  std::optional<accuracy::RealModelResult> real;
};

AccuracyMeasurement measure_accuracy(const DataPaths& data, const AccuracyOptions& options);

// What `accuracy --json` prints.
nlohmann::json accuracy_json(const AccuracyMeasurement& measurement);

}  // namespace lynxsim::app
