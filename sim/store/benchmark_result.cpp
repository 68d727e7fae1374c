#include "sim/store/benchmark_result.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>

#include "sim/fields/issues.hpp"
#include "sim/fields/object_reader.hpp"
#include "sim/fields/strict_json.hpp"
#include "sim/store/aiperf_export.hpp"
#include "sim/store/genai_perf_export.hpp"
#include "sim/store/measured_values.hpp"
#include "sim/store/text_file.hpp"

namespace lynxsim::store {
namespace {

using fields::IssueList;
using fields::ObjectReader;
using nlohmann::json;

constexpr std::size_t kAnySize = std::numeric_limits<std::size_t>::max();

const json* array(ObjectReader& r, std::string_view key, bool required, std::size_t size) {
  const json* v = r.get(key, required);
  if (v == nullptr) return nullptr;
  if (!v->is_array() || (size != kAnySize && v->size() != size)) {
    r.issues().add(r.child(key), fmt::format("expected an array with one value per request ({}), got {}",
                                             size == kAnySize ? std::string("any") : std::to_string(size),
                                             fields::describe_value(*v)));
    return nullptr;
  }
  return v;
}

// The per-request arrays of a vLLM result, each checked to hold one value per request.
struct Columns {
  const json* input = nullptr;
  const json* output = nullptr;
  const json* ttft = nullptr;
  const json* itl = nullptr;
  const json* latency = nullptr;
  const json* start = nullptr;
  const json* errors = nullptr;
};

Columns read_columns(ObjectReader& r) {
  Columns c;
  c.input = array(r, "input_lens", true, kAnySize);
  const std::size_t n = c.input != nullptr ? c.input->size() : kAnySize;
  c.output = array(r, "output_lens", true, n);
  c.ttft = array(r, "ttfts", true, n);
  c.latency = array(r, "latencies", false, n);
  c.itl = array(r, "itls", c.latency == nullptr && r.get("latencies") == nullptr, n);
  c.start = array(r, "start_times", false, n);
  c.errors = array(r, "errors", false, n);
  return c;
}

std::string at(ObjectReader& r, std::string_view key, std::size_t i) {
  return fields::pointer_child(r.child(key), std::to_string(i));
}

bool failed(const Columns& c, std::size_t i) {
  if (c.errors == nullptr) return false;
  const json& e = (*c.errors)[i];
  return e.is_string() && !e.get<std::string>().empty();
}

std::optional<double> e2e_of(ObjectReader& r, const Columns& c, std::size_t i, double ttft) {
  if (c.latency != nullptr) return measured_seconds((*c.latency)[i], at(r, "latencies", i), r.issues());
  if (c.itl == nullptr) return std::nullopt;
  const json& gaps = (*c.itl)[i];
  if (!gaps.is_array()) {
    r.issues().add(at(r, "itls", i), "expected an array of inter-token latencies in seconds");
    return std::nullopt;
  }
  double e2e = ttft;
  for (std::size_t k = 0; k < gaps.size(); ++k) {
    const auto gap = measured_seconds(gaps[k], fields::pointer_child(at(r, "itls", i), std::to_string(k)), r.issues());
    if (!gap) return std::nullopt;
    e2e += *gap;
  }
  return e2e;
}

void read_request(ObjectReader& r, const Columns& c, std::size_t i, BenchmarkResult& out) {
  const auto output = measured_tokens((*c.output)[i], at(r, "output_lens", i), r.issues());
  const auto input = measured_tokens((*c.input)[i], at(r, "input_lens", i), r.issues());
  if (!output || !input) return;
  if (failed(c, i) || *output == 0) {
    ++out.failed;
    return;
  }
  if (*input < 1) r.issues().add(at(r, "input_lens", i), "a successful request has at least one prompt token");
  const auto ttft = measured_seconds((*c.ttft)[i], at(r, "ttfts", i), r.issues());
  const auto e2e = ttft ? e2e_of(r, c, i, *ttft) : std::nullopt;
  if (!ttft || !e2e) return;
  if (*e2e < *ttft) r.issues().add(at(r, "latencies", i), "the latency is shorter than the TTFT");
  MeasuredRequest m{*input, *output, *ttft, *e2e, std::nullopt};
  if (c.start != nullptr) m.sent_s = measured_seconds((*c.start)[i], at(r, "start_times", i), r.issues());
  out.requests.push_back(m);
}

void read_settings(ObjectReader& r, BenchmarkResult& out) {
  if (const json* rate = r.get("request_rate", true)) {
    if (!(rate->is_string() && rate->get<std::string>() == "inf")) {
      out.request_rate = r.number("request_rate", 0.0, 1e12, true, true);
    }
  }
  out.burstiness = r.number("burstiness", 1e-6, 1e6).value_or(1.0);
  if (const json* c = r.get("max_concurrency"); c != nullptr && !c->is_null()) {
    out.max_concurrency = r.count("max_concurrency", 1, 10'000'000);
  }
  out.duration_s = r.number("duration", 0.0, 1e12, true, true).value_or(0.0);
  out.request_throughput = r.number("request_throughput", 0.0, 1e12, true).value_or(0.0);
}

}  // namespace

BenchmarkResult benchmark_result_from_json(const json& value, const std::string& document,
                                           const ResultSettings& settings) {
  if (value.is_object() && value.contains("experiments")) return genai_perf_result_from_json(value, document, settings);
  IssueList issues;
  BenchmarkResult out;
  out.tool = "vllm bench serve";
  ObjectReader r(value, "", issues);
  if (r.valid()) {
    read_settings(r, out);
    const Columns c = read_columns(r);
    if (c.input != nullptr && c.output != nullptr && c.ttft != nullptr) {
      for (std::size_t i = 0; i < c.input->size(); ++i) read_request(r, c, i, out);
    }
    if (issues.empty() && out.requests.empty()) issues.add("/output_lens", "no request succeeded");
  }
  issues.throw_if_any(document);
  rebase_send_times(out);
  return out;
}

namespace {

std::string read_result_text(const std::filesystem::path& path) {
  try {
    return read_text_file(path.string());
  } catch (const std::exception& e) {
    throw fields::InputError(path.string(), {{"", e.what()}});
  }
}

// The aggregate file a tool writes beside its per-request export, when it is there.
ResultSettings settings_beside(const std::filesystem::path& path, const char* suffix) {
  ResultSettings s;
  const std::filesystem::path beside = path.parent_path() / (path.stem().string() + suffix);
  s.document = beside.string();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(beside, ec)) return s;
  s.value = fields::parse_json_document(read_result_text(beside), s.document);
  return s;
}

}  // namespace

BenchmarkResult read_benchmark_result(const std::filesystem::path& path) {
  const std::string text = read_result_text(path);
  if (path.extension() == ".jsonl") {
    return aiperf_result_from_lines(text, path.string(), settings_beside(path, "_aiperf.json"));
  }
  const json value = fields::parse_json_document(text, path.string());
  const bool genai_perf = value.is_object() && value.contains("experiments");
  return benchmark_result_from_json(value, path.string(),
                                    genai_perf ? settings_beside(path, "_genai_perf.json") : ResultSettings{});
}

}  // namespace lynxsim::store
