#pragma once
// Files, folders and run outputs for the report tests, all under the build tree.

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/report/results_folder.hpp"

namespace lynxsim::report::testing {

// An empty folder <build>/test_report/<name>, made anew.
inline std::filesystem::path fresh_dir(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::path(LYNXSIM_BINARY_DIR) / "test_report" / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

inline std::string slurp(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A run of the scenario "demo" with the given results.
inline RunOutputs sample_outputs(const std::vector<serving::MethodResult>& results) {
  RunOutputs out;
  out.scenario_name = "demo";
  out.resolved_scenario = {{"name", "demo"}, {"schema_version", 1}};
  out.results = results;
  return out;
}

}  // namespace lynxsim::report::testing
