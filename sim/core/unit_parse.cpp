#include "sim/core/unit_parse.hpp"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <optional>

namespace lynxsim {
namespace {

struct UnitFactor {
  std::string_view name;
  double factor;
};

constexpr std::array kTimeUnits{
    UnitFactor{"ps", 1e-12}, UnitFactor{"ns", 1e-9}, UnitFactor{"us", 1e-6},
    UnitFactor{"ms", 1e-3},  UnitFactor{"s", 1.0},   UnitFactor{"min", 60.0},
    UnitFactor{"h", 3600.0}};

constexpr double kKi = 1024.0;
constexpr std::array kByteUnits{
    UnitFactor{"B", 1.0},          UnitFactor{"kB", 1e3},         UnitFactor{"KB", 1e3},
    UnitFactor{"MB", 1e6},         UnitFactor{"GB", 1e9},         UnitFactor{"TB", 1e12},
    UnitFactor{"KiB", kKi},        UnitFactor{"MiB", kKi * kKi},  UnitFactor{"GiB", kKi * kKi * kKi},
    UnitFactor{"TiB", kKi * kKi * kKi * kKi}};

constexpr std::array kBitRateUnits{
    UnitFactor{"bps", 1.0},  UnitFactor{"kbps", 1e3}, UnitFactor{"Kbps", 1e3},
    UnitFactor{"Mbps", 1e6}, UnitFactor{"Gbps", 1e9}, UnitFactor{"Tbps", 1e12}};

constexpr std::array kFlopsUnits{
    UnitFactor{"FLOPS", 1.0},   UnitFactor{"KFLOPS", 1e3},  UnitFactor{"MFLOPS", 1e6},
    UnitFactor{"GFLOPS", 1e9},  UnitFactor{"TFLOPS", 1e12}, UnitFactor{"PFLOPS", 1e15},
    UnitFactor{"OPS", 1.0},     UnitFactor{"GOPS", 1e9},    UnitFactor{"TOPS", 1e12},
    UnitFactor{"POPS", 1e15}};

struct Split {
  double number;
  std::string_view unit;
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

Split split_number(std::string_view text, std::string_view what) {
  const std::string_view s = trim(text);
  double value = 0.0;
  const char* begin = s.data();
  if (!s.empty() && s.front() == '+') ++begin;
  const auto [ptr, ec] = std::from_chars(begin, s.data() + s.size(), value);
  if (ec != std::errc{} || ptr == begin) {
    throw UnitError(fmt::format("expected {}, got \"{}\"", what, text));
  }
  if (!std::isfinite(value)) throw UnitError(fmt::format("expected a finite {}, got \"{}\"", what, text));
  const std::string_view unit = trim(s.substr(static_cast<std::size_t>(ptr - s.data())));
  if (unit.empty()) {
    throw UnitError(fmt::format("expected {}, got \"{}\" (missing unit)", what, text));
  }
  return {value, unit};
}

template <std::size_t N>
std::optional<double> find_factor(const std::array<UnitFactor, N>& table, std::string_view unit) {
  for (const auto& u : table) {
    if (u.name == unit) return u.factor;
  }
  return std::nullopt;
}

template <std::size_t N>
double parse_with(std::string_view text, const std::array<UnitFactor, N>& table,
                  std::string_view what) {
  const Split sp = split_number(text, what);
  const auto factor = find_factor(table, sp.unit);
  if (!factor) {
    throw UnitError(fmt::format("expected {}, got \"{}\" (unknown unit \"{}\")", what, text, sp.unit));
  }
  return sp.number * *factor;
}

std::optional<double> byte_rate_factor(std::string_view unit) {
  if (unit.size() < 3 || unit.substr(unit.size() - 2) != "/s") return std::nullopt;
  return find_factor(kByteUnits, unit.substr(0, unit.size() - 2));
}

template <std::size_t N>
std::string format_with(double value, const std::array<UnitFactor, N>& table, std::size_t first,
                        std::size_t last) {
  std::size_t best = first;
  for (std::size_t i = first; i <= last; ++i) {
    if (std::fabs(value) >= table[i].factor) best = i;
  }
  return fmt::format("{}{}", value / table[best].factor, table[best].name);
}

}  // namespace

constexpr double kMinBitRate = 1e3;
constexpr double kMaxBitRate = 1e16;

void throw_time_overflow(double seconds) {
  throw std::overflow_error(fmt::format("time {} s is outside the simulated range", seconds));
}

void throw_time_arithmetic_overflow() {
  throw std::overflow_error("simulated time arithmetic outside the int64 picosecond range (about 106 days)");
}

Time parse_time(std::string_view text) {
  const double seconds = parse_with(text, kTimeUnits, "a time like \"500ns\" or \"1.5ms\"");
  if (!(std::fabs(seconds) <= kMaxTimeSeconds)) {
    throw UnitError(fmt::format("time \"{}\" is too large: at most {:g} s (30 days)", text, kMaxTimeSeconds));
  }
  return Time::from_seconds(seconds);
}

Bytes parse_bytes(std::string_view text) {
  const double b = parse_with(text, kByteUnits, "a size like \"64GiB\" or \"512B\"");
  if (!(std::fabs(b) < 9.2e18)) throw UnitError(fmt::format("size \"{}\" is too large", text));
  return Bytes{std::llround(b)};
}

BitsPerSecond parse_bit_rate(std::string_view text) {
  constexpr std::string_view what = "a rate like \"25Gbps\" or \"3.2TB/s\"";
  const Split sp = split_number(text, what);
  double bps = 0.0;
  if (const auto f = find_factor(kBitRateUnits, sp.unit)) {
    bps = sp.number * *f;
  } else if (const auto b = byte_rate_factor(sp.unit)) {
    bps = sp.number * *b * 8.0;
  } else {
    throw UnitError(fmt::format("expected {}, got \"{}\" (unknown unit \"{}\")", what, text, sp.unit));
  }
  if (bps != 0.0 && !(bps >= kMinBitRate && bps <= kMaxBitRate)) {
    throw UnitError(fmt::format("rate \"{}\" is outside 1kbps to 10Pbps", text));
  }
  return {bps};
}

BytesPerSecond parse_byte_rate(std::string_view text) { return parse_bit_rate(text).to_bytes(); }

FlopsPerSecond parse_flops_rate(std::string_view text) {
  return {parse_with(text, kFlopsUnits, "a compute rate like \"989.4TFLOPS\"")};
}

std::string format_bit_rate(BitsPerSecond rate) {
  return format_with(rate.value, kBitRateUnits, 0, kBitRateUnits.size() - 1);
}

std::string format_bytes(Bytes bytes) {
  const double v = bytes.as_double();
  if (bytes.value % 1024 != 0 || bytes.value == 0) return fmt::format("{}B", bytes.value);
  return format_with(v, kByteUnits, 6, 9);
}

std::string format_time(Time t) { return format_with(t.seconds(), kTimeUnits, 0, 4); }

std::string format_flops_rate(FlopsPerSecond rate) {
  return format_with(rate.value, kFlopsUnits, 0, 5);
}

std::string to_string(Time t) { return format_time(t); }

}  // namespace lynxsim
