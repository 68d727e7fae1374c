#pragma once
// Strict loading of model cards (models/*.json), hardware profiles (configs/gpus/*.json) and
// serving-engine profiles (configs/engines/*.json).
//
// Model card: {"schema_version": 1, "name", "description", "num_layers", "hidden_size",
// "num_heads", "num_kv_heads", "head_dim", "ffn_dim", "vocab_size", "num_params", "rope_theta",
// "max_context", "source"}: the integers are positive JSON integers, num_params and rope_theta
// positive numbers, name/description/source non-empty strings.
//
// Hardware profile: {"schema_version": 1, "name", "description", and one object per quantity,
// {"value": ..., "source": "..."}}: quantities with a unit take a string with that unit ("80GB",
// "3.35TB/s", "989.4TFLOPS", "30us", "400Gbps"); efficiencies take a number in (0, 1],
// gemm_half_tokens a number >= 0, scale_up_step_latency a duration >= 0. Every value needs a
// non-empty "source" (or "comment") string.
//
// Engine profile: {"schema_version": 1, "name", "description", and the EngineSpec fields as
// {"value", "source"} objects: durations (zero allowed), "cuda_graphs" a JSON boolean and
// "tp_comm_overlap" a number in [0, 1].
//
// Unknown keys, missing fields, wrong types, bare numbers where a unit is needed and non-positive
// values are errors. All errors of one file are collected and thrown together as one CardError whose
// message lists lines "file: /json/pointer: what was expected".

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "sim/compute/engine_spec.hpp"
#include "sim/compute/hardware_spec.hpp"
#include "sim/compute/model_spec.hpp"

namespace lynxsim {

class CardError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

ModelSpec load_model_card(const std::filesystem::path& path);
HardwareSpec load_hardware_profile(const std::filesystem::path& path);
EngineSpec load_engine_profile(const std::filesystem::path& path);

// The same schema read from an object already parsed (an inline card of a scenario); `source`
// prefixes every error line in place of a file name.
ModelSpec model_card_from_json(const nlohmann::json& root, const std::string& source);
HardwareSpec hardware_profile_from_json(const nlohmann::json& root, const std::string& source);
EngineSpec engine_profile_from_json(const nlohmann::json& root, const std::string& source);

// Every *.json in dir, loaded and sorted by name; the first bad file throws its CardError.
std::vector<ModelSpec> list_model_cards(const std::filesystem::path& dir);
std::vector<HardwareSpec> list_hardware(const std::filesystem::path& dir);
std::vector<EngineSpec> list_engines(const std::filesystem::path& dir);

}  // namespace lynxsim
