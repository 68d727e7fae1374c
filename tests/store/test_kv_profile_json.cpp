#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/fields/issues.hpp"
#include "sim/store/kv_profile_json.hpp"
#include "sim/store/layer_profiles_json.hpp"
#include "sim/store/text_file.hpp"

using namespace lynxsim::accuracy;
using namespace lynxsim::store;

TEST_CASE("the shipped llama-like profile equals the built-in default") {
  const auto path = std::string(LYNXSIM_SOURCE_DIR) + "/configs/kv_profiles/llama-like.json";
  CHECK(kv_profile_canonical(load_kv_profile(path)) == kv_profile_canonical(default_kv_profile()));
}

TEST_CASE("profile parsing reports every error with its JSON path") {
  auto doc = kv_profile_to_json(default_kv_profile());
  doc["keys"]["bogus"] = 1;
  doc["values"]["ar_rho"] = "high";
  doc["sink"].erase("value_scale");
  doc["keys"]["ar_rho"] = nlohmann::json::array({0.9, 0.5});
  try {
    parse_kv_profile(doc);
    FAIL("expected an error");
  } catch (const lynxsim::fields::InputError& e) {
    const std::string m = e.what();
    CHECK(e.issues().size() == 4);
    CHECK(m.find("KV profile: ") == 0);
    CHECK(m.find("/keys/bogus: unknown key") != std::string::npos);
    CHECK(m.find("/values/ar_rho: expected a number") != std::string::npos);
    CHECK(m.find("/sink/value_scale: missing") != std::string::npos);
    CHECK(m.find("/keys/ar_rho") != std::string::npos);
  }
}

TEST_CASE("the shipped layer-kinds profile equals the built-in latent and state parameters") {
  const auto path = std::string(LYNXSIM_SOURCE_DIR) + "/configs/kv_profiles/layer-kinds.json";
  CHECK(load_layer_profiles(path).canonical() == default_layer_profiles().canonical());
}

TEST_CASE("layer-kinds parsing reports every error with its JSON path") {
  const auto path = std::string(LYNXSIM_SOURCE_DIR) + "/configs/kv_profiles/layer-kinds.json";
  auto doc = nlohmann::json::parse(read_text_file(path));
  doc["latent"]["bogus"] = 1;
  doc["state"]["continue_steps"] = nlohmann::json::array({4, 1});
  doc["state"]["A"] = nlohmann::json::array({16.0, 0.0});
  doc["sources"].erase("state");
  try {
    parse_layer_profiles(doc);
    FAIL("expected an error");
  } catch (const lynxsim::fields::InputError& e) {
    const std::string m = e.what();
    CHECK(e.issues().size() == 4);
    CHECK(m.find("/latent/bogus: unknown key") != std::string::npos);
    CHECK(m.find("/state/continue_steps: expected ascending integers") != std::string::npos);
    CHECK(m.find("/state/A: expected [lo, hi]") != std::string::npos);
    CHECK(m.find("/sources/state: missing") != std::string::npos);
  }
}
