#pragma once
// The JSON form of the latent and state parameters (accuracy::LayerProfiles;
// configs/kv_profiles/layer-kinds.json, fields documented in docs/accuracy.md, "Latents and states").
//
// Strict like the KV profile (kv_profile_json.hpp): every field is required, unknown keys and wrong
// types are errors, all reported at once with their JSON paths (fields::InputError, exit code 2).
// "sources" holds one text per section saying where each value comes from; it is not part of the
// measurement (nor of the cache key).

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "sim/accuracy/kv/layer_profiles.hpp"

namespace lynxsim::store {

accuracy::LayerProfiles parse_layer_profiles(const nlohmann::json& document,
                                             const std::string& source = "layer profiles");
accuracy::LayerProfiles load_layer_profiles(const std::string& path);
nlohmann::json layer_profiles_to_json(const accuracy::LayerProfiles& profiles);

}  // namespace lynxsim::store
