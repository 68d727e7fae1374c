#pragma once
// Energy of a serving run: GPUs between idle and peak power by their utilisation, the KV codec's
// kernels, and the network per bit.
//
// A GPU draws P(t) = P_idle + (P_peak - P_idle) * u(t), u in [0, 1] the utilisation of the resource
// that bounds its work (compute or memory; the roofline of compute/timing_model.hpp), so a run of T
// seconds on G GPUs uses
//   E = sum_GPUs P_idle * T + (P_peak - P_idle) * integral u dt + E_codec + E_network.
// Work above idle, per rank of an instance of tp GPUs:
//   prefill of a request (its uncached tokens): integral u dt = max(F / peak_bf16, B / hbm_bandwidth),
//     F and B the pass's FLOPs and bytes per rank (a pass at utilisation u for t seconds does
//     u * t = max(F / peak, B / bw) of full-power work);
//   decode on instance i: busy_i * u_i, busy_i the time some request of i is decoding (union of
//     [decode_joined, last_token]), u_i = max(F / (peak t), B / (bw t)) of one decode step of the
//     instance's mean batch (sum of decode durations / busy_i) at its requests' mean KV length
//     (context + output / 2), capped at 1;
//   codec (bits < 16): encode on prefill and decode on decode GPUs stream the BF16 KV and the coded
//     bytes once each: (P_peak - P_idle) * (bf16 + coded) / hbm_bandwidth on each side (a kernel
//     at memory efficiency e takes bytes / (bw e) at u = e); CacheGen's coder runs at its
//     encode/decode throughputs (MethodSpec::cachegen) at full utilisation (an upper bound);
//   network: every byte a request's KV flows sent (kv_bytes_sent, wasted resends included) crosses
//     two NICs and `switch_hops` switches: E = 8 * bytes * (2 * e_nic + switch_hops * e_switch).
// Per request and per output token: E / requests, E / sum of output tokens (0 when none).

#include <map>
#include <string>

#include "sim/net/network_spec.hpp"
#include "sim/serving/request_metrics.hpp"
#include "sim/serving/serving_config.hpp"

namespace lynxsim::plan {

struct GpuPower {
  double idle_w = 0.0;
  double peak_w = 0.0;
  std::string source;
};

struct EnergyTable {
  std::map<std::string, GpuPower> gpus;  // by GPU profile name
  double nic_j_per_bit = 0.0;
  double switch_j_per_bit = 0.0;
  std::string nic_source;
  std::string switch_source;
};

// Switches a KV transfer between the prefill and decode pools crosses, the pools placed apart
// (different leaves, pods or sites): single link 0, NVLink island 1 (the NVSwitch), leaf-spine 3
// (leaf, spine, leaf), fat tree 5 (edge, aggregation, core, aggregation, edge), cross-DC 2 (one
// per site), an explicit graph 1 when it has switches (its routes are not known here), else 0.
int switch_hops(const net::TopologySpec& topology);

// Throws std::invalid_argument naming a GPU of the configuration without a power row.
serving::EnergyTotals run_energy(const serving::ServingConfig& config, const serving::MethodResult& result,
                                 const EnergyTable& table, int hops);

}  // namespace lynxsim::plan
