#pragma once
// What a scenario's run will build and create, estimated before anything runs, so that a scenario
// too large for memory or time is refused at validation (input_limits.hpp, docs/scenario.md
// "Limits") instead of failing or running for days.
//
// Instances and ranks per role sum count and count * tp over the groups. Network size is closed
// form (net/topology_size.hpp). KV flows are counted per method and request r of c_r context
// tokens, with L model layers, layer group g (layers_per_flow when streaming layer by layer, L after
// prefill), P planes of the method and prefill batch budget B:
//   pieces    ceil(L / g) per prefill pass; a chunked prompt spans ceil(c_r / B) passes, +1 when
//             its first chunk shares a pass (upper bound), one pass otherwise
//   rank pairs per piece and plane (serving/kv_head_map.hpp, n KV heads, TPs t_p and t_d):
//             at most min(t_p * t_d, max(n, t_d)), at least max(t_d, min(t_p, n))
//   flows     pieces * P * rank pairs; CacheGen sends ceil(c_r / chunk_tokens) chunks of one
//             flow per rank pair; a KV store (prefix cache or context loading) may add
//             (P + chunks) * (t_p + t_d) flows from the store (and make the lower bound 0)
//   background senders (periodic): ceil((stop - start) / (on + off)) flows, once per method
// The upper bound (flows_at_most) is what the limit checks; the lower bounds (flows_at_least,
// prefill_layer_passes: requests * L * passes, 0 with context loading, whose aggregated requests
// skip the prefill instance) are events every run certainly produces, which
// the application uses to refuse a trace that could not fit its limit. All counts saturate at
// INT64_MAX.

#include <cstdint>

#include "sim/net/topology_size.hpp"
#include "sim/scenario/scenario.hpp"

namespace lynxsim::scenario {

struct ResourceEstimate {
  net::TopologySize network;
  std::int64_t prefill_instances = 0;
  std::int64_t decode_instances = 0;
  std::int64_t prefill_ranks = 0;
  std::int64_t decode_ranks = 0;
  std::int64_t requests = 0;            // per method
  std::int64_t flows_at_most = 0;       // all methods: KV, prefix-cache and background flows
  std::int64_t flows_at_least = 0;      // all methods: KV flows
  std::int64_t prefill_layer_passes = 0;  // all methods, at least: request x layer x pass
};

ResourceEstimate estimate_resources(const Scenario& s);

// Adds an issue at the offending section for every estimate above its limit.
void check_resource_limits(const Scenario& s, IssueList& issues);

}  // namespace lynxsim::scenario
