#include "sim/compute/timing_calibration.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/compute/timing_model.hpp"

namespace lynxsim {
namespace {

constexpr const char* kHeader = "group,model,gpu,tp,tokens,context,measured_ms,holdout,source";
// vidur profiled decode attention with block tables sized for max_model_len = 4096 tokens (the
// max_model_len column of its attention.csv), which is the width the kernel's split heuristic sees.
constexpr int kVidurBlockTableTokens = 4096;
const std::vector<std::string> kGroups = {"layer_linear_decode", "layer_linear_prefill",
                                          "layer_linear_tp", "attention_decode", "allreduce"};

std::vector<std::string> split_row(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream in(line);
  std::string field;
  while (std::getline(in, field, ',')) fields.push_back(field);
  return fields;
}

CalibrationPoint parse_row(const std::vector<std::string>& f) {
  if (f.size() != 9) throw std::invalid_argument("expected 9 fields");
  CalibrationPoint p{f[0], f[1], f[2], std::stoi(f[3]), std::stoll(f[4]), std::stoll(f[5]),
                     std::stod(f[6]), f[7] == "1", f[8]};
  if (std::find(kGroups.begin(), kGroups.end(), p.group) == kGroups.end()) {
    throw std::invalid_argument(fmt::format("unknown group '{}'", p.group));
  }
  if (p.tp < 1 || p.tokens < 1 || p.context < 0 || !(p.measured_ms > 0.0) ||
      (f[7] != "0" && f[7] != "1") || p.source.empty()) {
    throw std::invalid_argument("tp, tokens, measured_ms must be positive, holdout 0 or 1, source given");
  }
  return p;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

std::vector<CalibrationPoint> load_calibration_points(const std::filesystem::path& csv) {
  std::ifstream in(csv);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot read", csv.string()));
  std::string line;
  if (!std::getline(in, line) || line != kHeader) {
    throw std::runtime_error(fmt::format("{}:1: header must be '{}'", csv.string(), kHeader));
  }
  std::vector<CalibrationPoint> points;
  for (int number = 2; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    try {
      points.push_back(parse_row(split_row(line)));
    } catch (const std::exception& e) {
      throw std::runtime_error(fmt::format("{}:{}: {}", csv.string(), number, e.what()));
    }
  }
  return points;
}

double predict_calibration_ms(const CalibrationPoint& point, const ModelSpec& model,
                              const HardwareSpec& hw) {
  if (point.group == "allreduce") {
    return TimingModel::ring_allreduce(hw, point.tp, Bytes{point.tokens}).seconds() * 1e3;
  }
  const TimingModel timing(model, hw, point.tp);
  if (point.group == "attention_decode") {
    return timing
               .decode_attention(static_cast<int>(point.tokens), static_cast<int>(point.context),
                                 kVidurBlockTableTokens)
               .time.seconds() *
           1e3;
  }
  const SequenceChunk chunk{static_cast<int>(point.tokens), static_cast<int>(point.context)};
  const LayerBreakdown layer = timing.layer_breakdown({&chunk, 1});
  return (layer.linear.time + layer.elementwise.time).seconds() * 1e3;
}

double relative_error(double predicted, double measured) {
  return std::abs(predicted - measured) / measured;
}

std::vector<CalibrationSummary> summarize_calibration(const std::vector<CalibrationPoint>& points,
                                                      const std::vector<double>& predicted_ms) {
  std::vector<CalibrationSummary> out;
  std::vector<std::vector<double>> errors;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const CalibrationPoint& p = points[i];
    auto it = std::find_if(out.begin(), out.end(), [&](const CalibrationSummary& s) {
      return s.group == p.group && s.holdout == p.holdout;
    });
    if (it == out.end()) {
      out.push_back({p.group, p.holdout, 0, 0.0, 0.0});
      errors.emplace_back();
      it = out.end() - 1;
    }
    errors[static_cast<std::size_t>(it - out.begin())].push_back(
        relative_error(predicted_ms[i], p.measured_ms));
  }
  for (std::size_t g = 0; g < out.size(); ++g) {
    out[g].points = static_cast<int>(errors[g].size());
    out[g].median_error = median(errors[g]);
    out[g].worst_error = *std::max_element(errors[g].begin(), errors[g].end());
  }
  return out;
}

}  // namespace lynxsim
