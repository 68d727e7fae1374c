// The generated workload forms of the "workload" section (the others are in workload_section.cpp):
//   {"trace": {"file": path (relative to the scenario's folder), "format": "mooncake" | "azure" |
//              "splitwise", "time_scale": 1, "window_start": "0s", "window_end": duration,
//              "max_requests": N, "keep_hash_ids": true, "repeat": 1}}; "rate_scale": r instead of
//              time_scale replays at r times the trace's load (time_scale = 1 / r)
//   {"synthetic": {"process": "poisson" | "gamma", "rate_per_s": > 0, "burstiness": 1,
//                  "count": N, "duration": d, "start": "0s", "context": L, "output": L}}
// A length L is an integer (fixed) or {"kind": "uniform", "min", "max"},
// {"kind": "lognormal", "median" (or "mu"), "sigma", "min", "max"},
// {"kind": "empirical", "file": one length per line, "min", "max"}.
// The synthetic draws come from the scenario seed, so every method sees the same requests.

#include <cmath>
#include <fmt/format.h>

#include "sim/scenario/input_limits.hpp"
#include "sim/scenario/json_fields.hpp"
#include "sim/scenario/workload_sources.hpp"
#include "sim/serving/workload_synthetic.hpp"
#include "sim/serving/workload_trace.hpp"

namespace lynxsim::scenario {
namespace {

using nlohmann::json;
using serving::LengthDistribution;
using serving::LengthKind;

void read_bounds(ObjectReader& r, LengthDistribution& d, json& resolved) {
  d.min = r.count("min", 1, kMaxTokensPerRequest).value_or(1);
  d.max = r.count("max", 1, kMaxTokensPerRequest).value_or(static_cast<int>(kMaxTokensPerRequest));
  resolved["min"] = d.min;
  resolved["max"] = d.max;
}

void read_length_kind(ObjectReader& r, const std::string& kind, LengthDistribution& d,
                      const std::filesystem::path& base_dir, json& resolved) {
  if (kind == "fixed") {
    d.value = r.count("value", 1, kMaxTokensPerRequest, true).value_or(1);
    resolved["value"] = d.value;
  } else if (kind == "uniform") {
    d.kind = LengthKind::uniform;
  } else if (kind == "lognormal") {
    d.kind = LengthKind::lognormal;
    const auto median = r.number("median", 1.0, 1e12);
    d.mu = median ? std::log(*median) : r.number("mu", -1e3, 1e3, true).value_or(0.0);
    d.sigma = r.number("sigma", 0.0, 100.0, true).value_or(0.0);
    resolved["mu"] = d.mu;
    resolved["sigma"] = d.sigma;
  } else if (kind == "empirical") {
    d.kind = LengthKind::empirical;
    if (const auto file = r.string("file", true)) {
      try {
        d.values = serving::read_length_file(base_dir / *file);
      } catch (const std::exception& e) {
        r.issues().add(r.child("file"), e.what());
      }
      resolved["file"] = *file;
    }
  } else {
    r.issues().add(r.child("kind"), fmt::format("expected \"fixed\", \"uniform\", \"lognormal\" "
                                                "or \"empirical\", got \"{}\"", kind));
  }
  read_bounds(r, d, resolved);
}

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
  const std::string kind = r.string("kind", true).value_or("fixed");
  resolved = {{"kind", kind}};
  read_length_kind(r, kind, d, base_dir, resolved);
  r.finish();
  try {
    d.validate();
  } catch (const std::invalid_argument& e) {
    issues.add(path, e.what());
  }
  return d;
}

}  // namespace

std::vector<serving::RequestSpec> read_trace_workload(ObjectReader& r,
                                                      const std::filesystem::path& base_dir,
                                                      json& resolved) {
  serving::TraceOptions options;
  const auto file = r.string("file", true);
  const auto format = r.string("format", true);
  options.time_scale = r.number("time_scale", 1e-9, 1e9).value_or(1.0);
  if (const auto rate = r.number("rate_scale", 1e-9, 1e9)) {
    if (r.get("time_scale")) r.issues().add(r.child("rate_scale"), "give time_scale or rate_scale, not both");
    options.time_scale = 1.0 / *rate;
  }
  options.repeat = r.count("repeat", 1, kMaxTraceRepeat).value_or(1);
  options.max_total_requests = kMaxRequests;
  options.window_start = r.time("window_start", false).value_or(Time::zero());
  options.window_end = r.time("window_end", true);
  if (const auto n = r.count("max_requests", 1, kMaxRequests)) options.max_requests = *n;
  options.keep_hash_ids = r.boolean("keep_hash_ids").value_or(true);
  serving::TraceFormat kind = serving::TraceFormat::mooncake;
  if (format == "azure") kind = serving::TraceFormat::azure;
  else if (format == "splitwise") kind = serving::TraceFormat::splitwise;
  else if (format && *format != "mooncake") {
    r.issues().add(r.child("format"), fmt::format("expected \"mooncake\", \"azure\" or "
                                                  "\"splitwise\", got \"{}\"", *format));
  }
  r.finish();
  if (!file || !format) return {};
  resolved = {{"file", *file}, {"format", *format}, {"time_scale", options.time_scale},
              {"window_start", time_text(options.window_start)},
              {"keep_hash_ids", options.keep_hash_ids}, {"repeat", options.repeat}};
  if (options.window_end) resolved["window_end"] = time_text(*options.window_end);
  if (options.max_requests) resolved["max_requests"] = *options.max_requests;
  try {
    return serving::read_trace(base_dir / *file, kind, options);
  } catch (const std::exception& e) {
    r.issues().add(r.child("file"), e.what());
  }
  return {};
}

std::vector<serving::RequestSpec> read_synthetic_workload(ObjectReader& r, std::uint64_t seed,
                                                          const std::filesystem::path& base_dir,
                                                          json& resolved) {
  const std::size_t before = r.issues().size();
  serving::SyntheticWorkload w;
  const auto process = r.string("process").value_or("poisson");
  if (process == "gamma") w.process = serving::ArrivalProcess::gamma;
  else if (process != "poisson") {
    r.issues().add(r.child("process"),
                   fmt::format("expected \"poisson\" or \"gamma\", got \"{}\"", process));
  }
  w.rate_per_s = r.number("rate_per_s", 1e-12, 1e12, true).value_or(1.0);
  w.burstiness = r.number("burstiness", 1e-6, 1e6).value_or(1.0);
  if (const auto n = r.count("count", 1, kMaxRequests)) w.count = *n;
  w.duration = r.time("duration", true);
  w.start = r.time("start", false).value_or(Time::zero());
  resolved = {{"process", process}, {"rate_per_s", w.rate_per_s}, {"burstiness", w.burstiness},
              {"start", time_text(w.start)}};
  if (w.count) resolved["count"] = *w.count;
  if (w.duration) resolved["duration"] = time_text(*w.duration);
  for (const char* key : {"context", "output"}) {
    const json* v = r.get(key, true);
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
