#pragma once
// The JSON form of a synthetic KV profile (accuracy::KvProfile; configs/kv_profiles/*.json, fields
// documented in docs/accuracy.md).
//
// Parsing is strict: every field is required, unknown keys and wrong types are errors, and all errors
// of a profile are reported at once, each with its JSON path. The canonical form (compact JSON of
// every field, keys sorted) is what the accuracy and CacheGen-size cache keys hold.

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "sim/accuracy/kv/kv_profile.hpp"

namespace lynxsim::store {

accuracy::KvProfile parse_kv_profile(const nlohmann::json& document);  // throws std::invalid_argument
// Throws std::invalid_argument naming the file when it is unreadable or malformed.
accuracy::KvProfile load_kv_profile(const std::string& path);
nlohmann::json kv_profile_to_json(const accuracy::KvProfile& profile);
std::string kv_profile_canonical(const accuracy::KvProfile& profile);

}  // namespace lynxsim::store
