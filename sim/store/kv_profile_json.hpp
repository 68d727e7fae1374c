#pragma once
// The JSON form of a synthetic KV profile (accuracy::KvProfile; configs/kv_profiles/*.json, fields
// documented in docs/accuracy.md).
//
// Parsing is strict (the one strict reader, sim/fields): every field is required, unknown keys and
// wrong types are errors, and all errors of a profile are reported at once, each with its JSON path. The canonical form (compact JSON of
// every field, keys sorted) is what the accuracy and CacheGen-size cache keys hold.

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "sim/accuracy/kv/kv_profile.hpp"

namespace lynxsim::store {

// Read by sim/fields' ObjectReader: every problem is an issue at its JSON pointer, and all of them
// are thrown together as one fields::InputError naming `source` (exit code 2).
accuracy::KvProfile parse_kv_profile(const nlohmann::json& document,
                                     const std::string& source = "KV profile");
// An unreadable file throws std::invalid_argument naming it; bad JSON or a bad profile InputError.
accuracy::KvProfile load_kv_profile(const std::string& path);
nlohmann::json kv_profile_to_json(const accuracy::KvProfile& profile);
std::string kv_profile_canonical(const accuracy::KvProfile& profile);

}  // namespace lynxsim::store
