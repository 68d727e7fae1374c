#pragma once
// Shared set-up for serving tests: real model cards and GPU profiles from the source tree, and a
// single-link network.

#include <memory>
#include <optional>

#include "sim/scenario/card_files.hpp"
#include "sim/net/flow_network.hpp"
#include "sim/net/network_factory.hpp"
#include "sim/net/network_spec.hpp"
#include "sim/serving/serving_config.hpp"
#include "sim/serving/workload_synthetic.hpp"

namespace lynxsim::test {

inline ModelSpec model_card(const char* name) {
  return scenario::load_model_card(std::string(LYNXSIM_SOURCE_DIR) + "/models/" + name + ".json");
}

inline HardwareSpec gpu_profile(const char* name) {
  return scenario::load_hardware_profile(std::string(LYNXSIM_SOURCE_DIR) + "/configs/gpus/" + name + ".json");
}

struct LinkParams {
  double rate_bps = 25e9;
  Time latency = Time::from_us(10);
  double efficiency = 0.85;
  Time setup = Time::from_ms(1);
};

inline serving::NetworkFactory single_link(LinkParams p) {
  return [p](Simulator& sim) -> std::unique_ptr<net::Network> {
    net::SingleLinkTopology topo{net::LinkSpec{BitsPerSecond{p.rate_bps}, p.latency, p.efficiency}};
    return std::make_unique<net::FlowNetwork>(sim, net::build_topology(topo), p.setup);
  };
}

// A leaf-spine fabric: hosts_per_leaf hosts on each of `leaves` leaves, 2 spines, no oversubscription.
// Prefill takes the first half of the hosts, decode the second; the last host is left for a store
// only when the caller names it.
inline net::NetworkSpec leaf_spine_spec(int leaves, int hosts_per_leaf, double rate_bps) {
  net::LeafSpineTopology topo;
  topo.leaves = leaves;
  topo.hosts_per_leaf = hosts_per_leaf;
  topo.spines = 2;
  topo.host_link = net::LinkSpec{BitsPerSecond{rate_bps}, Time::from_us(2), 0.9};
  topo.uplink = topo.host_link;
  topo.oversubscription = 1.0;
  net::NetworkSpec spec;
  spec.topology = topo;
  spec.setup_time = Time::from_us(50);
  return spec;
}

// `count` outages of `link` from `down_at`, each `down_for` long, one every `every` (none: one outage).
inline net::LinkFaultSpec link_flap(const char* link, Time down_at, Time down_for,
                                   std::optional<Time> every, int count) {
  net::LinkFaultSpec flap;
  flap.link = link;
  flap.down_at = down_at;
  flap.down_for = down_for;
  flap.every = every;
  flap.count = count;
  return flap;
}

inline serving::NetworkFactory network_of(net::NetworkSpec spec) {
  return [spec](Simulator& sim) -> std::unique_ptr<net::Network> { return net::make_network(sim, spec); };
}

inline serving::NetworkFactory leaf_spine(int leaves, int hosts_per_leaf, double rate_bps) {
  return network_of(leaf_spine_spec(leaves, hosts_per_leaf, rate_bps));
}

inline serving::ServingConfig quickstart_config(int context = 32768, int output = 128) {
  serving::ServingConfig c;
  c.model = model_card("llama-3.1-8b");
  c.prefill.gpu = gpu_profile("ascend-910b");
  c.decode.gpu = gpu_profile("ascend-910b");
  c.requests = {serving::RequestSpec{Time::zero(), context, output}};
  c.make_network = single_link({});
  return c;
}

// Two H100 prefill and two H100 decode instances on a 10 Gb/s leaf-spine, 150 requests of up to
// 8K tokens at 30 per second, decode HBM limited to `decode_hbm_fraction`.
inline serving::ServingConfig loaded_cluster(double decode_hbm_fraction) {
  using namespace serving;
  ServingConfig c;
  c.model = model_card("llama-3.1-8b");
  c.prefill.gpu = gpu_profile("h100-sxm");
  c.prefill.count = 2;
  c.decode = c.prefill;
  c.decode_memory.usable_fraction = decode_hbm_fraction;
  c.make_network = leaf_spine(2, 2, 10e9);
  c.router = RouterPolicy::least_loaded;
  c.layers_per_flow = 4;
  c.speculation.max_draft_tokens = 8;
  SyntheticWorkload w;
  w.count = 150;
  w.rate_per_s = 30.0;
  w.context = {LengthKind::uniform, 1, 512, 8192};
  w.output = {LengthKind::uniform, 1, 1, 400};
  c.requests = generate_workload(w, 11);
  return c;
}

}  // namespace lynxsim::test
