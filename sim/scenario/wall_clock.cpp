#include <charconv>
#include <cstdint>

#include "sim/scenario/workload_trace.hpp"

namespace lynxsim::scenario {

using serving::RequestSpec;
namespace {

// Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar (H. Hinnant's algorithm).
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2 ? 1 : 0;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

std::optional<unsigned> digits(std::string_view text, std::size_t pos, std::size_t count) {
  if (pos + count > text.size()) return std::nullopt;
  unsigned v = 0;
  const auto [end, ec] = std::from_chars(text.data() + pos, text.data() + pos + count, v);
  if (ec != std::errc() || end != text.data() + pos + count) return std::nullopt;
  return v;
}

}  // namespace

std::optional<double> parse_wall_clock_seconds(std::string_view text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\r')) text.remove_suffix(1);
  if (text.size() < 19 || text[4] != '-' || text[7] != '-' || text[10] != ' ' || text[13] != ':' ||
      text[16] != ':') {
    return std::nullopt;
  }
  const auto y = digits(text, 0, 4), mo = digits(text, 5, 2), d = digits(text, 8, 2);
  const auto h = digits(text, 11, 2), mi = digits(text, 14, 2), s = digits(text, 17, 2);
  if (!y || !mo || !d || !h || !mi || !s || *mo < 1 || *mo > 12 || *d < 1 || *d > 31 || *h > 23 ||
      *mi > 59 || *s > 60) {
    return std::nullopt;
  }
  double fraction = 0.0;
  if (text.size() > 19) {
    if (text[19] != '.' || text.size() == 20) return std::nullopt;
    double scale = 0.1;
    for (std::size_t i = 20; i < text.size(); ++i, scale *= 0.1) {
      if (text[i] < '0' || text[i] > '9') return std::nullopt;
      fraction += (text[i] - '0') * scale;
    }
  }
  const std::int64_t days = days_from_civil(*y, *mo, *d);
  return static_cast<double>(days * 86400 + *h * 3600 + *mi * 60 + *s) + fraction;
}

}  // namespace lynxsim::scenario
