#pragma once
// Transfer-engine costs: what a KV transfer engine (NIXL over UCX, Mooncake's transfer engine,
// an RDMA verbs loop) pays per descriptor on top of the wire.
//
// An engine moves a transfer as descriptors of `descriptor_size` bytes (the engines' unit: one
// page of block_tokens tokens of one layer and one head group, K and V apart, as vLLM's paged KV,
// NIXL and Mooncake lay them out; size = block_tokens x heads per rank x head_dim x bytes per
// element of the plane). Each descriptor costs a fixed `descriptor_cost` c (posting, doorbell,
// completion, the round trip of its acknowledgement) plus its bytes at `descriptor_rate` G_d (the
// rate one descriptor moves at: one lane, one queue pair). A NIC keeps at most
// `descriptors_in_flight` Q descriptors outstanding, so by Little's law its transfers together move
// at most
//     E = Q s / (c + s / G_d)      bytes/s   (s = descriptor_size; s / G_d = 0 without G_d)
// and never more than the NIC's links carry. The network models E as one more link per host, the
// host's engine, that every transfer from the host crosses (flow_network.hpp): the transfers of one
// NIC share its descriptors in flight max-min fairly, a transfer alone on an idle path moves at
// min(E, goodput), and the per-transfer setup is the network's setup_time, paid before. One
// transfer of B bytes alone on one link of goodput G and latency L then takes
//     setup_time + B / min(E, G) + L
// (B / s descriptors as a fluid: a partial last descriptor costs its share of c).
// Calibration (docs/design.md, "Transfer-engine costs"): c = 6.19 us and G_d = 8.36 GB/s
// (66.9 Gbps) fitted to nixlbench's UCX batch-1 curve (one descriptor in flight) below 256 KiB
// (NVIDIA/cloudai pull request 550; scripts/fit_transfer_engine.py); Q is not calibrated.

#include <cstdint>
#include <optional>

#include "sim/core/time.hpp"
#include "sim/core/units.hpp"

namespace lynxsim::net {

struct TransferEngineSpec {
  Bytes descriptor_size;
  Time descriptor_cost;
  std::optional<BytesPerSecond> descriptor_rate;  // none: a descriptor's bytes cost no time
  std::int64_t descriptors_in_flight = 1;         // per NIC
};

// E above, in bytes/s.
double engine_rate(const TransferEngineSpec& engine);

}  // namespace lynxsim::net
