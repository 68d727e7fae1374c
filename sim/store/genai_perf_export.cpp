#include "sim/store/genai_perf_export.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <optional>

#include "sim/fields/issues.hpp"
#include "sim/fields/object_reader.hpp"
#include "sim/store/measured_values.hpp"

namespace lynxsim::store {
namespace {

using fields::IssueList;
using fields::ObjectReader;
using fields::pointer_child;
using nlohmann::json;

constexpr const char* kUseAiperf = "; AIPerf's profile_export.jsonl records each request's token counts";

struct Run {
  std::optional<int> synthetic_input;  // every prompt's length, when the settings fix it
  std::string settings_note;           // what the settings beside the file are, for messages
  bool openai = true;
};

const json& nothing() {
  static const json none;
  return none;
}

struct Timed {
  bool answered = false;  // a response carried text
  MeasuredRequest m;
  std::int64_t sent_ns = 0;
  std::int64_t last_ns = 0;
};

std::string text_field(const json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The text of one server-sent event; nullopt when it is neither "[DONE]" nor an OpenAI response.
std::optional<std::string> event_text(std::string_view event) {
  const auto first = event.find_first_not_of(" \r\n");
  if (first == std::string_view::npos) return std::string();
  event.remove_prefix(first);
  if (event.substr(0, 5) == "data:") event.remove_prefix(5);
  event.remove_prefix(std::min(event.size(), event.find_first_not_of(' ')));
  const auto last = event.find_last_not_of(" \r\n");
  event = event.substr(0, last == std::string_view::npos ? 0 : last + 1);
  if (event == "[DONE]") return std::string();
  const json data = json::parse(event, nullptr, false);
  if (!data.is_object() || !data.contains("choices") || !data["choices"].is_array() || data["choices"].empty() ||
      !data["choices"][0].is_object()) {
    return std::nullopt;
  }
  const json& choice = data["choices"][0];
  const std::string object = text_field(data, "object");
  if (object == "chat.completion.chunk" && choice.contains("delta")) return text_field(choice["delta"], "content");
  if (object == "chat.completion" && choice.contains("message")) return text_field(choice["message"], "content");
  return text_field(choice, "text");
}

// Whether one response output carries text; records an issue when it cannot be read.
std::optional<bool> has_text(const json& output, const std::string& path, const Run& run, IssueList& issues) {
  const char* key = run.openai ? "response" : "text_output";
  if (!output.is_object() || !output.contains(key) || !output[key].is_string()) {
    issues.add(path, fmt::format("expected an object with a \"{}\" string", key));
    return std::nullopt;
  }
  const std::string text = output[key].get<std::string>();
  if (!run.openai) return !text.empty();
  bool any = false;
  for (std::size_t at = 0; at <= text.size();) {
    const std::size_t end = std::min(text.find("\n\n", at), text.size());
    const auto event = event_text(std::string_view(text).substr(at, end - at));
    if (!event) {
      issues.add(pointer_child(path, key), "expected OpenAI server-sent events (\"data: {...}\" or \"data: [DONE]\")");
      return std::nullopt;
    }
    any = any || !event->empty();
    at = end + 2;
  }
  return any;
}

std::optional<int> integer_at(const json& object, const char* key) {
  const auto it = object.find(key);
  if (it == object.end() || !it->is_number_integer() || it->get<std::int64_t>() < 1 ||
      it->get<std::int64_t>() > std::numeric_limits<int>::max()) {
    return std::nullopt;
  }
  return it->get<int>();
}

std::optional<int> input_length(const json& payload, const std::string& path, const Run& run, IssueList& issues) {
  const auto prompt = payload.find("prompt");
  if (prompt != payload.end() && prompt->is_array() && !prompt->empty() &&
      std::all_of(prompt->begin(), prompt->end(), [](const json& t) { return t.is_number_integer(); })) {
    return static_cast<int>(prompt->size());
  }
  if (run.synthetic_input) return run.synthetic_input;
  issues.add(path, fmt::format("the prompt is text, not token ids: its token count needs the model's "
                               "tokenizer, and {} (synthetic_input_tokens_stddev 0, no "
                               "input_file){}", run.settings_note, kUseAiperf));
  return std::nullopt;
}

std::optional<int> output_length(const json& payload, const std::string& path, IssueList& issues) {
  const auto limit = payload.contains("max_tokens") ? integer_at(payload, "max_tokens")
                                                    : integer_at(payload, "max_completion_tokens");
  const auto forced = payload.find("ignore_eos");
  const bool ignores_eos = forced != payload.end() && forced->is_boolean() && forced->get<bool>();
  const bool fixed = limit && (ignores_eos || integer_at(payload, "min_tokens") == limit ||
                               integer_at(payload, "min_length") == limit);
  if (fixed) return limit;
  issues.add(path, fmt::format("the output length is not fixed by the request (max_tokens with ignore_eos "
                               "true or min_tokens equal to it), and streamed chunks are not token "
                               "counts{}", kUseAiperf));
  return std::nullopt;
}

// The request's body: the OpenAI payload text parsed, or Triton's inputs as they are.
std::optional<json> payload_of(const json& inputs, const std::string& path, IssueList& issues) {
  if (!inputs.is_object()) {
    issues.add(path, "expected an object of request inputs");
    return std::nullopt;
  }
  if (!inputs.contains("payload")) return inputs;
  const json body = inputs["payload"].is_string() ? json::parse(inputs["payload"].get<std::string>(), nullptr, false)
                                                  : json(json::value_t::discarded);
  if (!body.is_object()) {
    issues.add(pointer_child(path, "payload"), "expected the request body as JSON text");
    return std::nullopt;
  }
  return body;
}

// The times of the responses that carry text (genai-perf's _preprocess_response).
std::optional<std::vector<std::int64_t>> text_times(ObjectReader& r, const Run& run) {
  const json* times = r.get("response_timestamps", true);
  const json* outputs = r.get("response_outputs", true);
  if (times == nullptr || outputs == nullptr) return std::nullopt;
  if (!times->is_array() || !outputs->is_array() || times->size() != outputs->size()) {
    r.issues().add(r.child("response_outputs"), "expected one output per response timestamp");
    return std::nullopt;
  }
  std::vector<std::int64_t> kept;
  for (std::size_t k = 0; k < times->size(); ++k) {
    const std::string at = std::to_string(k);
    const auto t = measured_nanoseconds((*times)[k], pointer_child(r.child("response_timestamps"), at), r.issues());
    const auto text = has_text((*outputs)[k], pointer_child(r.child("response_outputs"), at), run, r.issues());
    if (!t || !text) return std::nullopt;
    if (*text) kept.push_back(*t);
  }
  return kept;
}

std::optional<Timed> read_request(ObjectReader& r, const Run& run) {
  const json* ts = r.get("timestamp", true);
  const json* inputs = r.get("request_inputs", true);
  const auto sent = measured_nanoseconds(ts != nullptr ? *ts : nothing(), r.child("timestamp"), r.issues());
  const auto times = text_times(r, run);
  if (ts == nullptr || !sent || !times || inputs == nullptr) return std::nullopt;
  Timed t;
  t.sent_ns = *sent;
  if (times->empty()) return t;
  const std::string body_path = inputs->contains("payload") ? pointer_child(r.child("request_inputs"), "payload")
                                                            : r.child("request_inputs");
  const auto payload = payload_of(*inputs, r.child("request_inputs"), r.issues());
  const auto input = payload ? input_length(*payload, body_path, run, r.issues()) : std::nullopt;
  const auto output = input ? output_length(*payload, body_path, r.issues()) : std::nullopt;
  if (!output) return std::nullopt;
  if (static_cast<std::size_t>(*output) < times->size() || times->front() < t.sent_ns) {
    r.issues().add(r.child("response_timestamps"),
                   "more responses with text than output tokens, or one before the send");
    return std::nullopt;
  }
  t.answered = true;
  t.last_ns = times->back();
  t.m = MeasuredRequest{*input, *output, 1e-9 * static_cast<double>(times->front() - t.sent_ns),
                        1e-9 * static_cast<double>(times->back() - t.sent_ns), std::nullopt};
  return t;
}

Run read_run(const json& root, const ResultSettings& settings) {
  Run run;
  run.openai = !(root.contains("service_kind") && root["service_kind"] == "triton");
  const std::string beside = settings.document.empty() ? "STEM_genai_perf.json" : settings.document;
  run.settings_note = settings.value.is_null() ? "there is no " + beside + " beside it to fix every prompt's length"
                                               : beside + " does not fix every prompt's length";
  if (settings.value.is_null()) return run;
  IssueList issues;
  ObjectReader file(settings.value, "", issues);
  const json* config = file.valid() ? file.get("input_config", true) : nullptr;
  ObjectReader c(config != nullptr ? *config : nothing(), "/input_config", issues);
  if (c.valid()) {
    const json* input_file = c.get("input_file");
    const auto stddev = c.number("synthetic_input_tokens_stddev", 0.0, 1e9);
    const auto mean = c.count("synthetic_input_tokens_mean", 1, 100'000'000);
    if ((input_file == nullptr || input_file->is_null()) && stddev == 0.0 && mean) run.synthetic_input = mean;
  }
  issues.throw_if_any(settings.document);
  return run;
}

void read_client(ObjectReader& experiment, BenchmarkResult& out) {
  const json* e = experiment.get("experiment", true);
  ObjectReader mode(e != nullptr ? *e : nothing(), experiment.child("experiment"), experiment.issues());
  if (!mode.valid()) return;
  const auto name = mode.string("mode", true);
  if (name == "concurrency") {
    out.max_concurrency = mode.count("value", 1, 10'000'000, true);
  } else if (name == "request_rate") {
    out.request_rate = mode.number("value", 0.0, 1e12, true, true);
  }
  out.client_source = fmt::format("the experiment's mode {}", name.value_or("?"));
}

void summarize(std::vector<Timed>& timed, std::size_t all, BenchmarkResult& out) {
  std::int64_t first = std::numeric_limits<std::int64_t>::max();
  std::int64_t last = 0;
  for (const Timed& t : timed) {
    first = std::min(first, t.sent_ns);
    last = std::max(last, t.last_ns);
  }
  for (Timed& t : timed) {
    t.m.sent_s = 1e-9 * static_cast<double>(t.sent_ns - first);
    out.requests.push_back(t.m);
  }
  out.duration_s = 1e-9 * static_cast<double>(last - first);
  out.request_throughput = out.duration_s > 0.0 ? static_cast<double>(all) / out.duration_s : 0.0;
}

}  // namespace

BenchmarkResult genai_perf_result_from_json(const json& value, const std::string& document,
                                            const ResultSettings& settings) {
  const Run run = read_run(value, settings);
  IssueList issues;
  BenchmarkResult out;
  out.tool = "genai-perf";
  const json& experiments = value["experiments"];
  if (!experiments.is_array() || experiments.size() != 1) {
    issues.add("/experiments", "expected one experiment (genai-perf writes one per profile run)");
  }
  ObjectReader e(issues.empty() ? experiments[0] : nothing(), "/experiments/0", issues);
  const json* requests = e.valid() ? e.get("requests", true) : nullptr;
  if (requests != nullptr && !requests->is_array()) issues.add(e.child("requests"), "expected an array of requests");
  std::vector<Timed> timed;
  if (issues.empty() && requests != nullptr) {
    read_client(e, out);
    for (std::size_t i = 0; i < requests->size() && issues.empty(); ++i) {
      ObjectReader r((*requests)[i], pointer_child(e.child("requests"), std::to_string(i)), issues);
      const auto t = r.valid() ? read_request(r, run) : std::nullopt;
      if (t && !t->answered) ++out.failed;
      if (t && t->answered) timed.push_back(*t);
    }
    if (issues.empty() && timed.empty()) issues.add(e.child("requests"), "no request has a response with text");
  }
  issues.throw_if_any(document);
  summarize(timed, timed.size() + out.failed, out);
  return out;
}

}  // namespace lynxsim::store
