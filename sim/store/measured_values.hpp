#pragma once
// Values shared by the readers of benchmark exports (benchmark_result.hpp): checked seconds and
// token counts, each recording an issue at its JSON pointer when it is not one, and the send times
// of a run made relative to its first send.

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/fields/issues.hpp"
#include "sim/store/benchmark_result.hpp"

namespace lynxsim::store {

std::optional<double> measured_seconds(const nlohmann::json& v, const std::string& path,
                                       fields::IssueList& issues);
std::optional<int> measured_tokens(const nlohmann::json& v, const std::string& path,
                                   fields::IssueList& issues);
// A timestamp in integer nanoseconds (a clock reading: >= 0, within int64).
std::optional<std::int64_t> measured_nanoseconds(const nlohmann::json& v, const std::string& path,
                                                 fields::IssueList& issues);
// Every sent_s minus the earliest one; unchanged when a request has none.
void rebase_send_times(BenchmarkResult& out);

}  // namespace lynxsim::store
