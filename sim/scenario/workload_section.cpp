// The "workload" section: a fixed list of requests, N copies of one request, a replayed trace, a
// synthetic arrival process (the last two in workload_sources.cpp) or a closed-loop client
// (workload_closed_loop.cpp); exactly one of the five keys. The keys of each form are the
// "workload-request", "workload-copies", "workload-trace", "workload-synthetic" and
// "workload-closed-loop" tables (scenario_fields.cpp, source_fields.cpp).

#include <algorithm>
#include <fmt/format.h>

#include "sim/core/unit_parse.hpp"
#include "sim/scenario/input_limits.hpp"
#include "sim/scenario/json_fields.hpp"
#include "sim/scenario/scenario_sections.hpp"
#include "sim/scenario/workload_sources.hpp"

namespace lynxsim::scenario {
namespace {

using serving::RequestSpec;

// One request of table F; it arrives at the duration of F's key `arrival_key`.
std::optional<RequestSpec> read_request(ObjectReader& r, const FieldSection& F,
                                        std::string_view arrival_key) {
  const auto context = r.count(F["context"]);
  const auto output = r.count(F["output"]);
  const auto arrival = r.time(F[arrival_key]);
  if (!context || !output || !arrival) return std::nullopt;
  RequestSpec spec;
  spec.context_tokens = *context;
  spec.output_tokens = *output;
  spec.arrival_at = *arrival;
  return spec;
}

std::vector<RequestSpec> read_list(const nlohmann::json& list, const std::string& path,
                                   IssueList& issues, nlohmann::json& resolved) {
  std::vector<RequestSpec> requests;
  if (!list.is_array() || list.empty()) {
    issues.add(path, fmt::format("expected a non-empty array of requests, got {}",
                                 describe_value(list)));
    return requests;
  }
  resolved = nlohmann::json::array();
  for (std::size_t i = 0; i < list.size(); ++i) {
    nlohmann::json item = nlohmann::json::object();
    ObjectReader r(list[i], pointer_child(path, std::to_string(i)), issues);
    r.resolve_into(item);
    const auto spec = read_request(r, field_section("workload-request"), "arrival");
    r.finish();
    if (!spec) continue;
    requests.push_back(*spec);
    resolved.push_back(std::move(item));
  }
  return requests;
}

std::vector<RequestSpec> read_copies(ObjectReader& r, nlohmann::json& resolved) {
  const FieldSection& F = field_section("workload-copies");
  resolved = nlohmann::json::object();
  r.resolve_into(resolved);
  const std::int64_t copies = r.count(F["copies"]).value_or(0);
  const auto one = read_request(r, F, "start");
  const auto interval = r.time(F["interval"]);
  if (copies < 1 || !one || !interval) return {};
  const Time step = *interval;
  if (step > Time::zero() && (kMaxArrival - one->arrival_at).ps() / step.ps() < copies - 1) {
    r.issues().add(r.child("interval"),
                   fmt::format("{} copies at this interval arrive later than {} after time zero",
                               copies, time_text(kMaxArrival)));
    return {};
  }
  std::vector<RequestSpec> requests(static_cast<std::size_t>(copies), *one);
  for (std::size_t i = 0; i < requests.size(); ++i) {
    requests[i].arrival_at = one->arrival_at + step * static_cast<std::int64_t>(i);
  }
  return requests;
}

// The requests of the one form the workload gives; `source` becomes the JSON path of that form.
std::vector<RequestSpec> read_workload_form(ObjectReader& r, const nlohmann::json& value, SectionContext& ctx,
                                            std::uint64_t seed, nlohmann::json& resolved, std::string& source,
                                            std::optional<serving::ClientSpec>& client) {
  const char* forms[] = {"requests", "copies", "trace", "synthetic", "closed_loop"};
  const auto given = std::count_if(std::begin(forms), std::end(forms),
                                   [&](const char* k) { return value.contains(k); });
  const auto& base_dir = ctx.options.base_dir;
  if (given != 1) {
    ctx.issues.add(r.path(), "expected exactly one of \"requests\" (a list), \"copies\" (N copies), "
                             "\"trace\", \"synthetic\" and \"closed_loop\"");
    for (const char* k : forms) r.get(k);
    return {};
  }
  if (const auto* list = r.get("requests")) {
    nlohmann::json list_resolved;
    auto requests = read_list(*list, r.child("requests"), ctx.issues, list_resolved);
    resolved = {{"requests", list_resolved}};
    return requests;
  }
  if (const auto* trace = r.get("trace")) {
    source = r.child("trace");
    ObjectReader t(*trace, source, ctx.issues);
    return t.valid() ? read_trace_workload(t, base_dir, resolved["trace"]) : std::vector<RequestSpec>{};
  }
  if (const auto* synthetic = r.get("synthetic")) {
    source = r.child("synthetic");
    ObjectReader t(*synthetic, source, ctx.issues);
    return t.valid() ? read_synthetic_workload(t, seed, base_dir, resolved["synthetic"]) : std::vector<RequestSpec>{};
  }
  if (const auto* closed = r.get("closed_loop")) {
    source = r.child("closed_loop");
    ObjectReader t(*closed, source, ctx.issues);
    return t.valid() ? read_closed_loop_workload(t, seed, base_dir, resolved["closed_loop"], client)
                     : std::vector<RequestSpec>{};
  }
  return read_copies(r, resolved);
}

}  // namespace

std::vector<RequestSpec> read_workload(const nlohmann::json& value, const std::string& path,
                                       SectionContext& ctx, std::uint64_t seed,
                                       nlohmann::json& resolved,
                                       std::optional<serving::ClientSpec>& client) {
  ObjectReader r(value, path, ctx.issues);
  if (!r.valid()) return {};
  const std::size_t issues_before = ctx.issues.size();
  std::string source = path;
  std::vector<RequestSpec> requests = read_workload_form(r, value, ctx, seed, resolved, source, client);
  if (requests.empty() && ctx.issues.size() == issues_before) {
    ctx.issues.add(source, "the workload has no request (an empty trace, or a window or filter that "
                           "selects none): a run would measure nothing");
  }
  r.finish();
  return requests;
}

}  // namespace lynxsim::scenario
