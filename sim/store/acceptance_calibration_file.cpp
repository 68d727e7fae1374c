#include "sim/store/acceptance_calibration_file.hpp"

#include <fstream>
#include <limits>
#include <stdexcept>

#include "sim/store/json_checker.hpp"

namespace lynxsim::store {
namespace {

using accuracy::AcceptanceCalibration;
using accuracy::CalibrationFile;
using accuracy::kCalibrationSchemaVersion;

constexpr int kMaxInt = std::numeric_limits<int>::max();

nlohmann::json entry_json(const AcceptanceCalibration& c) {
  return {{"method", c.method},
          {"context", c.context},
          {"proxy_acceptance", c.proxy_acceptance},
          {"real_acceptance", c.real_acceptance},
          {"real_trials", c.real_trials}};
}

AcceptanceCalibration read_entry(JsonChecker& check, const nlohmann::json& e, const std::string& path) {
  check.expect_keys(e, path, {"method", "context", "proxy_acceptance", "real_acceptance", "real_trials"});
  AcceptanceCalibration c;
  c.method = check.text(e, "method", path);
  c.context = check.integer(e, "context", path, 1, kMaxInt);
  c.proxy_acceptance = check.number(e, "proxy_acceptance", path, 0.0, 1.0);
  c.real_acceptance = check.number(e, "real_acceptance", path, 0.0, 1.0);
  c.real_trials = check.integer(e, "real_trials", path, 1, kMaxInt);
  return c;
}

void read_header(JsonChecker& check, const nlohmann::json& v, CalibrationFile& f) {
  if (check.integer(v, "schema_version", "", 1, kMaxInt) != kCalibrationSchemaVersion) {
    check.error("/schema_version", "expected " + std::to_string(kCalibrationSchemaVersion));
  }
  f.model = check.text(v, "model", "");
  f.seed = static_cast<std::uint64_t>(check.integer(v, "seed", "", 0, kMaxInt));
  f.k_max = check.integer(v, "k_max", "", 1, 64);
  f.acceptance_samples = check.integer(v, "acceptance_samples", "", 1, kMaxInt);
  f.acceptance_stride = check.integer(v, "acceptance_stride", "", 0, kMaxInt);
}

}  // namespace

nlohmann::json calibration_to_json(const CalibrationFile& f) {
  nlohmann::json entries = nlohmann::json::array();
  for (const auto& e : f.entries) entries.push_back(entry_json(e));
  return {{"schema_version", kCalibrationSchemaVersion},
          {"model", f.model},
          {"seed", f.seed},
          {"k_max", f.k_max},
          {"acceptance_samples", f.acceptance_samples},
          {"acceptance_stride", f.acceptance_stride},
          {"entries", entries}};
}

CalibrationFile calibration_from_json(const nlohmann::json& v, const std::string& document) {
  JsonChecker check(document);
  check.expect_keys(v, "", {"schema_version", "model", "seed", "k_max", "acceptance_samples",
                            "acceptance_stride", "entries"});
  CalibrationFile f;
  if (v.is_object()) {
    read_header(check, v, f);
    const auto it = v.find("entries");
    if (it == v.end() || !it->is_array()) {
      check.error("/entries", "expected an array of entries");
    } else {
      for (std::size_t i = 0; i < it->size(); ++i) {
        f.entries.push_back(read_entry(check, (*it)[i], "/entries/" + std::to_string(i)));
      }
    }
  }
  check.throw_if_errors();
  return f;
}

CalibrationFile read_calibration_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path.string() + ": cannot open the acceptance calibration file");
  nlohmann::json value;
  try {
    in >> value;
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(path.string() + ": not valid JSON: " + e.what());
  }
  return calibration_from_json(value, path.string());
}

}  // namespace lynxsim::store
