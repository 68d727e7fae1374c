#include "sim/compute/timing_calibration.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/compute/static_batch.hpp"
#include "sim/compute/timing_model.hpp"

namespace lynxsim {
namespace {

// vidur profiled decode attention with block tables sized for max_model_len = 4096 tokens (the
// max_model_len column of its attention.csv), which is the width the kernel's split heuristic sees.
constexpr int kVidurBlockTableTokens = 4096;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

std::span<const std::string_view> calibration_groups() {
  static constexpr std::array<std::string_view, 12> kGroups = {
      "layer_linear_decode", "layer_linear_prefill", "layer_linear_tp", "attention_decode",
      "allreduce",           "allreduce_engine",     "allreduce_small", "prefill_tp",
      "decode_step",         "decode_run",           "decode_run_tp",   "pd_ttft"};
  return kGroups;
}

std::string_view calibration_engine(std::string_view group) {
  if (group == "decode_step") return "lmdeploy-turbomind";
  return group == "decode_run" || group == "decode_run_tp" ? "vllm-0.5" : "vllm";
}

bool calibration_uses_engine(std::string_view group) {
  return group == "allreduce_small" || group == "decode_step" || group == "decode_run" ||
         group == "decode_run_tp";
}

double predict_calibration_ms(const CalibrationPoint& point, const ModelSpec& model,
                              const HardwareSpec& hw, const EngineSpec* engine) {
  if (point.group == "pd_ttft") {
    throw std::invalid_argument("pd_ttft rows are predicted by running their deployment");
  }
  if (point.group == "allreduce" || point.group == "allreduce_engine") {
    return TimingModel::ring_allreduce(hw, point.tp, Bytes{point.tokens}).seconds() * 1e3;
  }
  const bool with_engine = engine != nullptr && calibration_uses_engine(point.group);
  const TimingModel timing(model, hw, point.tp,
                           with_engine ? std::optional<EngineSpec>(*engine) : std::nullopt);
  if (point.group == "allreduce_small") {
    return timing.tp_allreduce(point.tp, Bytes{point.tokens}).seconds() * 1e3;
  }
  if (point.group == "decode_step") {
    const std::vector<int> kv(static_cast<std::size_t>(point.tokens),
                              static_cast<int>(point.context));
    return timing.decode_step(kv).time.seconds() * 1e3;
  }
  if (point.group == "decode_run" || point.group == "decode_run_tp") {
    const int prompt = static_cast<int>(point.context);
    const StaticBatch batch{static_cast<int>(point.tokens), prompt, prompt};
    return static_batch_time(timing, batch).seconds() * 1e3;
  }
  if (point.group == "prefill_tp") return timing.prefill(static_cast<int>(point.tokens)).time.seconds() * 1e3;
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
