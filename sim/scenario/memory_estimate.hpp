#pragma once
// The peak memory of a run, estimated before it starts, so that `validate` and a run refuse what
// this machine cannot hold (--memory-limit) instead of running out of memory hours in.
//
// A linear model of the peak resident set size (RSS), fitted to the maximum RSS (/usr/bin/time -v,
// x86-64 Linux, glibc malloc, Release build) of runs that vary one size at a time, each coefficient
// rounded up (docs/scenario.md, "Memory"):
//   bytes = 32 MiB                          program, presets, timing caches
//         + requests x 768                  the workload (twice: scenario and run), the live state
//                                           of each request, its arrival and transfer pieces
//         + requests x methods x 288        one metrics record per request and method (results
//                                           stay in memory until the folder is written;
//                                           requests.csv is streamed)
//         + nodes x 256 + links x 960       the topology (names, indexes), the router's graph and
//                                           the flow solvers' per-link state (nodes are hosts and
//                                           switches, links are cables)
//         + min(flows, 1024) x (switches + 2) x 24
//                                           routes of the flows in flight (a route crosses a
//                                           switch at most once): long only in explicit graphs
//         + trace events x 160              events kept for trace.json (at most --trace-limit)
// Measured coefficients: 722 B per request, 271 B per request and method (100,000 and 200,000
// requests, 1 and 2 methods), 229 B per host, 892 B per link (leaf-spines of 2^18 to 2^20 hosts and
// 0.46M to 4.2M links), 146 B per trace event, 20 B per hop of a flow in flight (chains of 20,000 to
// 50,000 switches). A flow holds memory only while it runs; the route term assumes at most 1,024
// in flight on routes longer than a few hops. The accuracy measurement of
// a run adds accuracy/accuracy_memory.hpp's estimate; the application sums the two.

#include <cstdint>

#include "sim/scenario/resource_estimate.hpp"

namespace lynxsim::scenario {

inline constexpr std::int64_t kMemoryBaseBytes = std::int64_t{32} << 20;
inline constexpr std::int64_t kMemoryPerRequest = 768;
inline constexpr std::int64_t kMemoryPerRequestMethod = 288;
inline constexpr std::int64_t kMemoryPerNode = 256;
inline constexpr std::int64_t kMemoryPerLink = 960;
inline constexpr std::int64_t kMemoryPerTraceEvent = 160;
inline constexpr std::int64_t kMemoryRouteFlows = 1024;
inline constexpr std::int64_t kMemoryPerRouteHop = 24;

// The model above for a run of `methods` methods keeping up to `trace_events` trace events
// (0 without --trace); saturates at INT64_MAX.
std::int64_t run_memory_bytes(const ResourceEstimate& e, std::int64_t methods, std::int64_t trace_events);

}  // namespace lynxsim::scenario
