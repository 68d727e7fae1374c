#include "sim/accuracy/methods/measured_methods.hpp"

#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <numeric>
#include <stdexcept>

#include "sim/accuracy/methods/format_codec.hpp"
#include "sim/quant/cachegen_levels.hpp"
#include "sim/quant/kivi.hpp"

namespace lynxsim::accuracy {

std::optional<MeasurableProblem> measurable_problem(const MethodSpec& m) {
  const std::vector<std::string> problems = quant::validate_method(m);
  if (!problems.empty()) return MeasurableProblem{"", problems.front()};
  if (m.family == MethodFamily::lynx && (m.planes.size() < 2 || m.bits != 8)) {
    return MeasurableProblem{"planes", fmt::format("a lynx method splits the 8-bit code into at least two planes "
                                                   "whose widths add up to 8, got [{}]",
                                                   fmt::join(m.planes, ", "))};
  }
  if (m.family == MethodFamily::lynx && !m.speculative()) {
    return MeasurableProblem{"decode_after_planes",
                             fmt::format("a lynx method decodes on an anchor of fewer planes than all {}, got {}",
                                         m.num_planes(), m.decode_after_planes)};
  }
  const int levels = static_cast<int>(quant::cachegen_default_levels().size());
  if (m.family == MethodFamily::cachegen && m.cachegen_level >= levels) {
    return MeasurableProblem{"cachegen_level", fmt::format("cachegen level {} has no bins (0..{})",
                                                           m.cachegen_level, levels - 1)};
  }
  return std::nullopt;
}

void check_measurable(const MethodSpec& m) {
  if (const auto problem = measurable_problem(m)) {
    throw std::invalid_argument(fmt::format("method \"{}\": {}", m.name, problem->message));
  }
}

std::vector<MethodSpec> default_methods() {
  std::vector<MethodSpec> out;
  for (const char* name : {"bf16", "int8", "int4", "kivi2", "kivi4", "lynx-4+4", "lynx-2+2+4", "lynx-3+5", "lynx-qs",
                            "cachegen", "fp8-e4m3", "fp8-e5m2", "int8-pth", "fp8-pth", "lynx-e4m3-5+3",
                            "nvfp4", "mxfp4", "lynx-nvfp4"}) {
    out.push_back(method_from_name(name));
  }
  return out;
}

double bits_per_element(const MethodSpec& m, bool anchor_only, int tokens, int head_dim, int num_layers) {
  const double meta_bits = 32.0;
  const int group = m.group_size > 0 ? m.group_size : head_dim;
  if (m.format) return format_bits_per_element(m, anchor_only, tokens, head_dim);
  switch (m.family) {
    case MethodFamily::bf16: return 16.0;
    case MethodFamily::int_n: return m.bits + meta_bits / group;
    case MethodFamily::lynx: return (anchor_only ? m.anchor_bits() : m.bits) + meta_bits / group;
    case MethodFamily::kivi: {
      const quant::KiviConfig config{m.bits, m.kivi_group, m.kivi_window};
      const double quantized = config.quantized_tokens(tokens);
      return (quantized * (m.bits + meta_bits / m.kivi_group) + (tokens - quantized) * 16.0) / tokens;
    }
    case MethodFamily::cachegen: {
      const auto& level = quant::cachegen_default_levels().at(static_cast<std::size_t>(m.cachegen_level));
      double sum = 0.0;
      for (int l = 0; l < num_layers; ++l) {
        for (const auto kind : {quant::KvKind::Key, quant::KvKind::Value}) {
          sum += std::log2(quant::cachegen_bins(level, kind, l, num_layers) - 1.0);
        }
      }
      return sum / (2.0 * num_layers) + 16.0 / head_dim;
    }
    case MethodFamily::scaled: break;
  }
  return 0.0;
}

}  // namespace lynxsim::accuracy
