#pragma once
// Strict, error-collecting access to JSON objects for the network config parser.
//
// Each accessor reads one key of an object, returns std::nullopt when it is absent or wrong, and
// records a ScenarioIssue with the JSON path ("/network/links/2/rate") when it is wrong, or absent
// though required. Quantities with units must be strings parsed by the sim/core unit parsers.

#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/time.hpp"
#include "sim/core/units.hpp"
#include "sim/scenario/topology_json.hpp"

namespace lynxsim::scenario {

class JsonReader {
public:
  using json = nlohmann::json;
  explicit JsonReader(std::vector<ScenarioIssue>& issues) : issues_(issues) {}

  void error(const std::string& path, std::string message) {
    issues_.push_back({path, std::move(message)});
  }
  // True when j is an object whose keys are all in `allowed` (unknown keys are reported).
  bool object(const json& j, const std::string& path, std::initializer_list<std::string_view> allowed);

  std::optional<Time> time(const json& o, const std::string& path, const char* key, bool required);
  std::optional<BitsPerSecond> rate(const json& o, const std::string& path, const char* key,
                                    bool required);
  std::optional<double> number(const json& o, const std::string& path, const char* key,
                               bool required);
  std::optional<int> integer(const json& o, const std::string& path, const char* key, bool required,
                             int min_value);
  std::optional<std::string> string(const json& o, const std::string& path, const char* key,
                                    bool required);
  std::optional<bool> boolean(const json& o, const std::string& path, const char* key);
  std::optional<std::vector<std::string>> strings(const json& o, const std::string& path,
                                                  const char* key, bool required);

private:
  const json* get(const json& o, const std::string& path, const char* key, bool required);
  std::vector<ScenarioIssue>& issues_;
};

inline std::string child(const std::string& path, std::string_view key) {
  return path + "/" + std::string(key);
}

}  // namespace lynxsim::scenario
