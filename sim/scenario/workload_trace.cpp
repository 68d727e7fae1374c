#include "sim/scenario/workload_trace.hpp"

#include <algorithm>
#include <charconv>
#include <fmt/format.h>
#include <sstream>
#include <nlohmann/json.hpp>

#include "sim/scenario/input_file.hpp"

namespace lynxsim::scenario {

using serving::RequestSpec;
namespace {

struct Record {
  double t_s = 0.0;
  RequestSpec spec;
};

class LineError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

template <class T>
std::optional<T> parse_number(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\r')) text.remove_suffix(1);
  T v{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

int length_field(std::string_view text, std::string_view name) {
  const auto v = parse_number<std::int64_t>(text);
  if (!v || *v < 1 || *v > INT32_MAX) {
    throw LineError(fmt::format("{} must be an integer >= 1, got \"{}\"", name, text));
  }
  return static_cast<int>(*v);
}

std::vector<std::string_view> split_csv(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = line.find(',', start);
    fields.push_back(line.substr(start, comma == std::string_view::npos ? comma : comma - start));
    if (comma == std::string_view::npos) return fields;
    start = comma + 1;
  }
}

int json_length(const nlohmann::json& line, const char* key) {
  const auto it = line.find(key);
  if (it == line.end() || !it->is_number_integer() || it->get<std::int64_t>() < 1 ||
      it->get<std::int64_t>() > INT32_MAX) {
    throw LineError(fmt::format("\"{}\" must be an integer >= 1", key));
  }
  return static_cast<int>(it->get<std::int64_t>());
}

Record mooncake_record(std::string_view text, bool keep_hashes) {
  nlohmann::json line;
  try {
    line = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw LineError(fmt::format("not a JSON object ({})", e.what()));
  }
  if (!line.is_object()) throw LineError("expected a JSON object");
  const auto ts = line.find("timestamp");
  if (ts == line.end() || !ts->is_number() || ts->get<double>() < 0.0) {
    throw LineError("\"timestamp\" must be a number >= 0 (milliseconds)");
  }
  Record r{ts->get<double>() * 1e-3, {}};
  r.spec.context_tokens = json_length(line, "input_length");
  r.spec.output_tokens = json_length(line, "output_length");
  const auto hashes = line.find("hash_ids");
  if (hashes == line.end()) return r;
  if (!hashes->is_array()) throw LineError("\"hash_ids\" must be an array of block ids");
  for (const auto& h : *hashes) {
    if (!h.is_number_unsigned() || h.get<std::uint64_t>() > UINT32_MAX) {
      throw LineError("\"hash_ids\" must hold integers in [0, 2^32)");
    }
    if (keep_hashes) r.spec.hash_ids.push_back(h.get<std::uint32_t>());
  }
  return r;
}

struct CsvColumns {
  std::size_t time = 0;
  std::size_t context = 1;
  std::size_t output = 2;
  std::size_t count = 3;
};

CsvColumns csv_columns(std::string_view header, TraceFormat format) {
  std::vector<std::string_view> names = split_csv(header);
  for (auto& n : names) {
    while (!n.empty() && (n.front() == ' ' || n.front() == '"')) n.remove_prefix(1);
    while (!n.empty() && (n.back() == ' ' || n.back() == '"' || n.back() == '\r')) n.remove_suffix(1);
  }
  const auto find = [&names](std::string_view want) {
    const auto it = std::find(names.begin(), names.end(), want);
    if (it == names.end()) throw LineError(fmt::format("the header has no column \"{}\"", want));
    return static_cast<std::size_t>(it - names.begin());
  };
  CsvColumns c;
  c.count = names.size();
  if (format == TraceFormat::azure) {
    c = {find("TIMESTAMP"), find("ContextTokens"), find("GeneratedTokens"), names.size()};
  } else {
    c = {find("arrived_at"), find("num_prefill_tokens"), find("num_decode_tokens"), names.size()};
  }
  return c;
}

Record csv_record(std::string_view text, const CsvColumns& c, TraceFormat format) {
  const auto fields = split_csv(text);
  if (fields.size() != c.count) {
    throw LineError(fmt::format("expected {} fields, got {}", c.count, fields.size()));
  }
  Record r;
  const std::string_view time = fields[c.time];
  const auto t = format == TraceFormat::azure ? parse_wall_clock_seconds(time)
                                              : parse_number<double>(time);
  if (!t || (format == TraceFormat::splitwise && *t < 0.0)) {
    throw LineError(fmt::format("bad arrival time \"{}\"", time));
  }
  r.t_s = *t;
  r.spec.context_tokens = length_field(fields[c.context], "the context length");
  r.spec.output_tokens = length_field(fields[c.output], "the output length");
  return r;
}

std::vector<Record> read_records(const std::filesystem::path& file, TraceFormat format,
                                 const TraceOptions& options) {
  std::istringstream in;
  try {
    in.str(read_input_file(file, kMaxTraceFileBytes));
  } catch (const InputFileError& e) {
    throw TraceError(e.what());
  }
  std::vector<Record> records;
  std::string line;
  CsvColumns columns;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line == "\r") continue;
    try {
      if (format == TraceFormat::mooncake) {
        records.push_back(mooncake_record(line, options.keep_hash_ids));
      } else if (number == 1) {
        columns = csv_columns(line, format);
      } else {
        records.push_back(csv_record(line, columns, format));
      }
    } catch (const LineError& e) {
      throw TraceError(fmt::format("{}:{}: {}", file.string(), number, e.what()));
    }
  }
  return records;
}

Time repeat_span(const std::vector<RequestSpec>& requests, const TraceOptions& options) {
  if (options.window_end) {
    return Time::from_seconds((options.window_end->seconds() - options.window_start.seconds()) *
                              options.time_scale);
  }
  const Time first = requests.front().arrival_at;
  const Time last = requests.back().arrival_at;
  const double gap = (last - first).seconds() / static_cast<double>(requests.size() - 1);
  return last + Time::from_seconds(gap);
}

void repeat_window(std::vector<RequestSpec>& requests, const TraceOptions& options) {
  if (options.repeat <= 1) return;
  const auto copies = static_cast<std::int64_t>(options.repeat);
  const auto count = static_cast<std::int64_t>(requests.size());
  if (!options.window_end && count < 2) {
    throw TraceError("repeating a trace of fewer than 2 requests needs a window_end");
  }
  if (count > options.max_total_requests / copies) {
    throw TraceError(fmt::format("repeat {} x {} requests exceeds the limit of {} requests",
                                 copies, count, options.max_total_requests));
  }
  const Time span = repeat_span(requests, options);
  requests.reserve(static_cast<std::size_t>(count * copies));
  for (std::int64_t k = 1; k < copies; ++k) {
    for (std::int64_t i = 0; i < count; ++i) {
      RequestSpec copy = requests[static_cast<std::size_t>(i)];
      copy.arrival_at = copy.arrival_at + span * k;
      requests.push_back(std::move(copy));
    }
  }
}

}  // namespace

std::vector<RequestSpec> read_trace(const std::filesystem::path& file, TraceFormat format,
                                    const TraceOptions& options) {
  if (!(options.time_scale > 0.0)) throw std::invalid_argument("trace time_scale must be > 0");
  std::vector<Record> records = read_records(file, format, options);
  const double origin = format == TraceFormat::azure && !records.empty() ? records.front().t_s : 0.0;
  std::vector<RequestSpec> out;
  for (Record& r : records) {
    const double t = r.t_s - origin;
    if (t < options.window_start.seconds()) continue;
    if (options.window_end && t >= options.window_end->seconds()) continue;
    if (options.max_requests && static_cast<int>(out.size()) >= *options.max_requests) break;
    r.spec.arrival_at = Time::from_seconds((t - options.window_start.seconds()) * options.time_scale);
    out.push_back(std::move(r.spec));
  }
  std::stable_sort(out.begin(), out.end(), [](const RequestSpec& a, const RequestSpec& b) {
    return a.arrival_at < b.arrival_at;
  });
  repeat_window(out, options);
  return out;
}

}  // namespace lynxsim::scenario
