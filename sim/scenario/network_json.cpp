// parse_network and the trace CSV loader (see topology_json.hpp).

#include <filesystem>
#include <fmt/format.h>
#include <sstream>

#include "sim/core/input_file.hpp"
#include "sim/core/unit_parse.hpp"
#include "sim/scenario/net_json_reader.hpp"
#include "sim/scenario/topology_json.hpp"

namespace lynxsim::scenario {

using namespace net;
namespace {

using json = nlohmann::json;

std::string header_unit(const std::string& column) {
  const auto us = column.rfind('_');
  return us == std::string::npos ? std::string() : column.substr(us + 1);
}

std::vector<TracePoint> read_points(JsonReader& r, const json& pts, const std::string& p) {
  std::vector<TracePoint> out;
  if (!pts.is_array() || pts.empty()) {
    r.error(p, "expected a non-empty array of [time, rate] pairs");
    return out;
  }
  for (std::size_t i = 0; i < pts.size(); ++i) {
    const std::string ip = child(p, std::to_string(i));
    const json& e = pts[i];
    if (!e.is_array() || e.size() != 2) {
      r.error(ip, "expected a [\"time\", \"rate\"] pair");
      continue;
    }
    const json pair = {{"at", e[0]}, {"rate", e[1]}};
    const auto at = r.time(pair, ip, "at", true);
    const auto rate = r.rate(pair, ip, "rate", true);
    if (at && rate) out.push_back({*at, *rate});
  }
  return out;
}

BandwidthTraceSpec read_trace(JsonReader& r, const json& j, const std::string& p,
                              const std::string& base_dir) {
  BandwidthTraceSpec t;
  if (!r.object(j, p, {"link", "points", "csv", "repeat"})) return t;
  t.link = r.string(j, p, "link", true).value_or("");
  t.repeat = r.boolean(j, p, "repeat").value_or(false);
  if (j.contains("points") == j.contains("csv")) {
    r.error(p, "give exactly one of \"points\" and \"csv\"");
  } else if (j.contains("points")) {
    t.points = read_points(r, j.at("points"), child(p, "points"));
  } else if (const auto csv = r.string(j, p, "csv", true)) {
    const auto path = std::filesystem::path(base_dir) / *csv;
    try {
      t.points = load_bandwidth_trace_csv(path.string());
    } catch (const std::exception& e) {
      r.error(child(p, "csv"), e.what());
    }
  }
  if (!t.points.empty()) {
    if (const auto problem = bandwidth_trace_problem(t)) r.error(p, *problem);
  }
  return t;
}

BackgroundSpec read_background(JsonReader& r, const json& j, const std::string& p) {
  BackgroundSpec b;
  if (!r.object(j, p, {"src", "dst", "rate", "on_time", "off_time", "exponential", "start_at",
                       "stop_at", "priority_class", "label"})) {
    return b;
  }
  b.src = r.string(j, p, "src", true).value_or("");
  b.dst = r.string(j, p, "dst", true).value_or("");
  b.rate = r.rate(j, p, "rate", true).value_or(BitsPerSecond{1.0});
  b.on_time = r.time(j, p, "on_time", false);
  b.off_time = r.time(j, p, "off_time", false).value_or(Time::zero());
  b.exponential = r.boolean(j, p, "exponential").value_or(false);
  b.start_at = r.time(j, p, "start_at", false).value_or(Time::zero());
  b.stop_at = r.time(j, p, "stop_at", true).value_or(b.start_at + Time::from_ps(1));
  b.priority_class = r.integer(j, p, "priority_class", false, 0).value_or(kBackgroundClass);
  b.label = r.string(j, p, "label", false).value_or("background");
  if (b.stop_at <= b.start_at) r.error(child(p, "stop_at"), "must be after start_at");
  if (b.on_time && *b.on_time <= Time::zero()) r.error(child(p, "on_time"), "must be positive");
  return b;
}

SchedulingSpec read_scheduling(JsonReader& r, const json& j, const std::string& p) {
  SchedulingSpec s;
  if (!r.object(j, p, {"policy", "classes", "weights", "max_wait"})) return s;
  if (const auto name = r.string(j, p, "policy", true)) {
    if (const auto policy = scheduling_policy_from(*name)) {
      s.policy = *policy;
    } else {
      r.error(child(p, "policy"), "unknown policy \"" + *name +
                                      "\" (strict, request_order, weighted, fair, aging)");
    }
  }
  s.classes = r.integer(j, p, "classes", false, 1).value_or(s.classes);
  if (s.classes > 8) r.error(child(p, "classes"), "must be in 1..8 (queues per switch port)");
  if (j.contains("weights")) {
    const json& w = j.at("weights");
    if (!w.is_array() || w.empty()) r.error(child(p, "weights"), "expected a non-empty array");
    for (std::size_t i = 0; w.is_array() && i < w.size(); ++i) {
      if (!w[i].is_number() || !(w[i].get<double>() > 0.0)) {
        r.error(child(child(p, "weights"), std::to_string(i)), "expected a positive number");
      } else {
        s.weights.push_back(w[i].get<double>());
      }
    }
    if (w.is_array() && w.size() > static_cast<std::size_t>(s.classes)) {
      r.error(child(p, "weights"), "more weights than classes");
    }
  }
  s.max_wait = r.time(j, p, "max_wait", false).value_or(s.max_wait);
  if (s.max_wait < Time::zero()) r.error(child(p, "max_wait"), "must not be negative");
  return s;
}

template <class T, class F>
std::vector<T> read_array(JsonReader& r, const json& j, const std::string& p, const char* key,
                          F&& read_one) {
  std::vector<T> out;
  if (!j.contains(key)) return out;
  const json& a = j.at(key);
  if (!a.is_array()) {
    r.error(child(p, key), "expected an array");
    return out;
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    out.push_back(read_one(a[i], child(child(p, key), std::to_string(i))));
  }
  return out;
}

void check_names(JsonReader& r, const Topology& t, const NetworkSpec& s, const std::string& p) {
  const auto check_host = [&](const std::string& name, const std::string& path) {
    try {
      t.host_by_name(name);
    } catch (const std::invalid_argument& e) {
      r.error(path, e.what());
    }
  };
  for (std::size_t i = 0; i < s.prefill_hosts.size(); ++i) {
    check_host(s.prefill_hosts[i], child(child(p, "prefill_hosts"), std::to_string(i)));
  }
  for (std::size_t i = 0; i < s.decode_hosts.size(); ++i) {
    check_host(s.decode_hosts[i], child(child(p, "decode_hosts"), std::to_string(i)));
  }
  for (std::size_t i = 0; i < s.background.size(); ++i) {
    const std::string bp = child(child(p, "background"), std::to_string(i));
    check_host(s.background[i].src, child(bp, "src"));
    check_host(s.background[i].dst, child(bp, "dst"));
  }
  for (std::size_t i = 0; i < s.traces.size(); ++i) {
    try {
      t.links_by_name(s.traces[i].link);
    } catch (const std::invalid_argument& e) {
      r.error(child(child(child(p, "traces"), std::to_string(i)), "link"), e.what());
    }
  }
}

}  // namespace

NetworkSpec parse_network(const json& j, const std::string& p, const std::string& base_dir,
                          const TopologyLimits& limits) {
  std::vector<ScenarioIssue> issues;
  JsonReader r(issues);
  NetworkSpec s;
  if (!r.object(j, p, {"topology", "setup_time", "prefill_hosts", "decode_hosts", "traces",
                       "background", "rate_tolerance", "rate_quantum", "scheduling"})) {
    throw NetConfigError(std::move(issues));
  }
  if (!j.contains("topology")) r.error(child(p, "topology"), "missing required key");
  try {
    if (j.contains("topology")) {
      s.topology = parse_topology(j.at("topology"), child(p, "topology"), limits);
    }
  } catch (const NetConfigError& e) {
    issues.insert(issues.end(), e.issues().begin(), e.issues().end());
  }
  s.setup_time = r.time(j, p, "setup_time", false).value_or(Time::zero());
  s.prefill_hosts = r.strings(j, p, "prefill_hosts", false).value_or(std::vector<std::string>{});
  s.decode_hosts = r.strings(j, p, "decode_hosts", false).value_or(std::vector<std::string>{});
  s.traces = read_array<BandwidthTraceSpec>(
      r, j, p, "traces", [&](const json& e, const std::string& ep) { return read_trace(r, e, ep, base_dir); });
  s.background = read_array<BackgroundSpec>(
      r, j, p, "background", [&](const json& e, const std::string& ep) { return read_background(r, e, ep); });
  s.rate_tolerance = r.number(j, p, "rate_tolerance", false).value_or(s.rate_tolerance);
  if (!(s.rate_tolerance >= 1e-12 && s.rate_tolerance <= 1e-2)) {
    r.error(child(p, "rate_tolerance"), "must be in [1e-12, 1e-2]");
  }
  s.rate_quantum = r.time(j, p, "rate_quantum", false).value_or(Time::zero());
  if (j.contains("scheduling")) s.scheduling = read_scheduling(r, j.at("scheduling"), child(p, "scheduling"));
  if (issues.empty()) check_names(r, build_topology(s.topology), s, p);
  if (!issues.empty()) throw NetConfigError(std::move(issues));
  return s;
}

std::vector<TracePoint> load_bandwidth_trace_csv(const std::string& path) {
  std::istringstream in;
  try {
    in.str(read_input_file(path, kMaxTraceFileBytes));
  } catch (const InputFileError& e) {
    throw std::invalid_argument(fmt::format("bandwidth trace {}", e.what()));
  }
  std::string line;
  std::getline(in, line);
  const auto comma = line.find(',');
  if (comma == std::string::npos) {
    throw std::invalid_argument(fmt::format("{}:1: expected a header \"time,rate\"", path));
  }
  const std::string time_unit = header_unit(line.substr(0, comma));
  const std::string rate_unit = header_unit(line.substr(comma + 1));
  std::vector<TracePoint> points;
  for (int number = 2; std::getline(in, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const auto c = line.find(',');
    try {
      if (c == std::string::npos) throw UnitError("expected two cells");
      const std::string t = line.substr(0, c);
      const std::string v = line.substr(c + 1);
      const auto with_unit = [](const std::string& cell, const std::string& unit) {
        return cell.find_first_of("abcdefghijklmnopqrstuvwxyzABCDFGHIJKLMNOPQRSTUVWXYZ/") ==
                       std::string::npos ? cell + unit : cell;
      };
      points.push_back({parse_time(with_unit(t, time_unit)), parse_bit_rate(with_unit(v, rate_unit))});
    } catch (const std::exception& e) {
      throw std::invalid_argument(fmt::format("{}:{}: {}", path, number, e.what()));
    }
  }
  if (points.empty()) throw std::invalid_argument(fmt::format("{}: no trace rows", path));
  return points;
}

}  // namespace lynxsim::scenario
