#include "sim/app/run_acceptance.hpp"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <vector>

#include "sim/store/acceptance_calibration_file.hpp"

namespace lynxsim::app {
namespace {

RunAcceptance measured(const accuracy::CalibrationFile& file, const accuracy::AcceptanceCalibration& entry) {
  const double margin = 2.0 * entry.real_standard_error();
  return {entry.real_acceptance, std::max(0.0, entry.real_acceptance - margin),
          std::min(1.0, entry.real_acceptance + margin),
          fmt::format("real {} at {} tokens", file.model, entry.context)};
}

RunAcceptance transferred(double proxy, const std::string& method, int context,
                          const std::vector<accuracy::CalibrationFile>& calibrations) {
  std::vector<double> alphas;
  std::string sources;
  for (const auto& file : calibrations) {
    const auto* entry = file.nearest(method, context);
    if (entry == nullptr) continue;
    alphas.push_back(accuracy::calibrate_acceptance(proxy, *entry));
    sources += fmt::format("{}{} at {} tokens ({:.3f})", sources.empty() ? "" : ", ", file.model, entry->context,
                           alphas.back());
  }
  if (alphas.empty()) return {proxy, proxy, proxy, "proxy"};
  const auto [low, high] = std::minmax_element(alphas.begin(), alphas.end());
  return {*low, *low, *high, "proxy calibrated on " + sources + (*high > *low ? ": the lowest" : "")};
}

}  // namespace

std::vector<accuracy::CalibrationFile> load_calibrations(const scenario::DataPaths& data) {
  std::vector<accuracy::CalibrationFile> out;
  for (const auto& path : data.acceptance_calibrations()) {
    if (std::filesystem::exists(path)) out.push_back(store::read_calibration_file(path));
  }
  return out;
}

RunAcceptance choose_acceptance(double proxy, const std::string& method, const std::string& model, int context,
                                const std::vector<accuracy::CalibrationFile>& calibrations) {
  for (const auto& file : calibrations) {
    if (file.model != model) continue;
    if (const auto* entry = file.nearest(method, context)) return measured(file, *entry);
  }
  return transferred(proxy, method, context, calibrations);
}

RunAcceptance run_acceptance(const scenario::DataPaths& data, const std::string& model, int context,
                             const std::string& method, double proxy) {
  return choose_acceptance(proxy, method, model, context, load_calibrations(data));
}

}  // namespace lynxsim::app
