// `lynxsim flows FILE --network NETWORK [--out CSV] [--seed N]`: an explicit flow list through the
// flow network alone, printing each flow's completion time (see sim/net/flow_list.hpp for the file
// formats). NETWORK is a network JSON file or the name of a preset in configs/topologies/.

#include <filesystem>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/app/commands.hpp"
#include "sim/app/input_errors.hpp"
#include "sim/scenario/input_file.hpp"
#include "sim/core/printable.hpp"
#include "sim/net/flow_list_run.hpp"
#include "sim/report/atomic_write.hpp"
#include "sim/report/output_path.hpp"
#include "sim/scenario/flow_list_file.hpp"
#include "sim/scenario/topology_json.hpp"

namespace lynxsim::app {
namespace {

namespace fs = std::filesystem;

fs::path network_file(const DataPaths& data, const std::string& network) {
  if (network.ends_with(".json") || network.find('/') != std::string::npos) return network;
  const fs::path preset = data.topologies() / (network + ".json");
  if (!fs::is_regular_file(preset)) {
    throw InputError(fmt::format("--network: \"{}\" is neither a JSON file nor a preset in {}",
                                 network, data.topologies().string()));
  }
  return preset;
}

net::NetworkSpec load_network(const fs::path& file) {
  std::string text;
  try {
    text = scenario::read_input_file(file, scenario::kMaxConfigFileBytes);
  } catch (const scenario::InputFileError& e) {
    throw InputError(fmt::format("network {}", e.what()));
  }
  nlohmann::json network;
  try {
    network = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(fmt::format("{}: not valid JSON: {}", file.string(), e.what()));
  }
  try {
    return scenario::parse_network(network, "", file.parent_path().string());
  } catch (const scenario::NetConfigError& e) {
    throw InputError(fmt::format("{}: {}", file.string(), e.what()));
  }
}

std::string csv_of(const std::vector<net::FlowListResult>& results, const net::Topology& names) {
  std::string csv = "index,label,src,dst,size_B,class,start_s,finish_s,fct_s,hops\n";
  for (std::size_t i = 0; i < results.size(); ++i) {
    const net::FlowRecord& r = results[i].record;
    csv += fmt::format("{},{},{},{},{},{},{:.12f},{:.12f},{:.12f},{}\n", i, r.spec.label,
                       names.host_name(r.spec.src), names.host_name(r.spec.dst), r.spec.size.value,
                       r.spec.priority_class, r.started_at.seconds(), r.finished_at.seconds(),
                       (r.finished_at - r.started_at).seconds(), r.hops);
  }
  return csv;
}

void print_table(const std::vector<net::FlowListResult>& results, const net::Topology& names) {
  fmt::print("{:>6} {:<12} {:<18} {:<18} {:>14} {:>5} {:>16} {:>16} {:>16}\n", "index", "label",
             "src", "dst", "bytes", "class", "start_s", "finish_s", "fct_s");
  for (std::size_t i = 0; i < results.size(); ++i) {
    const net::FlowRecord& r = results[i].record;
    fmt::print("{:>6} {:<12} {:<18} {:<18} {:>14} {:>5} {:>16.12f} {:>16.12f} {:>16.12f}\n", i,
               terminal_text(r.spec.label), terminal_text(names.host_name(r.spec.src)),
               terminal_text(names.host_name(r.spec.dst)),
               r.spec.size.value, r.spec.priority_class, r.started_at.seconds(),
               r.finished_at.seconds(), (r.finished_at - r.started_at).seconds());
  }
}

}  // namespace

int cmd_flows(const DataPaths& data, const FlowsOptions& options) {
  if (options.out) report::check_output_file(*options.out, "--out", options.force);
  const auto flows = scenario::load_flow_list(options.file.string());
  const fs::path file = network_file(data, options.network);
  const net::NetworkSpec spec = load_network(file);
  const auto results = net::run_flow_list(spec, flows, options.seed, options.file.string());
  const net::Topology names = net::build_topology(spec.topology);
  print_table(results, names);
  if (options.out) report::write_file_atomic(*options.out, csv_of(results, names));
  return 0;
}

}  // namespace lynxsim::app
