#include "sim/compute/weight_format.hpp"

#include <array>
#include <utility>

#include <fmt/format.h>

namespace lynxsim {
namespace {

struct FormatRow {
  WeightFormat format;
  const char* name;
  int bits;
  double scale_bytes;  // bytes of the scales of one block
  double block;        // weights per scale block
};

// Scales: docs in weight_format.hpp.
constexpr std::array kFormats{
    FormatRow{WeightFormat::bf16, "bf16", 16, 0.0, 1.0},
    FormatRow{WeightFormat::fp8, "fp8", 8, 0.0, 1.0},
    FormatRow{WeightFormat::fp8_block128, "fp8-block128", 8, 4.0, 128.0 * 128.0},
    FormatRow{WeightFormat::mxfp4, "mxfp4", 4, 1.0, 32.0},
    FormatRow{WeightFormat::nvfp4, "nvfp4", 4, 1.0, 16.0},
    FormatRow{WeightFormat::int4_g128, "int4-g128", 4, 2.5, 128.0},
};

const FormatRow& row(WeightFormat format) {
  for (const FormatRow& r : kFormats) {
    if (r.format == format) return r;
  }
  return kFormats.front();
}

constexpr std::array<std::pair<GemmDemand, const char*>, 4> kDemands{{
    {GemmDemand::automatic, "auto"},
    {GemmDemand::bf16, "bf16"},
    {GemmDemand::fp8, "fp8"},
    {GemmDemand::fp4, "fp4"},
}};

bool fp4_values(WeightFormat f) { return f == WeightFormat::mxfp4 || f == WeightFormat::nvfp4; }
bool has_fp8(const HardwareSpec& hw) { return hw.peak_fp8.value > 0.0; }
bool has_fp4(const HardwareSpec& hw) { return hw.peak_fp4.value > 0.0; }

std::array<WeightFormat, 3> parts(const WeightFormats& f) { return {f.attention, f.ffn, f.experts}; }

}  // namespace

double bytes_per_weight(WeightFormat format) {
  const FormatRow& r = row(format);
  return r.bits / 8.0 + r.scale_bytes / r.block;
}

int value_bits(WeightFormat format) { return row(format).bits; }

const char* to_string(WeightFormat format) { return row(format).name; }

std::optional<WeightFormat> weight_format_named(std::string_view name) {
  for (const FormatRow& r : kFormats) {
    if (name == r.name) return r.format;
  }
  return std::nullopt;
}

const char* to_string(GemmPrecision precision) {
  switch (precision) {
    case GemmPrecision::fp8: return "fp8";
    case GemmPrecision::fp4: return "fp4";
    case GemmPrecision::bf16: break;
  }
  return "bf16";
}

const char* to_string(GemmDemand demand) {
  for (const auto& [d, name] : kDemands) {
    if (d == demand) return name;
  }
  return "auto";
}

std::optional<GemmDemand> gemm_demand_named(std::string_view name) {
  for (const auto& [d, n] : kDemands) {
    if (name == n) return d;
  }
  return std::nullopt;
}

GemmPrecision gemm_precision(WeightFormat format, GemmDemand demand, const HardwareSpec& hw) {
  if (format == WeightFormat::bf16 || demand == GemmDemand::bf16) return GemmPrecision::bf16;
  if (demand == GemmDemand::fp8) return has_fp8(hw) ? GemmPrecision::fp8 : GemmPrecision::bf16;
  if (fp4_values(format)) return has_fp4(hw) ? GemmPrecision::fp4 : GemmPrecision::bf16;
  if (format == WeightFormat::int4_g128) return GemmPrecision::bf16;
  return has_fp8(hw) ? GemmPrecision::fp8 : GemmPrecision::bf16;
}

double gemm_rate(GemmPrecision precision, const HardwareSpec& hw) {
  switch (precision) {
    case GemmPrecision::fp8: return hw.peak_fp8.value / hw.peak_bf16.value;
    case GemmPrecision::fp4: return hw.peak_fp4.value / hw.peak_bf16.value;
    case GemmPrecision::bf16: break;
  }
  return 1.0;
}

std::string precision_conflict(GemmDemand demand, const HardwareSpec& hw) {
  if (demand == GemmDemand::fp8 && !has_fp8(hw)) {
    return fmt::format("gemm_precision fp8 needs FP8 tensor cores; GPU {} has no peak_fp8", hw.name);
  }
  if (demand == GemmDemand::fp4 && !has_fp4(hw)) {
    return fmt::format("gemm_precision fp4 needs FP4 tensor cores; GPU {} has no peak_fp4", hw.name);
  }
  return {};
}

std::string PartPrecision::scheme() const {
  const int activation_bits = precision == GemmPrecision::fp4 ? 4 : precision == GemmPrecision::fp8 ? 8 : 16;
  return fmt::format("W{}A{}", value_bits(format), activation_bits);
}

std::array<PartPrecision, 3> part_precisions(const WeightFormats& formats, GemmDemand demand,
                                             const HardwareSpec& hw) {
  return {PartPrecision{"attention", formats.attention, gemm_precision(formats.attention, demand, hw)},
          PartPrecision{"ffn", formats.ffn, gemm_precision(formats.ffn, demand, hw)},
          PartPrecision{"experts", formats.experts, gemm_precision(formats.experts, demand, hw)}};
}

std::string demand_conflict(const WeightFormats& formats, GemmDemand demand) {
  const auto all = parts(formats);
  const auto any = [&](auto pred) {
    for (WeightFormat f : all) {
      if (pred(f)) return true;
    }
    return false;
  };
  if (demand == GemmDemand::fp4 && any([](WeightFormat f) { return f == WeightFormat::int4_g128; })) {
    return "fp4 runs FP4 weights (mxfp4, nvfp4) only; int4-g128 has no FP4 tensor-core path";
  }
  if (demand == GemmDemand::fp4 && !any(fp4_values)) {
    return "fp4 needs a part stored in mxfp4 or nvfp4";
  }
  if (demand == GemmDemand::fp8 && !any([](WeightFormat f) { return f != WeightFormat::bf16; })) {
    return "fp8 needs a quantized part (all weights are bf16)";
  }
  return {};
}

}  // namespace lynxsim
