// libFuzzer target of the scenario loader: bytes -> checked JSON -> parse_scenario, exactly as
// `lynxsim validate` reads a file. Bad input must end in a ScenarioError (exit 2 in the tool);
// any other exception, a crash or a sanitizer report is a finding.

#include <cstdint>
#include <cstdlib>
#include <exception>
#include <string>

#include "sim/scenario/scenario.hpp"
#include "sim/scenario/strict_json.hpp"

namespace {

lynxsim::scenario::ParseOptions options() {
  const std::filesystem::path root = LYNXSIM_SOURCE_ROOT;
  return {lynxsim::scenario::DataPaths::from_root(root), root / "scenarios"};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const lynxsim::scenario::ParseOptions opts = options();
  const std::string text(reinterpret_cast<const char*>(data), size);
  nlohmann::json document;
  try {
    document = lynxsim::scenario::parse_strict_json(text);
  } catch (const lynxsim::scenario::StrictJsonError&) {
    return 0;
  }
  try {
    (void)lynxsim::scenario::parse_scenario(document, "fuzz.json", opts);
  } catch (const lynxsim::scenario::ScenarioError&) {
    return 0;
  }
  return 0;
}
