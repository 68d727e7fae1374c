// ns3_crosscheck: lynxsim's fluid flow model against ns-3 packets (tools/ns3_crosscheck/README.md).
//
//   ns3_crosscheck --flows FILE --network NETWORK.json [--transport dctcp|newreno|udp]
//                  [--seed N] [--out CSV [--force]] [--buffer-packets N] [--min-rto S]
//     runs FILE (the input of `lynxsim flows`) in both, prints each flow's FCT and ratio, writes
//     the ns-3 completion times as CSV in the form of `lynxsim flows --out`;
//   ns3_crosscheck --cases small|full [--check]
//     runs the built-in cases (crosscheck_cases.hpp) and prints one line per case and transport;
//     with --check, exits 1 when a case of the small set is outside its bound.
// Exit codes: 0 done (and within bounds), 1 a bound missed or a flow unfinished, 2 bad input.

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <fmt/format.h>
#include <ns3/nstime.h>

#include "sim/scenario/input_file.hpp"
#include "sim/report/atomic_write.hpp"
#include "sim/report/output_path.hpp"
#include "sim/scenario/flow_list_file.hpp"
#include "sim/scenario/topology_json.hpp"
#include "tools/ns3_crosscheck/crosscheck.hpp"
#include "tools/ns3_crosscheck/crosscheck_cases.hpp"

using namespace lynxsim;
using namespace lynxsim::ns3check;

namespace {

struct Options {
  std::string flows;
  std::string network;
  std::string transport = "dctcp";
  std::string out;
  std::string cases;
  bool force = false;
  bool check = false;
  std::uint64_t seed = 1;
  PacketParams params;
};

std::string line_of(const std::string& name, const Summary& s, const std::string& transport,
                    std::size_t flows, double cpu_s) {
  return fmt::format(
      "{:<18} {:<8} {:>5} {:>11.4f} {:>11.4f} {:>7.3f} {:>7.3f} {:>7.3f} {:>7.3f} {:>8.2f}{}", name,
      transport, flows, s.packet_mean_fct_s * 1e3, s.fluid_mean_fct_s * 1e3, s.mean_ratio(),
      s.min_ratio, s.max_ratio, s.span_ratio(), cpu_s,
      s.unfinished > 0 ? fmt::format("  {} unfinished", s.unfinished) : "");
}

void print_header() {
  std::printf("%-18s %-8s %5s %11s %11s %7s %7s %7s %7s %8s\n", "case", "transport", "flows",
              "ns3_fct_ms", "fluid_ms", "ratio", "min", "max", "span", "ns3_cpu_s");
}

int run_cases(const Options& o) {
  const auto cases = o.cases == "small" ? small_cases() : full_cases();
  print_header();
  bool ok = true;
  for (const auto& c : cases) {
    PacketParams params = o.params;
    params.transport = c.transport;
    const Comparison cmp = compare(c.network, c.flows, params, o.seed, c.name);
    const Summary s = summarize(cmp);
    const bool within =
        !c.bound || (s.unfinished == 0 && std::abs(s.mean_ratio() - 1.0) <= *c.bound);
    ok = ok && within;
    std::printf(
        "%s%s\n",
        line_of(c.name, s, transport_name(c.transport), c.flows.size(), cmp.packet_cpu_s).c_str(),
        c.bound ? fmt::format("  bound {:g}: {}", *c.bound, within ? "ok" : "MISSED").c_str() : "");
    std::fflush(stdout);
  }
  return o.check && !ok ? 1 : 0;
}

net::NetworkSpec load_network(const std::string& file) {
  const auto json =
      nlohmann::json::parse(scenario::read_input_file(file, scenario::kMaxConfigFileBytes));
  const auto slash = file.find_last_of('/');
  return scenario::parse_network(json, "",
                                 slash == std::string::npos ? "." : file.substr(0, slash));
}

void print_flows(const Comparison& c) {
  std::printf("%6s %14s %14s %14s %8s\n", "index", "bytes", "ns3_fct_s", "fluid_fct_s", "ratio");
  for (std::size_t i = 0; i < c.fluid.size(); ++i) {
    const auto& r = c.fluid[i].record;
    const double fluid = (r.finished_at - r.started_at).seconds();
    const double packet =
        c.packet_finish_s[i] < 0.0 ? -1.0 : c.packet_finish_s[i] - r.started_at.seconds();
    std::printf("%6zu %14lld %14.9f %14.9f %8.4f\n", i, static_cast<long long>(r.spec.size.value),
                packet, fluid, packet / fluid);
  }
}

int run_list(const Options& o) {
  net::NetworkSpec network;
  std::vector<net::FlowListEntry> flows;
  try {
    if (!o.out.empty()) report::check_output_file(o.out, "--out", o.force);
    flows = scenario::load_flow_list(o.flows);
    network = load_network(o.network);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ns3_crosscheck: %s\n", e.what());
    return 2;
  }
  if (const auto why = unsupported(network, flows)) {
    std::fprintf(stderr, "ns3_crosscheck: %s: ns-3 runs cannot reproduce %s\n", o.flows.c_str(),
                 why->c_str());
    return 2;
  }
  const Comparison c = compare(network, flows, o.params, o.seed, o.flows);
  print_flows(c);
  const Summary s = summarize(c);
  print_header();
  std::printf("%s\n",
              line_of(o.flows, s, transport_name(o.params.transport), flows.size(), c.packet_cpu_s)
                  .c_str());
  if (!o.out.empty()) {
    report::write_file_atomic(o.out, packet_csv(c, net::build_topology(network.topology)));
  }
  return s.unfinished > 0 ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  ns3::Time::SetResolution(ns3::Time::PS);
  CLI::App app{"lynxsim's fluid flow model against ns-3 packets"};
  Options o;
  auto* cases = app.add_option("--cases", o.cases, "built-in cases: small or full")
                    ->check(CLI::IsMember({"small", "full"}));
  auto* flows = app.add_option("--flows", o.flows, "flow list (JSON or CSV) of `lynxsim flows`")
                    ->excludes(cases);
  app.add_option("--network", o.network, "network JSON file")->needs(flows);
  flows->needs("--network");
  app.add_option("--transport", o.transport, "dctcp, newreno or udp")
      ->check(CLI::IsMember({"dctcp", "newreno", "udp"}));
  app.add_option("--out", o.out, "CSV of the ns-3 completion times")->needs(flows);
  app.add_flag("--force", o.force, "replace an existing --out file");
  app.add_flag("--check", o.check, "exit 1 when a case misses its bound")->needs(cases);
  app.add_option("--seed", o.seed, "seed of the fluid model's ECMP hash");
  app.add_option("--buffer-packets", o.params.buffer_packets, "per-port buffer of TCP runs")
      ->check(CLI::Range(10u, 1000000u));
  app.add_option("--min-rto", o.params.min_rto_s, "TCP minimum RTO, seconds")
      ->check(CLI::Range(1e-6, 10.0));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  if (o.cases.empty() && o.flows.empty()) {
    std::fprintf(stderr,
                 "ns3_crosscheck: give --cases small|full or --flows FILE --network FILE\n");
    return 2;
  }
  o.params.transport = transport_by_name(o.transport);
  return o.cases.empty() ? run_list(o) : run_cases(o);
}
