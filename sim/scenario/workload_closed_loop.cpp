// The "closed_loop" workload form: N requests sent by a client that keeps at most C in flight
// (serving/client.hpp), ready at the times of vLLM's rate process (serving/closed_loop_workload.hpp).
// Its keys are the "workload-closed-loop" table (source_fields.cpp). The lengths come from two
// length distributions, or in trace order from a trace (`lengths_from`, a "workload-trace" object
// whose arrival times are not used).

#include <fmt/format.h>

#include "sim/scenario/input_limits.hpp"
#include "sim/scenario/workload_sources.hpp"
#include "sim/serving/closed_loop_workload.hpp"

namespace lynxsim::scenario {
namespace {

using nlohmann::json;

std::vector<serving::RequestSpec> trace_lengths(ObjectReader& r, const json& trace,
                                                std::optional<int> count,
                                                const std::filesystem::path& base_dir,
                                                json& resolved) {
  ObjectReader t(trace, r.child("lengths_from"), r.issues());
  if (!t.valid()) return {};
  std::vector<serving::RequestSpec> requests = read_trace_workload(t, base_dir, resolved["lengths_from"]);
  if (requests.empty()) return {};
  if (count && static_cast<std::size_t>(*count) > requests.size()) {
    r.issues().add(r.child("count"), fmt::format("{} requests, but the trace of lengths_from has {}",
                                                 *count, requests.size()));
    return {};
  }
  if (count) requests.resize(static_cast<std::size_t>(*count));
  resolved["count"] = requests.size();
  return requests;
}

std::vector<serving::RequestSpec> drawn_lengths(ObjectReader& r, std::optional<int> count,
                                                std::uint64_t seed,
                                                const std::filesystem::path& base_dir,
                                                json& resolved) {
  const FieldSection& F = field_section("workload-closed-loop");
  const std::size_t before = r.issues().size();
  if (!count && r.get("count") == nullptr) {
    r.issues().add(r.child("count"), "required without \"lengths_from\"");
  }
  serving::LengthDistribution lengths[2];
  const char* keys[] = {"context", "output"};
  for (int i = 0; i < 2; ++i) {
    const json* v = r.get(F[keys[i]].key);
    if (v == nullptr) {
      r.issues().add(r.child(keys[i]), "required without \"lengths_from\"");
      continue;
    }
    lengths[i] = read_length(*v, r.child(keys[i]), r.issues(), base_dir, resolved[keys[i]]);
  }
  if (!count || r.issues().size() != before) return {};
  return serving::sample_requests(*count, lengths[0], lengths[1], seed);
}

}  // namespace

std::vector<serving::RequestSpec> read_closed_loop_workload(ObjectReader& r, std::uint64_t seed,
                                                            const std::filesystem::path& base_dir,
                                                            json& resolved,
                                                            std::optional<serving::ClientSpec>& client) {
  const FieldSection& F = field_section("workload-closed-loop");
  const std::size_t before = r.issues().size();
  resolved = json::object();
  r.resolve_into(resolved);
  const auto concurrency = r.count(F["concurrency"]);
  const auto count = r.count(F["count"]);
  const auto rate = r.number(F["rate_per_s"]);
  const double burstiness = r.number(F["burstiness"]).value_or(1.0);
  const Time think = r.time(F["think_time"]).value_or(Time::zero());
  std::vector<serving::RequestSpec> requests;
  if (const json* trace = r.get("lengths_from")) {
    for (const char* key : {"context", "output"}) {
      if (r.get(key) != nullptr) r.issues().add(r.child(key), "give lengths or \"lengths_from\", not both");
    }
    requests = trace_lengths(r, *trace, count, base_dir, resolved);
  } else {
    requests = drawn_lengths(r, count, seed, base_dir, resolved);
  }
  r.finish();
  if (rate && static_cast<double>(requests.size()) / *rate > kMaxArrival.seconds()) {
    r.issues().add(r.child("rate_per_s"),
                   fmt::format("count / rate_per_s puts the last request later than {} after time zero",
                               time_text(kMaxArrival)));
  }
  if (r.issues().size() != before || !concurrency) return {};
  serving::set_ready_times(requests, rate, burstiness, seed);
  client = serving::ClientSpec{*concurrency, think};
  return requests;
}

}  // namespace lynxsim::scenario
