#pragma once
// The cross-node part of a prefill instance's expert all-to-all as flows on the network.
//
// An instance whose expert-parallel group spans more than one node (expert_parallel > node_gpus)
// and whose ranks sit on distinct hosts of the network sends the bytes its MoE layers' dispatch and
// combine move between nodes as flows, so that they share the ranks' NICs and the fabric with the
// KV transfers (a prefill NIC carries the all-to-all of the prompt being prefilled and the KV of
// the prompts before it). Rank r is on node floor(r / node_gpus); the in-node part stays on the
// scale-up link in closed form (expert_parallel.hpp).
//
// Aggregation: one exchange per group of layers_per_flow layers (a KV piece's layers under
// layer-wise streaming; the same groups under after-prefill streaming). The group's compute (the
// timing model's layers with the all-to-all's latency terms only) runs first; then the exchange
// starts one flow per ordered pair of ranks on different nodes, carrying
//   bytes = count * pair_bytes   (pair_bytes: dispatch + combine of one layer averaged over the
//                                 layers, imbalance included; TimingModel::expert_traffic)
// with no setup cost (DeepEP registers its buffers once), in priority class 0 with the order key
// of the pass's first request (KV flows carry their request's id as key): the all-to-all is that
// request's work, so under the default request_order scheduling the KV of earlier requests goes
// first where they meet, under strict (and with bf16 KV, fair) it shares max-min with the anchor
// planes, ahead of residual planes; and a timer of count * in_node seconds for the
// scale-up part; the group ends when both are done:
//   group = count * (layer_without_a2a_bandwidth + encode) + max(count * in_node, flows)
// On an idle non-blocking fabric with host-link efficiency kScaleOutEfficiency and rate
// nic_bandwidth, each rank's NIC carries its R - G' flows each way at an equal share, so the flows
// take the closed form's cross-node time plus one path latency (the only difference from
// the closed form, per group). With EP16 on two nodes of 8 and one layer per piece, a pass starts
// 61 x 128 = 7,808 flows.
// Units: bytes, Time.

#include <cstdint>
#include <functional>
#include <vector>

#include "sim/core/simulator.hpp"
#include "sim/net/network.hpp"

namespace lynxsim::serving {

class ExpertExchange {
public:
  ExpertExchange(Simulator& sim, net::Network& network, std::vector<net::HostId> hosts, int node_gpus);

  // Whether an instance on these rank hosts sends its cross-node all-to-all as flows: more than
  // one node of node_gpus ranks, every rank on its own host.
  static bool spans_hosts(const std::vector<net::HostId>& hosts, int expert_parallel, int node_gpus);

  // Sends pair_bytes between every ordered pair of ranks on different nodes (flows keyed
  // order_key), waits `in_node`, and runs `done` once both are over. One exchange at a time.
  void run(Bytes pair_bytes, Time in_node, std::int64_t order_key, std::function<void()> done);
  std::uint64_t flows_started() const { return flows_started_; }

private:
  void part_done();

  Simulator& sim_;
  net::Network& network_;
  std::vector<net::HostId> hosts_;
  int node_gpus_ = 1;
  int parts_left_ = 0;
  std::function<void()> done_;
  std::uint64_t flows_started_ = 0;
};

}  // namespace lynxsim::serving
