// The key tables of a network object (field_table.hpp): the network, its topology kinds, links,
// bandwidth traces, background traffic, plane scheduling and the transfer engine. Bounds come from input_limits.hpp.

#include <array>

#include "sim/scenario/field_table.hpp"
#include "sim/scenario/network_fields.hpp"

#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace lynxsim::scenario {
namespace {

using T = FieldType;
constexpr double kHostsBound = static_cast<double>(kMaxHosts);

constexpr std::array kNetwork{
    Field{.key = "preset", .type = T::name,
          .doc = "the preset the network came from (written by the resolved scenario)",
          .default_doc = "none"},
    Field{.key = "topology", .doc = "`{\"kind\": ...}`, one of the kinds below", .required = true},
    Field{.key = "setup_time", .type = T::duration, .doc = "per-transfer setup cost before a flow's first byte",
          .default_json = "\"0s\"", .min = 0},
    Field{.key = "prefill_hosts", .doc = "non-empty array of host names: the prefill placement pool",
          .default_doc = "the first half of the hosts"},
    Field{.key = "decode_hosts", .doc = "non-empty array of host names: the decode placement pool",
          .default_doc = "the second half of the hosts"},
    Field{.key = "traces", .doc = "array of bandwidth traces (below)", .default_doc = "none"},
    Field{.key = "background", .doc = "array of background senders (below)", .default_doc = "none"},
    Field{.key = "faults", .doc = "array of link faults: outages, flaps, random failures (below)",
          .default_doc = "none"},
    Field{.key = "rate_tolerance", .type = T::number,
          .doc = "below 1e-6 the exact solver; from 1e-6 the relaxed one (configs/topologies/README.md)",
          .default_json = "1e-09", .min = 1e-12, .max = 1e-2},
    Field{.key = "rate_quantum", .type = T::duration,
          .doc = "re-solve rates on this grid of simulated time (`\"0s\"`: at every change)",
          .default_json = "\"0s\"", .min = 0},
    Field{.key = "scheduling", .doc = "how the planes of concurrent requests share the network (below)",
          .default_doc = "all defaults"},
    Field{.key = "transfer_engine",
          .doc = "per-descriptor costs of every transfer (below; sim/net/transfer_engine.hpp)",
          .default_doc = "none: a transfer costs its bytes alone"},
};

// Defaults: the fit to nixlbench's UCX batch-1 curve, docs/design.md "Transfer-engine costs".
constexpr std::array kTransferEngine{
    Field{.key = "descriptor_size", .type = T::size,
          .doc = "bytes per descriptor: a page of block_tokens tokens of one layer and head group",
          .min = 1, .required = true, .open_min = true},
    Field{.key = "descriptors_in_flight", .type = T::integer,
          .doc = "descriptors a NIC keeps outstanding, shared by its transfers", .min = 1,
          .max = 1 << 20, .required = true},
    Field{.key = "descriptor_cost", .type = T::duration,
          .doc = "fixed time of one descriptor (post, completion, acknowledgement)",
          .default_json = "\"6.19us\"", .min = kPositiveDuration},
    Field{.key = "descriptor_rate", .type = T::rate,
          .doc = "rate one descriptor's bytes move at (one lane)", .default_json = "\"66.9Gbps\""},
};

constexpr std::array kShorthand{
    Field{.key = "topology", .type = T::choice, .doc = "the only shorthand topology", .choices = "single-link",
          .required = true},
    Field{.key = "bandwidth", .type = T::rate, .doc = "the link's line rate", .required = true},
    Field{.key = "latency", .type = T::duration, .doc = "one-way latency", .default_json = "\"0s\"", .min = 0},
    Field{.key = "setup", .type = T::duration, .doc = "per-transfer setup cost", .default_json = "\"0s\"",
          .min = 0},
    Field{.key = "efficiency", .type = T::number, .doc = "goodput / line rate", .default_json = "1",
          .min = 0, .max = 1, .open_min = true},
    Field{.key = "scheduling", .doc = "as in a network object", .default_doc = "all defaults"},
};

constexpr std::array kLink{
    Field{.key = "rate", .type = T::rate, .doc = "line rate", .required = true},
    Field{.key = "latency", .type = T::duration, .doc = "one-way latency", .min = 0, .required = true},
    Field{.key = "efficiency", .type = T::number, .doc = "goodput / line rate", .default_json = "1",
          .min = 0, .max = 1, .open_min = true},
};

constexpr std::array kGraphLink{
    Field{.key = "a", .type = T::name, .doc = "one end (a host or switch)", .required = true},
    Field{.key = "b", .type = T::name, .doc = "the other end", .required = true},
    Field{.key = "name", .type = T::name, .doc = "the link's name", .default_doc = "`<a>-<b>`"},
    Field{.key = "rate", .type = T::rate, .doc = "line rate", .required = true},
    Field{.key = "latency", .type = T::duration, .doc = "one-way latency", .min = 0, .required = true},
    Field{.key = "efficiency", .type = T::number, .doc = "goodput / line rate", .default_json = "1",
          .min = 0, .max = 1, .open_min = true},
};

constexpr std::array kSingleLink{
    Field{.key = "kind", .type = T::choice, .doc = "hosts `prefill` and `decode`, the link `link`",
          .choices = "single-link", .required = true},
    Field{.key = "link", .doc = "a link", .required = true},
};

constexpr std::array kLeafSpine{
    Field{.key = "kind", .type = T::choice, .doc = "hosts `leaf<i>.h<j>`", .choices = "leaf-spine",
          .required = true},
    Field{.key = "leaves", .type = T::integer, .doc = "leaf switches", .min = 1, .max = kHostsBound,
          .required = true},
    Field{.key = "hosts_per_leaf", .type = T::integer, .doc = "hosts under each leaf", .min = 1,
          .max = kHostsBound, .required = true},
    Field{.key = "spines", .type = T::integer, .doc = "spine switches", .min = 1, .max = kHostsBound,
          .required = true},
    Field{.key = "host_link", .doc = "a link: host to leaf", .required = true},
    Field{.key = "uplink", .doc = "a link: leaf to spine (or give `oversubscription`)",
          .default_doc = "from `oversubscription`"},
    Field{.key = "oversubscription", .type = T::number,
          .doc = "host bandwidth of a leaf / its uplink bandwidth (instead of `uplink`)", .default_doc = "none",
          .min = 0, .open_min = true},
    Field{.key = "uplink_latency", .type = T::duration, .doc = "with `oversubscription` (required then)",
          .default_doc = "none", .min = 0},
    Field{.key = "uplink_efficiency", .type = T::number, .doc = "with `oversubscription`",
          .default_doc = "the host link's", .min = 0, .max = 1, .open_min = true},
};

constexpr std::array kFatTree{
    Field{.key = "kind", .type = T::choice, .doc = "hosts `pod<p>.edge<e>.h<i>`", .choices = "fat-tree",
          .required = true},
    Field{.key = "k", .type = T::integer, .doc = "ports per switch (even)", .min = 2, .max = kHostsBound,
          .required = true},
    Field{.key = "link", .doc = "a link: every switch-to-switch link", .required = true},
    Field{.key = "host_link", .doc = "a link: host to edge switch", .default_doc = "`link`"},
};

constexpr std::array kCrossDc{
    Field{.key = "kind", .type = T::choice, .doc = "hosts `a.h<i>` and `b.h<i>`, the WAN link `wan`",
          .choices = "cross-dc", .required = true},
    Field{.key = "hosts_per_site", .type = T::integer, .doc = "hosts in each site", .min = 1,
          .max = kHostsBound, .required = true},
    Field{.key = "host_link", .doc = "a link: host to its site's switch", .required = true},
    Field{.key = "wan", .doc = "the WAN (below)", .required = true},
};

constexpr std::array kWan{
    Field{.key = "rate", .type = T::rate, .doc = "line rate", .required = true},
    Field{.key = "rtt", .type = T::duration, .doc = "round-trip time (the one-way latency is half)", .min = 0,
          .required = true},
    Field{.key = "efficiency", .type = T::number, .doc = "goodput / line rate", .default_json = "1",
          .min = 0, .max = 1, .open_min = true},
};

constexpr std::array kNvlinkIsland{
    Field{.key = "kind", .type = T::choice, .doc = "hosts `gpu<i>` on the switch `nvswitch`",
          .choices = "nvlink-island", .required = true},
    Field{.key = "gpus", .type = T::integer, .doc = "GPUs in the island", .min = 2, .max = kHostsBound,
          .required = true},
    Field{.key = "nvlink", .doc = "a link: GPU to switch", .required = true},
};

constexpr std::array kGraph{
    Field{.key = "kind", .type = T::choice, .doc = "an explicit graph", .choices = "graph", .required = true},
    Field{.key = "hosts", .doc = "non-empty array of host names", .required = true},
    Field{.key = "switches", .doc = "array of switch names", .default_doc = "none"},
    Field{.key = "links", .doc = "array of graph links (below)", .required = true},
};

constexpr std::array kTrace{
    Field{.key = "link", .type = T::name, .doc = "the link's name (both directions)", .required = true},
    Field{.key = "points", .doc = "array of `[time, rate]` steps (or give `csv`)", .default_doc = "none"},
    Field{.key = "csv", .type = T::text, .doc = "a `time,rate` CSV file, relative to the network's folder",
          .default_doc = "none"},
    Field{.key = "repeat", .type = T::boolean, .doc = "start over after the last step (plays only while the run has work)",
          .default_json = "false"},
};

constexpr std::array kLinkFault{
    Field{.key = "link", .type = T::name, .doc = "the link's name (both directions)", .required = true},
    Field{.key = "down_for", .type = T::duration, .doc = "length of each outage",
          .min = kPositiveDuration, .required = true},
    Field{.key = "down_at", .type = T::duration,
          .doc = "the first outage's start (random outages: where the process starts)",
          .default_json = "\"0s\"", .min = 0},
    Field{.key = "every", .type = T::duration, .doc = "a flap: the period of its outages (> `down_for`)",
          .default_doc = "none", .min = kPositiveDuration},
    Field{.key = "count", .type = T::integer, .doc = "a flap: its outages", .default_json = "1", .min = 1,
          .max = kMaxFaultOutages},
    Field{.key = "failures_per_s", .type = T::number,
          .doc = "random outages: a Poisson process of this rate (seeded by the scenario seed)",
          .default_doc = "none", .min = 0, .max = kMaxFaultRate, .open_min = true},
    Field{.key = "until", .type = T::duration, .doc = "random outages: none starts after this time",
          .default_doc = "required with `failures_per_s`", .min = kPositiveDuration},
};

constexpr std::array kBackground{
    Field{.key = "src", .type = T::name, .doc = "sending host", .required = true},
    Field{.key = "dst", .type = T::name, .doc = "receiving host: another host, reachable from `src`",
          .required = true},
    Field{.key = "rate", .type = T::rate, .doc = "sending rate", .required = true},
    Field{.key = "on_time", .type = T::duration, .doc = "length of an on period (or one flow throughout)",
          .default_doc = "none", .min = 1},
    Field{.key = "off_time", .type = T::duration, .doc = "length of an off period", .default_json = "\"0s\"",
          .min = 0},
    Field{.key = "exponential", .type = T::boolean, .doc = "on and off lengths exponential with those means",
          .default_json = "false"},
    Field{.key = "start_at", .type = T::duration, .doc = "first send", .default_json = "\"0s\"", .min = 0},
    Field{.key = "stop_at", .type = T::duration, .doc = "last send (after `start_at`)", .min = 0,
          .required = true},
    Field{.key = "priority_class", .type = T::integer, .doc = "class under the scheduling policy",
          .default_json = "1000", .min = 0, .max = 1 << 20},
    Field{.key = "label", .type = T::name, .doc = "names the flows in traces", .default_json = "\"background\""},
};

constexpr std::array kScheduling{
    Field{.key = "policy", .type = T::choice,
          .doc = "`strict`: plane p in class p, strict priority across all requests; `request_order`: an "
                 "earlier request's planes before a later one's, anchor first inside a request; "
                 "`weighted`: ETS/DWRR queues at the sender's port, `weights` per class, work-conserving; "
                 "`fair`: no classes, max-min fair between all flows; `aging`: anchors before other "
                 "planes, each in arrival order; a plane that waited `max_wait` moves ahead of later "
                 "requests' anchors",
          .default_json = "\"request_order\"", .choices = "request_order|strict|weighted|fair|aging"},
    Field{.key = "classes", .type = T::integer,
          .doc = "traffic classes (queues per port) the network offers; plane p uses class min(p, classes - 1)",
          .default_json = "8", .min = 1, .max = 8},
    Field{.key = "weights",
          .doc = "non-empty array of numbers in [1e-06, 1000000], at most `classes`: weight of class 0, 1, ... "
                 "(`weighted`); classes past the array take its last weight",
          .default_doc = "all 1"},
    Field{.key = "max_wait", .type = T::duration,
          .doc = "the longest an anchor may overtake an earlier request's other planes (`aging`)",
          .default_json = "\"1s\"", .min = 0},
};

}  // namespace

std::span<const FieldSection> network_field_sections() {
  static const std::array sections{
      FieldSection{"network", "/network", kNetwork},
      FieldSection{"network-shorthand", "/network", kShorthand},
      FieldSection{"link", "/network/topology/link", kLink},
      FieldSection{"topology-single-link", "/network/topology", kSingleLink},
      FieldSection{"topology-leaf-spine", "/network/topology", kLeafSpine},
      FieldSection{"topology-fat-tree", "/network/topology", kFatTree},
      FieldSection{"topology-cross-dc", "/network/topology", kCrossDc},
      FieldSection{"wan", "/network/topology/wan", kWan},
      FieldSection{"topology-nvlink-island", "/network/topology", kNvlinkIsland},
      FieldSection{"topology-graph", "/network/topology", kGraph},
      FieldSection{"graph-link", "/network/topology/links/0", kGraphLink},
      FieldSection{"bandwidth-trace", "/network/traces/0", kTrace},
      FieldSection{"background", "/network/background/0", kBackground},
      FieldSection{"link-fault", "/network/faults/0", kLinkFault},
      FieldSection{"scheduling", "/network/scheduling", kScheduling},
      FieldSection{"transfer-engine", "/network/transfer_engine", kTransferEngine},
  };
  return sections;
}

}  // namespace lynxsim::scenario
