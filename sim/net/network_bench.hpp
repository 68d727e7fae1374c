#pragma once
// Throughput benchmark of the flow-level network.
//
// A k-ary fat-tree (k = 16: 1024 hosts, all links 100 Gb/s) carries flows between uniformly random
// host pairs (src != dst) with sizes uniform in [1 MB, 64 MB]. `concurrent` flows start at time zero;
// each completion starts a new flow until `arrivals` flows have been started in total, so the number
// of concurrent flows stays at `concurrent` until the tail. Reported: wall time and CPU time of the
// running thread (the CPU time is the figure to compare on a loaded machine), simulator events per
// second, rate recomputations and their mean wall time, and the mean size of the re-filled flow set
// (how local the recomputations were). rate_tolerance is the solver's relative tolerance
// (FlowSolver::set_tolerance): 1e-9 is the exact allocation, a coarser value bounds how far one
// change spreads in this dense network (see flow_solver.hpp).

#include <cstdint>
#include <string>

namespace lynxsim::net {

struct NetworkBenchConfig {
  int fat_tree_k = 16;
  std::uint64_t concurrent = 10'000;
  std::uint64_t arrivals = 100'000;
  std::uint64_t seed = 1;
  double rate_tolerance = 1e-9;
};

struct NetworkBenchResult {
  NetworkBenchConfig config;
  std::uint64_t hosts = 0;
  std::uint64_t events = 0;
  std::uint64_t flows_finished = 0;
  double wall_seconds = 0.0;
  double cpu_seconds = 0.0;
  double events_per_second = 0.0;
  std::uint64_t recomputations = 0;
  double mean_recompute_us = 0.0;
  double mean_flows_per_fill = 0.0;
  double simulated_seconds = 0.0;
  bool bytes_conserved = false;
};

NetworkBenchResult run_network_bench(const NetworkBenchConfig& config);
std::string format_network_bench(const NetworkBenchResult& result);

}  // namespace lynxsim::net
