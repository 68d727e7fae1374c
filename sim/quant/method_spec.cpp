#include "sim/quant/method_spec.hpp"

#include "sim/quant/format_methods.hpp"

#include <fmt/format.h>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace lynxsim::quant {
namespace {

constexpr const char* kAcceptedNames =
    "bf16, int2..int8, kivi2..kivi8, lynx, lynx-A+B[+C...] (at least two widths summing to 8), lynx-qs, "
    "cachegen, cachegen-L (L = 0..3), fp8-e4m3, fp8-e5m2, int8-pth, fp8-pth, lynx-e4m3-A+B, lynx-e5m2-A+B, nvfp4, "
    "mxfp4, lynx-nvfp4";

[[noreturn]] void unknown(std::string_view name) {
  throw std::invalid_argument(fmt::format("unknown transfer method \"{}\" (accepted: {})", name, kAcceptedNames));
}

// The digit d of a one-digit suffix in [lo, hi]; -1 otherwise.
int digit(std::string_view text, int lo, int hi) {
  if (text.size() != 1 || text[0] < '0' || text[0] > '9') return -1;
  const int d = text[0] - '0';
  return d >= lo && d <= hi ? d : -1;
}

MethodSpec plain(std::string name, int bits, std::string description) {
  MethodSpec m;
  m.name = std::move(name);
  m.family = bits == 16 ? MethodFamily::bf16 : MethodFamily::int_n;
  m.bits = bits;
  m.planes = {bits};
  m.description = std::move(description);
  return m;
}

std::string int_description(int bits) {
  if (bits == 8) return "8-bit asymmetric, per-token groups (standard 8-bit)";
  return fmt::format("{}-bit asymmetric, per-token groups", bits);
}

MethodSpec kivi(int bits) {
  MethodSpec m = plain(fmt::format("kivi{}", bits), bits, "");
  m.family = MethodFamily::kivi;
  m.description = fmt::format(
      "KIVI {}-bit: keys per-channel, values per-token, groups of 32, last 128 tokens in 16-bit", bits);
  return m;
}

std::vector<int> parse_split(std::string_view text) {
  std::vector<int> planes;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t plus = text.find('+', start);
    const std::string_view part = text.substr(start, plus == std::string_view::npos ? plus : plus - start);
    const int width = digit(part, 1, 7);
    if (width < 0) return {};
    planes.push_back(width);
    if (plus == std::string_view::npos) break;
    start = plus + 1;
  }
  return planes;
}

MethodSpec lynx(std::vector<int> planes, std::string name) {
  MethodSpec m;
  m.name = std::move(name);
  m.family = MethodFamily::lynx;
  m.bits = std::accumulate(planes.begin(), planes.end(), 0);
  m.planes = std::move(planes);
  m.description = "Lynx: 8-bit code split by significance, decode speculatively on the anchor plane";
  return m;
}

MethodSpec cachegen(std::string name, int level) {
  MethodSpec m = plain(std::move(name), 8, "");
  m.family = MethodFamily::cachegen;
  m.cachegen_level = level;
  m.description = fmt::format(
      "CacheGen: layer-wise bins, arithmetic coding, 1500-token chunks with a per-chunk level "
      "(best level {}) or text fallback under a transfer SLO", level);
  return m;
}

MethodSpec parse_prefixed(std::string_view name) {
  if (name.starts_with("int")) {
    const int bits = digit(name.substr(3), 2, 8);
    if (bits > 0) return plain(std::string(name), bits, int_description(bits));
  } else if (name.starts_with("kivi")) {
    const int bits = digit(name.substr(4), 2, 8);
    if (bits > 0) return kivi(bits);
  } else if (name.starts_with("cachegen-")) {
    const int level = digit(name.substr(9), 0, 3);
    if (level >= 0) return cachegen(std::string(name), level);
  } else if (name.starts_with("lynx-")) {
    std::vector<int> planes = parse_split(name.substr(5));
    if (planes.size() >= 2 && std::accumulate(planes.begin(), planes.end(), 0) == 8) {
      return lynx(std::move(planes), std::string(name));
    }
  }
  unknown(name);
}

void check_cachegen(const CacheGenParams& c, int level, std::vector<std::string>& problems) {
  if (c.chunk_tokens < 1) problems.emplace_back("cachegen chunk_tokens must be >= 1");
  if (!(c.slo_s > 0.0)) problems.emplace_back("cachegen slo must be > 0");
  if (!(c.initial_bandwidth_bytes_per_s > 0.0)) problems.emplace_back("cachegen initial bandwidth must be > 0");
  if (!(c.encode_mb_per_s > 0.0) || !(c.decode_mb_per_s > 0.0)) {
    problems.emplace_back("cachegen coder throughputs must be > 0 MB/s");
  }
  if (level < 0) problems.emplace_back("cachegen_level must be >= 0");
}

}  // namespace

MethodSpec method_from_name(std::string_view name) {
  if (name == "bf16") return plain("bf16", 16, "16-bit KV, no quantization");
  if (name == "lynx") return lynx({4, 4}, "lynx");
  if (name == "lynx-qs") {
    MethodSpec m = lynx({4, 4}, "lynx-qs");
    m.anchor_scheme = AnchorScheme::quantspec;
    m.group_size = kQuantSpecDefaultGroup;
    m.description = "Lynx with a QuantSpec anchor: 4-bit round-to-nearest plus signed 4-bit residual";
    return m;
  }
  if (name == "cachegen") return cachegen("cachegen", 1);
  if (auto m = format_method_from_name(name)) return *std::move(m);
  return parse_prefixed(name);
}

std::vector<std::string> method_preset_names() {
  std::vector<std::string> names{"bf16",     "int8",       "int4",         "kivi2",   "kivi4",   "lynx",
                                  "lynx-2+2+4", "lynx-3+5", "lynx-2+6", "lynx-1+1+2+4", "lynx-qs", "cachegen"};
  for (std::string& name : format_preset_names()) names.push_back(std::move(name));
  return names;
}

std::string_view family_name(MethodFamily family) {
  switch (family) {
    case MethodFamily::bf16: return "bf16";
    case MethodFamily::int_n: return "int";
    case MethodFamily::kivi: return "kivi";
    case MethodFamily::lynx: return "lynx";
    case MethodFamily::cachegen: return "cachegen";
    case MethodFamily::scaled: return "scaled";
  }
  return "?";
}

int MethodSpec::anchor_bits() const {
  if (quantspec()) return 4;
  if (family == MethodFamily::lynx) {
    return std::accumulate(planes.begin(), planes.begin() + std::min(decode_after_planes, num_planes()), 0);
  }
  return bits;
}

std::string MethodSpec::canonical() const {
  std::ostringstream out;
  out << "method{name=" << name << ",family=" << (quantspec() ? "lynx_quantspec" : family_name(family))
      << ",bits=" << bits << ",planes=";
  if (family == MethodFamily::lynx) {
    for (const int p : planes) out << p << ".";
  }
  out << ",anchor=" << decode_after_planes << ",group=" << group_size << ",kivi_window=" << kivi_window
      << ",kivi_group=" << kivi_group << ",cachegen_level=" << cachegen_level << format_canonical(*this) << "}";
  return out.str();
}

std::vector<std::string> validate_method(const MethodSpec& m) {
  std::vector<std::string> problems;
  if (m.name.empty()) problems.emplace_back("name must not be empty");
  if (m.planes.empty()) problems.emplace_back("planes must not be empty");
  for (const int b : m.planes) {
    if (b < 1 || b > 16) problems.push_back(fmt::format("plane width {} outside 1..16 bits", b));
  }
  if (std::accumulate(m.planes.begin(), m.planes.end(), 0) != m.bits) {
    problems.push_back(fmt::format("plane bits must add up to {} bits", m.bits));
  }
  if (m.family == MethodFamily::bf16 && m.bits != 16) problems.emplace_back("bf16 has 16 bits");
  if (m.family != MethodFamily::bf16 && (m.bits < 2 || m.bits > 8)) {
    problems.push_back(fmt::format("quantized codes have 2..8 bits, not {}", m.bits));
  }
  if (m.decode_after_planes < 1 || m.decode_after_planes > m.num_planes()) {
    problems.push_back("decode_after_planes must be between 1 and the number of planes");
  }
  if (m.family != MethodFamily::lynx && m.speculative()) {
    problems.emplace_back("only lynx methods may decode before every plane has arrived");
  }
  if (m.group_size < 0) problems.emplace_back("group_size must be >= 0 (0 = head_dim)");
  if (m.kivi_window < 0 || m.kivi_group < 1) problems.emplace_back("bad KIVI window or group");
  if (m.family == MethodFamily::cachegen) check_cachegen(m.cachegen, m.cachegen_level, problems);
  if (m.acceptance && (*m.acceptance < 0.0 || *m.acceptance > 1.0)) {
    problems.emplace_back("acceptance must lie in [0, 1]");
  }
  check_format_method(m, problems);
  return problems;
}

std::optional<std::string> head_dim_problem(const MethodSpec& m, int head_dim) {
  if (!m.format) return std::nullopt;
  const KvFormatInfo& info = kv_format_info(*m.format);
  if (info.scales != ScaleLayout::per_block || head_dim % info.block_elements == 0) return std::nullopt;
  return fmt::format("{} scales blocks of {} values, which do not divide the model's head dimension {}", info.name,
                     info.block_elements, head_dim);
}

}  // namespace lynxsim::quant
