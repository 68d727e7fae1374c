#include "sim/compute/timing_fit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lynxsim {
namespace {

struct Parameter {
  std::string name;
  double lo;
  double hi;
  double step;
  std::function<double&(HardwareSpec&)> scalar;  // for fractions and token counts
  Time HardwareSpec::*time = nullptr;            // for times, set in microseconds
  bool optional = false;                         // fitted only where the start profile has it
};

struct Family {
  std::vector<std::string> groups;
  std::vector<Parameter> parameters;
};

std::vector<Family> families() {
  const auto field = [](double HardwareSpec::*member) {
    return [member](HardwareSpec& h) -> double& { return h.*member; };
  };
  return {
      {{"layer_linear_decode", "layer_linear_prefill", "layer_linear_tp"},
       {{"memory_efficiency", 0.50, 0.99, 0.01, field(&HardwareSpec::memory_efficiency)},
        {"compute_efficiency", 0.40, 0.99, 0.01, field(&HardwareSpec::compute_efficiency)},
        {"gemm_half_tokens", 0.0, 256.0, 4.0, field(&HardwareSpec::gemm_half_tokens)},
        {"elementwise_efficiency", 0.20, 0.99, 0.01, field(&HardwareSpec::elementwise_efficiency)},
        {"kernel_floor", 0.0, 10.0, 0.1, nullptr, &HardwareSpec::kernel_floor}}},
      {{"attention_decode"},
       {{"kv_read_efficiency", 0.30, 0.99, 0.01, field(&HardwareSpec::kv_read_efficiency)},
        {"attention_floor", 0.0, 40.0, 0.5, nullptr, &HardwareSpec::attention_floor},
        {"attention_block_time", 0.0, 8.0, 0.05, nullptr, &HardwareSpec::attention_block_time}}},
      {{"allreduce"},
       {{"scale_up_efficiency", 0.10, 1.00, 0.01, field(&HardwareSpec::scale_up_efficiency)},
        {"scale_up_latency", 0.0, 80.0, 0.5, nullptr, &HardwareSpec::scale_up_latency},
        {"scale_up_step_latency", 0.0, 8.0, 0.1, nullptr, &HardwareSpec::scale_up_step_latency},
        {"scale_up_ll_latency", 0.5, 40.0, 0.5, nullptr, &HardwareSpec::scale_up_ll_latency, true}}},
  };
}

void set(const Parameter& p, HardwareSpec& h, double v) {
  if (p.time != nullptr) {
    h.*p.time = Time::from_us(v);
  } else {
    p.scalar(h) = v;
  }
}

double get(const Parameter& p, HardwareSpec& h) {
  return p.time != nullptr ? (h.*p.time).seconds() * 1e6 : p.scalar(h);
}

// An optional constant is fitted only where the profile has it (non-zero).
bool fitted(const Parameter& p, HardwareSpec& h) { return !p.optional || get(p, h) != 0.0; }

double cost(const std::vector<const CalibrationPoint*>& points, const ModelLookup& model_of,
            const HardwareSpec& h) {
  double sum = 0.0;
  for (const CalibrationPoint* p : points) {
    sum += std::abs(std::log(predict_calibration_ms(*p, model_of(p->model), h) / p->measured_ms));
  }
  return sum;
}

double best_value(const Parameter& p, const std::vector<const CalibrationPoint*>& points,
                  const ModelLookup& model_of, HardwareSpec h) {
  double best = get(p, h);
  double best_cost = std::numeric_limits<double>::infinity();
  const int steps = static_cast<int>(std::lround((p.hi - p.lo) / p.step));
  for (int i = 0; i <= steps; ++i) {
    const double v = p.lo + i * p.step;
    set(p, h, v);
    const double c = cost(points, model_of, h);
    if (c < best_cost) {
      best_cost = c;
      best = v;
    }
  }
  return best;
}

void descend(const Family& family, const std::vector<const CalibrationPoint*>& points,
             const ModelLookup& model_of, HardwareSpec& h) {
  for (int sweep = 0; sweep < 50; ++sweep) {
    bool changed = false;
    for (const Parameter& p : family.parameters) {
      if (!fitted(p, h)) continue;
      const double v = best_value(p, points, model_of, h);
      if (v != get(p, h)) changed = true;
      set(p, h, v);
    }
    if (!changed) return;
  }
}

}  // namespace

HardwareFit fit_hardware(const std::vector<CalibrationPoint>& points, const ModelLookup& model_of,
                         const HardwareSpec& start) {
  HardwareFit fit{start, {}, 0};
  for (const Family& family : families()) {
    std::vector<const CalibrationPoint*> chosen;
    for (const CalibrationPoint& p : points) {
      const bool in_family =
          std::find(family.groups.begin(), family.groups.end(), p.group) != family.groups.end();
      if (in_family && !p.holdout && p.gpu == start.name) chosen.push_back(&p);
    }
    if (chosen.empty()) continue;
    descend(family, chosen, model_of, fit.hardware);
    for (const Parameter& p : family.parameters) {
      if (!fitted(p, fit.hardware)) continue;
      fit.constants.push_back({p.name, get(p, fit.hardware)});
    }
    fit.points += static_cast<int>(chosen.size());
  }
  return fit;
}

}  // namespace lynxsim
