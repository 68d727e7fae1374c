#pragma once
// Throughput benchmark of the flow-level network.
//
// A k-ary fat-tree (k = 16: 1024 hosts, all links 100 Gb/s) carries flows between uniformly random
// host pairs (src != dst) with sizes uniform in [1 MB, 64 MB]. `concurrent` flows start at time zero;
// each completion starts a new flow until `arrivals` flows have been started in total, so the number
// of concurrent flows stays at `concurrent` until the tail. Reported: the settings, the mean flow
// completion time (finished_at - started_at), wall time and CPU time of the running thread (the CPU
// time is the figure to compare on a loaded machine), simulator events per second, rate
// recomputations and their mean wall time, and the mean size of the re-filled flow set (how local
// the recomputations were: flows re-filled by the exact FlowSolver, link levels recomputed by
// LevelRelaxation) and the mean number of rates changed per recomputation.
//
// rate_tolerance and rate_quantum are the network's (FlowNetwork::set_rate_tolerance and
// set_rate_quantum). The defaults, tolerance 1e-2 and no quantum, run LevelRelaxation at every
// change: event times are not moved; rates lie within a few 1e-2 of the exact max-min rates, links
// are oversubscribed by at most about 1 % of capacity, and bytes are conserved exactly. Completion
// times against the exact solver, measured by scripts/solver_accuracy.py over flow lists of this
// benchmark's flows (k=8 fat-tree, 5,000 and 10,000 flows started at once or over 0.5 s; k=16,
// 20,000 flows over 40 ms): at 1e-2 worst 7.4 %, mean at most 0.16 %; at 1e-3 worst 0.42 %, mean
// at most 0.018 %. The worst case is a burst of 10,000 flows on the k=8 fat-tree. 100,000 arrivals, CPU seconds on the
// 2.8 GHz Xeon development machine (mean completion time in ms):
//   tolerance  quantum 0       1 us            10 us           50 us           100 us
//   1e-3       22.5 (33.412)   22.0 (33.412)   19.1 (33.416)   12.2 (33.434)   9.0 (33.455)
//   1e-2        6.3 (33.412)                    6.6 (33.416)    6.7 (33.434)
// At 1e-3 only a quantum of 100 us gets under 10 s, and it
// delays every change by up to 100 us: 0.13 % on the mean, up to a tenth for a 1 MB flow of about
// a millisecond. A quantum pays only once it batches tens of changes (one change every ~2 us here);
// at 1e-2 the repairs are so small that batching saves nothing. Below 1e-6 runs the exact
// FlowSolver (at 1e-12, see flow_solver.hpp), which in this dense network re-fills hundreds of
// flows per change.

#include <cstdint>
#include <string>

#include "sim/core/time.hpp"

namespace lynxsim::net {

struct NetworkBenchConfig {
  int fat_tree_k = 16;
  std::uint64_t concurrent = 10'000;
  std::uint64_t arrivals = 100'000;
  std::uint64_t seed = 1;
  double rate_tolerance = 1e-2;
  Time rate_quantum = Time::zero();
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
  double mean_link_updates = 0.0;
  double mean_flows_changed = 0.0;
  double simulated_seconds = 0.0;
  double mean_fct_ms = 0.0;  // mean of finished_at - started_at over the finished flows
  bool bytes_conserved = false;
};

NetworkBenchResult run_network_bench(const NetworkBenchConfig& config);
std::string format_network_bench(const NetworkBenchResult& result);

}  // namespace lynxsim::net
