// libFuzzer target of `--set`: each line of the input is one override "path=value", applied to a
// bundled scenario (scenarios/quickstart.json) exactly as `lynxsim validate --set ...` applies
// them. Bad input must end in a ScenarioError (exit 2 in the tool); any other exception, a crash
// or a sanitizer report is a finding.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "sim/scenario/scenario.hpp"
#include "sim/scenario/scenario_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::filesystem::path root = LYNXSIM_SOURCE_ROOT;
  static const auto paths = lynxsim::scenario::DataPaths::from_root(root);
  std::vector<std::string> overrides;
  std::string line;
  for (std::size_t i = 0; i <= size; ++i) {
    if (i == size || data[i] == '\n') {
      if (!line.empty()) overrides.push_back(line);
      line.clear();
    } else {
      line += static_cast<char>(data[i]);
    }
  }
  try {
    (void)lynxsim::scenario::load_scenario(root / "scenarios" / "quickstart.json", overrides, paths);
  } catch (const lynxsim::scenario::ScenarioError&) {
    return 0;
  }
  return 0;
}
