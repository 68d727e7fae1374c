#include "sim/app/trace_filter.hpp"

#include <algorithm>
#include <charconv>
#include <fmt/format.h>
#include <string_view>

#include "sim/app/input_errors.hpp"

namespace lynxsim::app {
namespace {

// Simulated time fits +/-106 days of picoseconds; a window is refused well before that.
constexpr double kLargestWindowSeconds = 9e6;

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  std::size_t from = 0;
  for (std::size_t at = text.find(separator); at != std::string_view::npos;
       at = text.find(separator, from)) {
    parts.push_back(text.substr(from, at - from));
    from = at + 1;
  }
  parts.push_back(text.substr(from));
  return parts;
}

template <class Number>
std::optional<Number> parse_number(std::string_view text) {
  Number value{};
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

Time window_seconds(std::string_view text, std::string_view full) {
  const auto s = parse_number<double>(text);
  if (!s || !(*s >= 0.0) || *s > kLargestWindowSeconds) {
    throw InputError(fmt::format(
        "--trace-window {}: \"{}\" is not a number of seconds between 0 and {:g} (the form is "
        "START:END in seconds of simulated time, e.g. 100:400 or 100:)",
        full, text, kLargestWindowSeconds));
  }
  return Time::from_seconds(*s);
}

void parse_window(const std::string& text, Time& start, std::optional<Time>& end) {
  const auto parts = split(text, ':');
  if (parts.size() != 2) {
    throw InputError(fmt::format("--trace-window {}: expected START:END in seconds of simulated "
                                 "time, e.g. 100:400 (END may be left out: 100:)", text));
  }
  start = window_seconds(parts[0], text);
  if (!parts[1].empty()) end = window_seconds(parts[1], text);
  if (end && *end <= start) {
    throw InputError(fmt::format("--trace-window {}: END must be after START", text));
  }
}

std::uint64_t request_id(std::string_view text, std::string_view full) {
  const auto id = parse_number<std::uint64_t>(text);
  if (!id) {
    throw InputError(fmt::format("--trace-requests {}: \"{}\" is not a request id (ids and ranges "
                                 "of ids, comma-separated, e.g. 0-99,150)", full, text));
  }
  return *id;
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> parse_requests(const std::string& text) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
  for (const std::string_view item : split(text, ',')) {
    const auto ends = split(item, '-');
    if (ends.size() > 2) request_id(item, text);
    const std::uint64_t first = request_id(ends.front(), text);
    const std::uint64_t last = request_id(ends.back(), text);
    if (last < first) {
      throw InputError(fmt::format("--trace-requests {}: range {} ends before it starts", text, item));
    }
    ranges.emplace_back(first, last);
  }
  return ranges;
}

std::vector<std::string> parse_methods(const std::string& text) {
  std::vector<std::string> methods;
  for (const std::string_view name : split(text, ',')) {
    if (name.empty()) {
      throw InputError(fmt::format("--trace-methods {}: empty method name (a comma-separated list "
                                   "of the scenario's methods, e.g. int8,lynx)", text));
    }
    methods.emplace_back(name);
  }
  return methods;
}

}  // namespace

bool TraceFilter::keeps_span(Time start, Time end) const {
  if (end < window_start_ || (end == window_start_ && start < end)) return false;
  return !window_end_ || start < *window_end_;
}

Time TraceFilter::overlap(Time from, Time to) const {
  const Time a = max(from, window_start_);
  const Time b = window_end_ ? min(to, *window_end_) : to;
  return b > a ? b - a : Time::zero();
}

bool TraceFilter::keeps_request(std::uint64_t id) const {
  return requests_.empty() || std::any_of(requests_.begin(), requests_.end(), [id](const auto& r) {
           return r.first <= id && id <= r.second;
         });
}

bool TraceFilter::keeps_any(const std::vector<std::uint64_t>& ids) const {
  return requests_.empty() ||
         std::any_of(ids.begin(), ids.end(), [this](std::uint64_t id) { return keeps_request(id); });
}

bool TraceFilter::keeps_method(const std::string& name) const {
  return methods_.empty() || std::find(methods_.begin(), methods_.end(), name) != methods_.end();
}

TraceFilter parse_trace_filter(const TraceFilterText& text) {
  TraceFilter f;
  if (text.window) parse_window(*text.window, f.window_start_, f.window_end_);
  if (text.requests) f.requests_ = parse_requests(*text.requests);
  if (text.methods) f.methods_ = parse_methods(*text.methods);
  f.links_ = text.links;
  return f;
}

void check_trace_methods(const std::vector<std::string>& traced,
                         const std::vector<std::string>& methods) {
  for (const std::string& name : traced) {
    if (std::find(methods.begin(), methods.end(), name) == methods.end()) {
      throw InputError(fmt::format("--trace-methods: the scenario has no method \"{}\" (its methods: "
                                   "{})", name, fmt::join(methods, ", ")));
    }
  }
}

}  // namespace lynxsim::app
