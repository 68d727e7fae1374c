#include "sim/store/measured_values.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>

#include "sim/fields/object_reader.hpp"

namespace lynxsim::store {

std::optional<double> measured_seconds(const nlohmann::json& v, const std::string& path,
                                       fields::IssueList& issues) {
  if (v.is_number() && std::isfinite(v.get<double>()) && v.get<double>() >= 0.0) return v.get<double>();
  issues.add(path, fmt::format("expected seconds >= 0, got {}", fields::describe_value(v)));
  return std::nullopt;
}

std::optional<int> measured_tokens(const nlohmann::json& v, const std::string& path,
                                   fields::IssueList& issues) {
  if (v.is_number_integer() && v.get<std::int64_t>() >= 0 &&
      v.get<std::int64_t>() <= std::numeric_limits<int>::max()) {
    return v.get<int>();
  }
  issues.add(path, fmt::format("expected a token count >= 0, got {}", fields::describe_value(v)));
  return std::nullopt;
}

std::optional<std::int64_t> measured_nanoseconds(const nlohmann::json& v, const std::string& path,
                                                 fields::IssueList& issues) {
  if (v.is_number_integer() && (v.is_number_unsigned() ? v.get<std::uint64_t>() <= INT64_MAX
                                                       : v.get<std::int64_t>() >= 0)) {
    return v.get<std::int64_t>();
  }
  issues.add(path, fmt::format("expected a timestamp in integer nanoseconds >= 0, got {}",
                               fields::describe_value(v)));
  return std::nullopt;
}

void rebase_send_times(BenchmarkResult& out) {
  double first = std::numeric_limits<double>::infinity();
  for (const MeasuredRequest& m : out.requests) {
    if (!m.sent_s) return;
    first = std::min(first, *m.sent_s);
  }
  for (MeasuredRequest& m : out.requests) *m.sent_s -= first;
}

}  // namespace lynxsim::store
