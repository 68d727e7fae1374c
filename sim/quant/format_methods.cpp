#include "sim/quant/format_methods.hpp"

#include <cmath>
#include <fmt/format.h>
#include <numeric>

namespace lynxsim::quant {
namespace {

// "5+3" -> {5, 3}: one-digit widths 1..9 joined by '+'; empty on anything else.
std::vector<int> split_widths(std::string_view text) {
  std::vector<int> widths;
  for (std::size_t i = 0; i < text.size(); i += 2) {
    if (text[i] < '1' || text[i] > '9' || (i + 1 < text.size() && text[i + 1] != '+')) return {};
    widths.push_back(text[i] - '0');
  }
  return text.empty() || text.back() == '+' ? std::vector<int>{} : widths;
}

MethodSpec scaled(const KvFormatInfo& info) {
  MethodSpec m;
  m.name = std::string(info.name);
  m.family = MethodFamily::scaled;
  m.format = info.format;
  m.bits = info.code_bits;
  m.planes = {info.code_bits};
  m.description = std::string(info.description);
  return m;
}

std::optional<MethodSpec> lynx_over(const KvFormatInfo& info, std::string_view split) {
  std::vector<int> planes = split_widths(split);
  if (planes.size() < 2 || std::accumulate(planes.begin(), planes.end(), 0) != info.code_bits) return std::nullopt;
  MethodSpec m = scaled(info);
  m.name = fmt::format("lynx-{}-{}", info.lynx_name, split);
  m.family = MethodFamily::lynx;
  m.planes = std::move(planes);
  m.description = fmt::format("Lynx over {}: sign and exponent first, mantissa bits as the residual; the anchor "
                              "decodes at the middle of the dropped mantissa interval", info.name);
  return m;
}

// lynx-nvfp4 (lynx_nvfp4.hpp): the nvfp4 code as the anchor plane, a 4-bit residual within each
// element's E2M1 rounding cell as the second.
MethodSpec lynx_nvfp4() {
  MethodSpec m = scaled(kv_format_info(KvFormat::nvfp4));
  m.name = "lynx-nvfp4";
  m.family = MethodFamily::lynx;
  m.bits = 8;
  m.planes = {4, 4};
  m.anchor_scheme = AnchorScheme::cell_residual;
  m.description = "Lynx over NVFP4: the nvfp4 code as the anchor, a 4-bit residual within each element's rounding "
                  "cell (8.5 bits)";
  return m;
}

// A Lynx split of a format's element code: sign and exponent in the anchor, mantissa bits after.
void check_mantissa_split(const MethodSpec& m, const KvFormatInfo& info, std::vector<std::string>& problems) {
  if (m.bits != info.code_bits) {
    problems.push_back(fmt::format("{} codes have {} bits, not {}", info.name, info.code_bits, m.bits));
  }
  if (m.family == MethodFamily::lynx && m.anchor_scheme != AnchorScheme::midpoint) {
    problems.push_back(fmt::format("a Lynx split of {} decodes its anchor at the interval middle (anchor_scheme "
                                   "\"midpoint\")", info.name));
  }
  if (m.family == MethodFamily::lynx && m.speculative()) {
    const int dropped = m.bits - m.anchor_bits();
    if (info.mantissa_bits == 0 || dropped > info.mantissa_bits) {
      problems.push_back(fmt::format("a Lynx anchor of {} keeps sign and exponent: it may drop 1..{} mantissa bits, "
                                     "not {}", info.name, info.mantissa_bits, dropped));
    }
  }
}

// lynx-nvfp4's anchor scheme: the nvfp4 code, then its 4-bit residual, decoding on the anchor.
void check_cell_residual(const MethodSpec& m, std::vector<std::string>& problems) {
  if (m.family != MethodFamily::lynx || !m.format || *m.format != KvFormat::nvfp4) {
    problems.emplace_back("anchor_scheme \"cell_residual\" is lynx-nvfp4's (a lynx method over nvfp4)");
    return;
  }
  if (m.planes != std::vector<int>{4, 4} || m.bits != 8 || m.decode_after_planes != 1) {
    problems.emplace_back("lynx-nvfp4 sends planes [4, 4] (the nvfp4 code, then its residual) and decodes after the "
                          "first");
  }
}

}  // namespace

std::optional<MethodSpec> format_method_from_name(std::string_view name) {
  if (name == "lynx-nvfp4") return lynx_nvfp4();
  for (const KvFormatInfo& info : kv_formats()) {
    if (name == info.name) return scaled(info);
    if (info.lynx_name.empty()) continue;
    const std::string prefix = fmt::format("lynx-{}-", info.lynx_name);
    if (name.starts_with(prefix)) return lynx_over(info, name.substr(prefix.size()));
  }
  return std::nullopt;
}

std::vector<std::string> format_preset_names() {
  std::vector<std::string> names;
  for (const KvFormatInfo& info : kv_formats()) names.emplace_back(info.name);
  for (const char* split : {"lynx-e4m3-5+3", "lynx-e4m3-6+2", "lynx-e5m2-6+2", "lynx-nvfp4"}) names.emplace_back(split);
  return names;
}

void check_format_method(const MethodSpec& m, std::vector<std::string>& problems) {
  if (m.family == MethodFamily::scaled && !m.format) problems.emplace_back("a scaled method needs a KV format");
  if (m.anchor_scheme == AnchorScheme::cell_residual) check_cell_residual(m, problems);
  if (!m.format) return;
  const KvFormatInfo& info = kv_format_info(*m.format);
  if (m.family != MethodFamily::scaled && m.family != MethodFamily::lynx) {
    problems.emplace_back("only scaled and lynx methods have a KV format");
  }
  if (m.anchor_scheme != AnchorScheme::cell_residual) check_mantissa_split(m, info, problems);
  if (!m.tensor_scale.calibrated && !(std::isfinite(m.tensor_scale.value) && m.tensor_scale.value > 0.0)) {
    problems.push_back(fmt::format("tensor_scale must be a positive finite number or \"amax\", got {}",
                                   m.tensor_scale.value));
  }
}

std::string format_canonical(const MethodSpec& m) {
  if (!m.format) return "";
  const bool per_tensor = kv_format_info(*m.format).scales == ScaleLayout::per_tensor;
  const std::string scale = !per_tensor                 ? ""
                            : m.tensor_scale.calibrated ? ",scale=amax"
                                                        : fmt::format(",scale={}", m.tensor_scale.value);
  const char* cells = m.anchor_scheme == AnchorScheme::cell_residual ? ",cells" : "";
  return fmt::format(",format={}{}{}", kv_format_info(*m.format).name, scale, cells);
}

}  // namespace lynxsim::quant
