#include "sim/store/aiperf_export.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <optional>

#include "sim/fields/issues.hpp"
#include "sim/fields/object_reader.hpp"
#include "sim/store/measured_values.hpp"

namespace lynxsim::store {
namespace {

using fields::ObjectReader;
using nlohmann::json;

// A gamma of this shape has a coefficient of variation of 0.001: AIPerf's "constant" rate.
constexpr double kConstantRateBurstiness = 1e6;

struct Timed {
  MeasuredRequest m;
  std::int64_t sent_ns = 0;
};

std::optional<double> seconds_per_unit(const std::string& unit) {
  if (unit == "ns") return 1e-9;
  if (unit == "us") return 1e-6;
  if (unit == "ms") return 1e-3;
  if (unit == "s" || unit == "sec") return 1.0;
  return std::nullopt;
}

// A metric's {"value", "unit"}: its value when the unit is `unit` (or, for time, any time unit).
std::optional<double> metric(ObjectReader& metrics, const char* name, bool is_time) {
  const json* m = metrics.get(name, true);
  if (m == nullptr) return std::nullopt;
  const std::string path = metrics.child(name);
  fields::IssueList& issues = metrics.issues();
  if (!m->is_object() || !m->contains("value") || !m->contains("unit") || !(*m)["unit"].is_string()) {
    issues.add(path, fmt::format("expected {{\"value\", \"unit\"}}, got {}", fields::describe_value(*m)));
    return std::nullopt;
  }
  const std::string unit = (*m)["unit"].get<std::string>();
  const auto scale = is_time ? seconds_per_unit(unit) : (unit == "tokens" ? std::optional(1.0) : std::nullopt);
  if (!scale) {
    issues.add(fields::pointer_child(path, "unit"),
               fmt::format("expected {}, got \"{}\"", is_time ? "ns, us, ms, sec or s" : "tokens", unit));
    return std::nullopt;
  }
  const std::string value_path = fields::pointer_child(path, "value");
  if (!is_time) {
    const auto n = measured_tokens((*m)["value"], value_path, issues);
    return n ? std::optional<double>(*n) : std::nullopt;
  }
  const auto v = measured_seconds((*m)["value"], value_path, issues);
  return v ? std::optional(*v * *scale) : std::nullopt;
}

bool failed(ObjectReader& record, ObjectReader& metadata) {
  const json* error = record.get("error");
  const json* cancelled = metadata.get("was_cancelled");
  return (error != nullptr && !error->is_null()) ||
         (cancelled != nullptr && cancelled->is_boolean() && cancelled->get<bool>());
}

// One line's request: nullopt when it is left out (failed, warmup) or malformed (an issue).
std::optional<Timed> read_record(const json& value, const std::string& path, fields::IssueList& issues,
                                 std::size_t& failures) {
  ObjectReader record(value, path, issues);
  const json* meta = record.valid() ? record.get("metadata", true) : nullptr;
  if (meta == nullptr) return std::nullopt;
  ObjectReader metadata(*meta, record.child("metadata"), issues);
  if (!metadata.valid() || metadata.string("benchmark_phase") == "warmup") return std::nullopt;
  const json* start = metadata.get("request_start_ns", true);
  const auto sent =
      start != nullptr ? measured_nanoseconds(*start, metadata.child("request_start_ns"), issues) : std::nullopt;
  if (!sent) return std::nullopt;
  if (failed(record, metadata)) {
    ++failures;
    return std::nullopt;
  }
  const json* m = record.get("metrics", true);
  if (m == nullptr) return std::nullopt;
  ObjectReader metrics(*m, record.child("metrics"), issues);
  if (!metrics.valid()) return std::nullopt;
  const auto input = metric(metrics, "input_sequence_length", false);
  const auto output = metric(metrics, "output_sequence_length", false);
  const auto ttft = metric(metrics, "time_to_first_token", true);
  const auto latency = metric(metrics, "request_latency", true);
  if (!input || !output || !ttft || !latency) return std::nullopt;
  if (*input < 1 || *output < 1 || *latency < *ttft) {
    issues.add(record.child("metrics"), "a successful request has a prompt token, an output token and a "
                                        "latency no shorter than its TTFT");
    return std::nullopt;
  }
  const MeasuredRequest request{static_cast<int>(*input), static_cast<int>(*output), *ttft, *latency, std::nullopt};
  return Timed{request, *sent};
}

void read_client(const ResultSettings& settings, BenchmarkResult& out) {
  out.client_source = settings.value.is_null() ? "no " + settings.document + " beside it" : settings.document;
  if (settings.value.is_null()) return;
  fields::IssueList issues;
  ObjectReader file(settings.value, "", issues);
  const json* config = file.valid() ? file.get("input_config") : nullptr;
  const bool has_loadgen = config != nullptr && config->is_object() && config->contains("loadgen");
  const json* loadgen = has_loadgen ? &(*config)["loadgen"] : nullptr;
  if (loadgen != nullptr) {
    ObjectReader r(*loadgen, "/input_config/loadgen", issues);
    if (r.valid()) {
      const json* c = r.get("concurrency");
      if (c != nullptr && !c->is_null()) out.max_concurrency = r.count("concurrency", 1, 10'000'000);
      const json* rate = r.get("request_rate");
      if (rate != nullptr && !rate->is_null()) out.request_rate = r.number("request_rate", 0.0, 1e12, true, true);
      if (r.string("request_rate_mode") == "constant") out.burstiness = kConstantRateBurstiness;
    }
  }
  issues.throw_if_any(settings.document);
}

void summarize(std::vector<Timed>& timed, BenchmarkResult& out) {
  std::int64_t first = std::numeric_limits<std::int64_t>::max();
  for (const Timed& t : timed) first = std::min(first, t.sent_ns);
  double end = 0.0;
  for (Timed& t : timed) {
    t.m.sent_s = 1e-9 * static_cast<double>(t.sent_ns - first);
    end = std::max(end, *t.m.sent_s + t.m.e2e_s);
    out.requests.push_back(t.m);
  }
  out.duration_s = end;
  out.request_throughput = end > 0.0 ? static_cast<double>(timed.size()) / end : 0.0;
}

}  // namespace

BenchmarkResult aiperf_result_from_lines(const std::string& text, const std::string& document,
                                         const ResultSettings& settings) {
  BenchmarkResult out;
  out.tool = "AIPerf";
  read_client(settings, out);
  fields::IssueList issues;
  std::vector<Timed> timed;
  std::size_t line = 0;
  for (std::size_t at = 0; at < text.size() && issues.empty(); ++line) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const std::string_view content = std::string_view(text).substr(at, end - at);
    at = end + 1;
    if (content.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    const std::string path = fmt::format("/{}", line + 1);
    const json value = json::parse(content, nullptr, false);
    if (value.is_discarded()) {
      issues.add(path, "expected one JSON record on this line");
      continue;
    }
    if (auto t = read_record(value, path, issues, out.failed)) timed.push_back(*t);
  }
  if (issues.empty() && timed.empty()) issues.add("", "no request succeeded");
  issues.throw_if_any(document);
  summarize(timed, out);
  return out;
}

}  // namespace lynxsim::store
