// parse_network and the trace CSV loader (see topology_json.hpp).

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <sstream>

#include "sim/scenario/input_file.hpp"
#include "sim/scenario/input_limits.hpp"
#include "sim/core/unit_parse.hpp"
#include "sim/net/reachability.hpp"
#include "sim/scenario/json_fields.hpp"
#include "sim/scenario/net_table_reader.hpp"
#include "sim/scenario/topology_json.hpp"

namespace lynxsim::scenario {

using namespace net;
namespace {

using json = nlohmann::json;

std::string header_unit(const std::string& column) {
  const auto us = column.rfind('_');
  return us == std::string::npos ? std::string() : column.substr(us + 1);
}

std::optional<TracePoint> read_point(const json& e, const std::string& p, IssueList& issues) {
  if (!e.is_array() || e.size() != 2 || !e[0].is_string() || !e[1].is_string()) {
    issues.add(p, fmt::format("expected a [\"time\", \"rate\"] pair of strings with units, got {}",
                              describe_value(e)));
    return std::nullopt;
  }
  try {
    return TracePoint{parse_time(e[0].get<std::string>()), parse_bit_rate(e[1].get<std::string>())};
  } catch (const std::exception& x) {
    issues.add(p, x.what());
  }
  return std::nullopt;
}

std::vector<TracePoint> read_points(ObjectReader& r, json& res) {
  std::vector<TracePoint> out;
  const json* pts = r.get("points");
  const std::string p = r.child("points");
  if (!pts->is_array() || pts->empty()) {
    r.issues().add(p, "expected a non-empty array of [time, rate] pairs");
    return out;
  }
  for (std::size_t i = 0; i < pts->size(); ++i) {
    if (const auto point = read_point((*pts)[i], pointer_child(p, std::to_string(i)), r.issues())) {
      out.push_back(*point);
    }
  }
  res["points"] = *pts;
  return out;
}

BandwidthTraceSpec read_trace(ObjectReader& r, json& res, const std::string& base_dir) {
  const FieldSection& F = field_section("bandwidth-trace");
  BandwidthTraceSpec t;
  t.link = r.string(F["link"]).value_or("");
  t.repeat = r.boolean(F["repeat"]).value_or(false);
  const bool points = r.get("points") != nullptr;
  const auto csv = r.string(F["csv"]);
  if (points == (r.get("csv") != nullptr)) {
    r.issues().add(r.path(), "give exactly one of \"points\" and \"csv\"");
  } else if (points) {
    t.points = read_points(r, res);
  } else if (csv) {
    try {
      t.points = load_bandwidth_trace_csv((std::filesystem::path(base_dir) / *csv).string());
    } catch (const std::exception& e) {
      r.issues().add(r.child("csv"), e.what());
    }
  }
  if (!t.points.empty()) {
    if (const auto problem = bandwidth_trace_problem(t)) r.issues().add(r.path(), *problem);
  }
  return t;
}

LinkFaultSpec read_fault(ObjectReader& r, json&) {
  const FieldSection& F = field_section("link-fault");
  LinkFaultSpec f;
  f.link = r.string(F["link"]).value_or("");
  f.down_for = r.time(F["down_for"]).value_or(Time::zero());
  f.down_at = r.time(F["down_at"]).value_or(Time::zero());
  f.every = r.time(F["every"]);
  f.count = r.count(F["count"]).value_or(1);
  f.failures_per_s = r.number(F["failures_per_s"]).value_or(0.0);
  f.until = r.time(F["until"]).value_or(Time::zero());
  const bool random = f.failures_per_s > 0.0;
  if (random && (f.every || r.get("count") != nullptr)) {
    r.issues().add(r.path(), "give a flap (`every`, `count`) or random outages (`failures_per_s`), not both");
  } else if (random != (r.get("until") != nullptr)) {
    r.issues().add(r.child("until"), "goes with `failures_per_s`, and only with it");
  } else if (random && f.failures_per_s * (f.until - f.down_at).seconds() > kMaxFaultOutages) {
    r.issues().add(r.child("failures_per_s"),
                   fmt::format("more than {} outages expected before `until`", kMaxFaultOutages));
  } else if (f.down_for > Time::zero()) {
    if (const auto problem = link_fault_problem(f)) r.issues().add(r.path(), *problem);
  }
  return f;
}

BackgroundSpec read_background(ObjectReader& r, json&) {
  const FieldSection& F = field_section("background");
  BackgroundSpec b;
  b.src = r.string(F["src"]).value_or("");
  b.dst = r.string(F["dst"]).value_or("");
  b.rate = r.bit_rate(F["rate"]).value_or(BitsPerSecond{1.0});
  b.on_time = r.time(F["on_time"]);
  b.off_time = r.time(F["off_time"]).value_or(Time::zero());
  b.exponential = r.boolean(F["exponential"]).value_or(false);
  b.start_at = r.time(F["start_at"]).value_or(Time::zero());
  b.stop_at = r.time(F["stop_at"]).value_or(b.start_at + Time::from_ps(1));
  b.priority_class = r.count(F["priority_class"]).value_or(kBackgroundClass);
  b.label = r.string(F["label"]).value_or("background");
  if (b.stop_at <= b.start_at) r.issues().add(r.child("stop_at"), "must be after start_at");
  return b;
}

std::vector<double> read_weights(ObjectReader& r, int classes, json& res) {
  std::vector<double> weights;
  const json* w = r.get("weights");
  if (w == nullptr) return weights;
  const std::string p = r.child("weights");
  if (!w->is_array() || w->empty()) r.issues().add(p, "expected a non-empty array");
  for (std::size_t i = 0; w->is_array() && i < w->size(); ++i) {
    if (!(*w)[i].is_number() || !((*w)[i].get<double>() >= kMinWeight && (*w)[i].get<double>() <= kMaxWeight)) {
      r.issues().add(pointer_child(p, std::to_string(i)),
                     fmt::format("expected a number in [1e-06, 1000000], got {}", describe_value((*w)[i])));
    } else {
      weights.push_back((*w)[i].get<double>());
    }
  }
  if (w->is_array() && w->size() > static_cast<std::size_t>(classes)) r.issues().add(p, "more weights than classes");
  res["weights"] = *w;
  return weights;
}

SchedulingSpec read_scheduling(ObjectReader& parent, json& resolved) {
  static const json kEmpty = json::object();
  const FieldSection& F = field_section("scheduling");
  const json* v = parent.get(field_section("network")["scheduling"].key);
  ObjectReader r(v != nullptr ? *v : kEmpty, parent.child("scheduling"), parent.issues());
  json res = json::object();
  r.resolve_into(res);
  SchedulingSpec s;
  if (const auto name = r.string(F["policy"])) {
    const auto policy = scheduling_policy_from(*name);
    if (!policy) field_table_mismatch(F["policy"], *name);
    s.policy = *policy;
  }
  s.classes = r.count(F["classes"]).value_or(s.classes);
  s.weights = read_weights(r, s.classes, res);
  s.max_wait = r.time(F["max_wait"]).value_or(s.max_wait);
  r.finish();
  if (v != nullptr) keep_written(*v, res);
  resolved["scheduling"] = std::move(res);
  return s;
}

std::optional<TransferEngineSpec> read_transfer_engine(ObjectReader& parent, json& resolved) {
  const json* v = parent.get(field_section("network")["transfer_engine"].key);
  if (v == nullptr) return std::nullopt;
  const FieldSection& F = field_section("transfer-engine");
  ObjectReader r(*v, parent.child("transfer_engine"), parent.issues());
  json res = json::object();
  r.resolve_into(res);
  TransferEngineSpec e;
  e.descriptor_size = r.bytes(F["descriptor_size"]).value_or(Bytes{1});
  e.descriptors_in_flight = r.integer(F["descriptors_in_flight"]).value_or(1);
  e.descriptor_cost = r.time(F["descriptor_cost"]).value_or(Time::from_us(1));
  if (const auto rate = r.bit_rate(F["descriptor_rate"])) e.descriptor_rate = rate->to_bytes();
  r.finish();
  keep_written(*v, res);
  resolved["transfer_engine"] = std::move(res);
  return e;
}

// The array under parent's key f, each item read by read_one(ObjectReader&, json& resolved item).
template <class T, class F>
std::vector<T> read_items(ObjectReader& parent, const Field& f, json& resolved, F&& read_one) {
  std::vector<T> out;
  const json* a = parent.get(f.key);
  if (a == nullptr) return out;
  if (!a->is_array()) {
    parent.issues().add(parent.child(f.key), fmt::format("expected an array, got {}", describe_value(*a)));
    return out;
  }
  json items = json::array();
  for (std::size_t i = 0; i < a->size(); ++i) {
    ObjectReader r((*a)[i], pointer_child(parent.child(f.key), std::to_string(i)), parent.issues());
    json res = json::object();
    r.resolve_into(res);
    T item = read_one(r, res);
    r.finish();
    keep_written((*a)[i], res);
    items.push_back(std::move(res));
    out.push_back(std::move(item));
  }
  resolved[std::string(f.key)] = std::move(items);
  return out;
}

// Whether the spec names hosts or links that check_names must find in the topology (building a
// generated topology of 2^20 hosts takes seconds and a gigabyte, so it is built only then).
bool names_to_check(const NetworkSpec& s) {
  const bool pools = std::any_of(s.pool_hosts.begin(), s.pool_hosts.end(), [](const auto& p) { return !p.empty(); });
  return pools || !s.background.empty() || !s.traces.empty() || !s.faults.empty();
}

// A background sender needs two distinct hosts joined by a route (a sender to itself would send
// flows that take no time, for ever).
void check_background_routes(IssueList& issues, const Topology& t, const NetworkSpec& s,
                             const std::string& p) {
  if (s.background.empty()) return;
  const Reachability reach(t);
  for (std::size_t i = 0; i < s.background.size(); ++i) {
    const BackgroundSpec& b = s.background[i];
    const std::string path = pointer_child(pointer_child(pointer_child(p, "background"), std::to_string(i)), "dst");
    const HostId src = t.host_by_name(b.src);
    const HostId dst = t.host_by_name(b.dst);
    if (src == dst) {
      issues.add(path, fmt::format("the sender's own host \"{}\"; a background sender needs two distinct hosts", b.dst));
    } else if (!reach.reaches(src, dst)) {
      issues.add(path, fmt::format("no route from host \"{}\" to host \"{}\" in the network's links", b.src, b.dst));
    }
  }
}

void check_names(IssueList& issues, const Topology& t, const NetworkSpec& s, const std::string& p) {
  const auto check_host = [&](const std::string& name, const std::string& path) {
    try {
      t.host_by_name(name);
    } catch (const std::invalid_argument& e) {
      issues.add(path, e.what());
    }
  };
  const char* pool_keys[] = {"prefill_hosts", "decode_hosts"};
  for (std::size_t pool = 0; pool < s.pool_hosts.size(); ++pool) {
    for (std::size_t i = 0; i < s.pool_hosts[pool].size(); ++i) {
      check_host(s.pool_hosts[pool][i], pointer_child(pointer_child(p, pool_keys[pool]), std::to_string(i)));
    }
  }
  for (std::size_t i = 0; i < s.background.size(); ++i) {
    const std::string bp = pointer_child(pointer_child(p, "background"), std::to_string(i));
    check_host(s.background[i].src, pointer_child(bp, "src"));
    check_host(s.background[i].dst, pointer_child(bp, "dst"));
  }
  for (std::size_t i = 0; i < s.traces.size(); ++i) {
    try {
      t.links_by_name(s.traces[i].link);
    } catch (const std::invalid_argument& e) {
      issues.add(pointer_child(pointer_child(pointer_child(p, "traces"), std::to_string(i)), "link"), e.what());
    }
  }
  for (std::size_t i = 0; i < s.faults.size(); ++i) {
    const std::string where = pointer_child(pointer_child(pointer_child(p, "faults"), std::to_string(i)), "link");
    try {
      t.links_by_name(s.faults[i].link);
    } catch (const std::invalid_argument& e) {
      issues.add(where, e.what());
    }
    for (const BandwidthTraceSpec& trace : s.traces) {
      if (trace.link == s.faults[i].link) issues.add(where, "the link has a bandwidth trace, which sets its rate too");
    }
  }
}

void read_network_fields(ObjectReader& r, NetworkSpec& s, json& res, const std::string& base_dir) {
  const FieldSection& F = field_section("network");
  (void)r.string(F["preset"]);
  s.setup_time = r.time(F["setup_time"]).value_or(Time::zero());
  s.pool_hosts = {read_host_names(r, F["prefill_hosts"], res).value_or(std::vector<std::string>{}),
                  read_host_names(r, F["decode_hosts"], res).value_or(std::vector<std::string>{})};
  s.traces = read_items<BandwidthTraceSpec>(r, F["traces"], res, [&](ObjectReader& ir, json& ires) {
    return read_trace(ir, ires, base_dir);
  });
  s.background = read_items<BackgroundSpec>(r, F["background"], res, read_background);
  s.faults = read_items<LinkFaultSpec>(r, F["faults"], res, read_fault);
  s.rate_tolerance = r.number(F["rate_tolerance"]).value_or(s.rate_tolerance);
  s.rate_quantum = r.time(F["rate_quantum"]).value_or(Time::zero());
  s.scheduling = read_scheduling(r, res);
  s.transfer_engine = read_transfer_engine(r, res);
}

}  // namespace

NetworkSpec parse_network(const json& j, const std::string& p, const std::string& base_dir,
                          const TopologyLimits& limits, json* resolved) {
  IssueList issues;
  ObjectReader r(j, p, issues);
  json res = json::object();
  r.resolve_into(res);
  NetworkSpec s;
  if (const json* topology = r.get(field_section("network")["topology"].key, true)) {
    try {
      json topology_res;
      s.topology = parse_topology(*topology, pointer_child(p, "topology"), limits, &topology_res);
      res["topology"] = std::move(topology_res);
    } catch (const NetConfigError& e) {
      for (const auto& issue : e.issues()) issues.add(issue.json_path, issue.message);
    }
  }
  read_network_fields(r, s, res, base_dir);
  r.finish();
  if (issues.empty() && names_to_check(s)) {
    const Topology topology = build_topology(s.topology);
    check_names(issues, topology, s, p);
    if (issues.empty()) check_background_routes(issues, topology, s, p);
  }
  if (!issues.empty()) throw NetConfigError(issues.items());
  keep_written(j, res);
  if (resolved != nullptr) *resolved = std::move(res);
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
