#include "sim/accuracy/methods/quant_method.hpp"

#include <cmath>
#include <numeric>
#include <sstream>
#include <stdexcept>

#include "sim/quant/cachegen_levels.hpp"
#include "sim/quant/kivi.hpp"

namespace lynxsim::accuracy {
namespace {

const char* kAcceptedNames =
    "bf16, int2..int8, kivi2..kivi8, lynx, lynx-A+B[+C...] (widths summing to 8), lynx-qs, cachegen, cachegen-L";

int parse_int(std::string_view text) {
  if (text.empty() || text.size() > 3) return -1;
  int value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return -1;
    value = value * 10 + (c - '0');
  }
  return value;
}

std::vector<int> parse_planes(std::string_view text) {
  std::vector<int> planes;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t plus = text.find('+', start);
    const std::string_view part = text.substr(start, plus == std::string_view::npos ? text.npos : plus - start);
    const int width = parse_int(part);
    if (width <= 0) return {};
    planes.push_back(width);
    if (plus == std::string_view::npos) break;
    start = plus + 1;
  }
  return planes;
}

QuantMethodSpec make(std::string name, MethodFamily family, int bits) {
  QuantMethodSpec m;
  m.name = std::move(name);
  m.family = family;
  m.bits = bits;
  return m;
}

QuantMethodSpec parse_prefixed(std::string_view name) {
  const std::string text(name);
  if (name.starts_with("int")) return make(text, MethodFamily::int_n, parse_int(name.substr(3)));
  if (name.starts_with("kivi")) return make(text, MethodFamily::kivi, parse_int(name.substr(4)));
  if (name.starts_with("cachegen-")) {
    QuantMethodSpec m = make(text, MethodFamily::cachegen, 0);
    m.cachegen_level = parse_int(name.substr(9));
    return m;
  }
  if (name.starts_with("lynx-")) {
    QuantMethodSpec m = make(text, MethodFamily::lynx, 8);
    m.planes = parse_planes(name.substr(5));
    return m;
  }
  throw std::invalid_argument("unknown method '" + text + "'; accepted: " + kAcceptedNames);
}

}  // namespace

std::string to_string(MethodFamily family) {
  switch (family) {
    case MethodFamily::bf16: return "bf16";
    case MethodFamily::int_n: return "int";
    case MethodFamily::kivi: return "kivi";
    case MethodFamily::lynx: return "lynx";
    case MethodFamily::lynx_quantspec: return "lynx_quantspec";
    case MethodFamily::cachegen: return "cachegen";
  }
  return "unknown";
}

int QuantMethodSpec::anchor_bits() const {
  if (family == MethodFamily::lynx) return std::accumulate(planes.begin(), planes.begin() + anchor_planes, 0);
  if (family == MethodFamily::lynx_quantspec) return 4;
  return bits;
}

void QuantMethodSpec::validate() const {
  const auto fail = [this](const std::string& what) {
    throw std::invalid_argument("method '" + name + "': " + what + " (accepted names: " + kAcceptedNames + ")");
  };
  if (name.empty()) fail("empty name");
  if ((family == MethodFamily::int_n || family == MethodFamily::kivi) && (bits < 2 || bits > 8)) {
    fail("bits must be in 2..8");
  }
  if (family == MethodFamily::lynx) {
    if (planes.size() < 2 || std::accumulate(planes.begin(), planes.end(), 0) != 8) {
      fail("needs at least two plane widths summing to 8");
    }
    if (anchor_planes < 1 || anchor_planes >= static_cast<int>(planes.size())) fail("anchor_planes out of range");
  }
  if (group_size < 0 || kivi_window < 0 || kivi_group <= 0) fail("group sizes must be positive");
  if (family == MethodFamily::cachegen) {
    const int levels = static_cast<int>(quant::cachegen_default_levels().size());
    if (cachegen_level < 0 || cachegen_level >= levels) fail("cachegen level out of range");
  }
}

std::string QuantMethodSpec::canonical() const {
  std::ostringstream out;
  out << "method{name=" << name << ",family=" << to_string(family) << ",bits=" << bits << ",planes=";
  for (const int p : planes) out << p << ".";
  out << ",anchor=" << anchor_planes << ",group=" << group_size << ",kivi_window=" << kivi_window
      << ",kivi_group=" << kivi_group << ",cachegen_level=" << cachegen_level << "}";
  return out.str();
}

QuantMethodSpec method_from_name(std::string_view name) {
  QuantMethodSpec m;
  if (name == "bf16") {
    m = make("bf16", MethodFamily::bf16, 16);
  } else if (name == "lynx") {
    m = make("lynx", MethodFamily::lynx, 8);
    m.planes = {4, 4};
  } else if (name == "lynx-qs") {
    m = make("lynx-qs", MethodFamily::lynx_quantspec, 8);
    m.planes = {4, 4};
    m.group_size = 128;
  } else if (name == "cachegen") {
    m = make("cachegen", MethodFamily::cachegen, 0);
  } else {
    m = parse_prefixed(name);
  }
  m.validate();
  return m;
}

std::vector<QuantMethodSpec> default_methods() {
  std::vector<QuantMethodSpec> out;
  for (const char* name : {"bf16", "int8", "int4", "kivi2", "kivi4", "lynx-4+4", "lynx-2+2+4", "lynx-3+5", "lynx-qs",
                           "cachegen"}) {
    out.push_back(method_from_name(name));
  }
  return out;
}

double bits_per_element(const QuantMethodSpec& m, bool anchor_only, int tokens, int head_dim, int num_layers) {
  const double meta_bits = 32.0;
  const int group = m.group_size > 0 ? m.group_size : head_dim;
  switch (m.family) {
    case MethodFamily::bf16: return 16.0;
    case MethodFamily::int_n: return m.bits + meta_bits / group;
    case MethodFamily::lynx: return (anchor_only ? m.anchor_bits() : m.bits) + meta_bits / group;
    case MethodFamily::lynx_quantspec: return (anchor_only ? 4 : 8) + meta_bits / group;
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
  }
  return 0.0;
}

}  // namespace lynxsim::accuracy
