// The generated workload forms of the "workload" section (the others are in workload_section.cpp):
// a replayed trace and a synthetic arrival process, whose keys are the "workload-trace",
// "workload-synthetic" and "length" tables (source_fields.cpp). A length is an integer (fixed) or
// an object of the "length" table. The synthetic draws come from the scenario seed, so every
// method sees the same requests.

#include <cmath>
#include <fmt/format.h>

#include "sim/scenario/input_limits.hpp"
#include "sim/scenario/json_fields.hpp"
#include "sim/scenario/workload_sources.hpp"
#include "sim/serving/workload_synthetic.hpp"
#include "sim/scenario/length_file.hpp"
#include "sim/scenario/workload_trace.hpp"

namespace lynxsim::scenario {
namespace {

using nlohmann::json;
using serving::LengthDistribution;
using serving::LengthKind;

Field required(Field f) {
  f.required = true;
  return f;
}

void read_length_kind(ObjectReader& r, const std::string& kind, LengthDistribution& d,
                      const std::filesystem::path& base_dir) {
  const FieldSection& F = field_section("length");
  if (kind == "fixed") {
    d.value = r.count(required(F["value"])).value_or(1);
  } else if (kind == "uniform") {
    d.kind = LengthKind::uniform;
  } else if (kind == "lognormal") {
    d.kind = LengthKind::lognormal;
    const auto median = r.number(F["median"]);
    d.mu = median ? std::log(*median) : r.number(required(F["mu"])).value_or(0.0);
    d.sigma = r.number(required(F["sigma"])).value_or(0.0);
  } else if (kind == "empirical") {
    d.kind = LengthKind::empirical;
    if (const auto file = r.string(required(F["file"]))) {
      try {
        d.values = read_length_file(base_dir / *file);
      } catch (const std::exception& e) {
        r.issues().add(r.child("file"), e.what());
      }
    }
  }
  d.min = r.count(F["min"]).value_or(d.min);
  d.max = r.count(F["max"]).value_or(d.max);
}

}  // namespace

LengthDistribution read_length(const json& value, const std::string& path, IssueList& issues,
                               const std::filesystem::path& base_dir, json& resolved) {
  LengthDistribution d;
  if (value.is_number_integer() && value.get<std::int64_t>() >= 1 &&
      value.get<std::int64_t>() <= INT32_MAX) {
    d.value = value.get<int>();
    resolved = d.value;
    return d;
  }
  ObjectReader r(value, path, issues);
  if (!r.valid()) return d;
  resolved = json::object();
  r.resolve_into(resolved);
  const std::string kind = r.string(field_section("length")["kind"]).value_or("fixed");
  read_length_kind(r, kind, d, base_dir);
  r.finish();
  try {
    d.validate();
  } catch (const std::invalid_argument& e) {
    issues.add(path, e.what());
  }
  return d;
}

std::vector<serving::RequestSpec> read_trace_workload(ObjectReader& r,
                                                      const std::filesystem::path& base_dir,
                                                      json& resolved) {
  const FieldSection& F = field_section("workload-trace");
  TraceOptions options;
  resolved = json::object();
  r.resolve_into(resolved);
  const auto file = r.string(F["file"]);
  const auto kind = r.choice<TraceFormat>(F["format"],
                                                   {{"mooncake", TraceFormat::mooncake},
                                                    {"azure", TraceFormat::azure},
                                                    {"splitwise", TraceFormat::splitwise}});
  const bool has_time_scale = r.get("time_scale") != nullptr;
  options.time_scale = r.number(F["time_scale"]).value_or(1.0);
  if (const auto rate = r.number(F["rate_scale"])) {
    if (has_time_scale) r.issues().add(r.child("rate_scale"), "give time_scale or rate_scale, not both");
    options.time_scale = 1.0 / *rate;
    resolved.erase("rate_scale");
    resolved["time_scale"] = options.time_scale;
  }
  options.repeat = r.count(F["repeat"]).value_or(1);
  options.max_total_requests = kMaxRequests;
  options.window_start = r.time(F["window_start"]).value_or(Time::zero());
  options.window_end = r.time(F["window_end"]);
  if (const auto n = r.count(F["max_requests"])) options.max_requests = *n;
  options.keep_hash_ids = r.boolean(F["keep_hash_ids"]).value_or(true);
  r.finish();
  if (!file || !resolved.contains("format")) return {};
  try {
    return read_trace(base_dir / *file, kind, options);
  } catch (const std::exception& e) {
    r.issues().add(r.child("file"), e.what());
  }
  return {};
}

std::vector<serving::RequestSpec> read_synthetic_workload(ObjectReader& r, std::uint64_t seed,
                                                          const std::filesystem::path& base_dir,
                                                          json& resolved) {
  const FieldSection& F = field_section("workload-synthetic");
  const std::size_t before = r.issues().size();
  serving::SyntheticWorkload w;
  resolved = json::object();
  r.resolve_into(resolved);
  w.process = r.choice<serving::ArrivalProcess>(F["process"],
                                                {{"poisson", serving::ArrivalProcess::poisson},
                                                 {"gamma", serving::ArrivalProcess::gamma}});
  w.rate_per_s = r.number(F["rate_per_s"]).value_or(1.0);
  w.burstiness = r.number(F["burstiness"]).value_or(1.0);
  if (const auto n = r.count(F["count"])) w.count = *n;
  w.duration = r.time(F["duration"]);
  w.start = r.time(F["start"]).value_or(Time::zero());
  for (const char* key : {"context", "output"}) {
    const json* v = r.get(F[key].key, true);
    if (v == nullptr) continue;
    auto& d = std::string(key) == "context" ? w.context : w.output;
    d = read_length(*v, r.child(key), r.issues(), base_dir, resolved[key]);
  }
  r.finish();
  if (!w.count && !w.duration) r.issues().add(r.path(), "give \"count\", \"duration\" or both");
  const double expected = w.duration ? w.rate_per_s * w.duration->seconds() : 0.0;
  if (!w.count && expected > static_cast<double>(kMaxRequests)) {
    r.issues().add(r.child("duration"),
                   fmt::format("rate_per_s x duration is about {:.3g} requests, more than the {} a "
                               "workload may have; give a \"count\" or a shorter duration",
                               expected, kMaxRequests));
  }
  if (r.issues().size() != before) return {};
  return serving::generate_workload(w, seed);
}

}  // namespace lynxsim::scenario
