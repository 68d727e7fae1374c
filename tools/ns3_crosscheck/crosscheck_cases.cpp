#include "tools/ns3_crosscheck/crosscheck_cases.hpp"

#include <fmt/format.h>

namespace lynxsim::ns3check {
namespace {

constexpr double kRateBps = 10e9;
constexpr double kLinkLatencyUs = 20.0;
constexpr std::int64_t kMB = 1'000'000;
constexpr std::int64_t kKB = 1'000;

net::LinkSpec link() {
  return net::LinkSpec{BitsPerSecond{kRateBps}, Time::from_us(kLinkLatencyUs), 1.0};
}

net::NetworkSpec network_of(net::TopologySpec topology) {
  net::NetworkSpec spec;
  spec.topology = std::move(topology);
  return spec;
}

net::FlowListEntry flow(std::string src, std::string dst, std::int64_t bytes, Time start = {}) {
  net::FlowListEntry f;
  f.src = std::move(src);
  f.dst = std::move(dst);
  f.size = Bytes{bytes};
  f.start = start;
  return f;
}

CrosscheckCase single(std::string name, std::int64_t bytes) {
  return {std::move(name),
          network_of(net::SingleLinkTopology{link()}),
          {flow("prefill", "decode", bytes)},
          Transport::Dctcp,
          std::nullopt};
}

CrosscheckCase incast(std::string name, int senders, std::int64_t bytes) {
  net::GraphTopology g;
  g.switches = {"tor"};
  g.hosts = {"decode"};
  g.links.push_back({"decode", "tor", link(), ""});
  std::vector<net::FlowListEntry> flows;
  for (int i = 0; i < senders; ++i) {
    g.hosts.push_back(fmt::format("prefill{}", i));
    g.links.push_back({g.hosts.back(), "tor", link(), ""});
    flows.push_back(flow(g.hosts.back(), "decode", bytes));
  }
  return {std::move(name), network_of(std::move(g)), std::move(flows), Transport::Dctcp,
          std::nullopt};
}

net::NetworkSpec leaf_spine() {
  return network_of(net::LeafSpineTopology{4, 4, 2, link(), link(), 2.0});
}

CrosscheckCase leaf_spine_ecmp() {
  std::vector<net::FlowListEntry> flows;
  for (int leaf = 0; leaf < 2; ++leaf) {
    for (int h = 0; h < 4; ++h) {
      flows.push_back(flow(fmt::format("leaf{}.h{}", leaf, h),
                           fmt::format("leaf{}.h{}", leaf + 2, (h + leaf) % 4), 8 * kMB));
    }
  }
  return {"leaf-spine-ecmp", leaf_spine(), std::move(flows), Transport::Dctcp, std::nullopt};
}

CrosscheckCase kv_layers() {
  std::vector<net::FlowListEntry> flows;
  for (int layer = 0; layer < 32; ++layer) {
    flows.push_back(flow("leaf0.h0", "leaf1.h0", kMB, Time::from_us(500.0 * (layer + 1))));
  }
  return {"kv-layers", leaf_spine(), std::move(flows), Transport::Dctcp, std::nullopt};
}

CrosscheckCase with(CrosscheckCase c, Transport t, std::optional<double> bound = std::nullopt) {
  c.transport = t;
  c.bound = bound;
  return c;
}

}  // namespace

std::vector<CrosscheckCase> small_cases() {
  return {with(single("single-long", 16 * kMB), Transport::Dctcp, 0.05),
          with(single("single-long", 16 * kMB), Transport::Udp, 0.05),
          with(incast("incast-long-8", 8, 2 * kMB), Transport::Dctcp, 0.10),
          with(leaf_spine_ecmp(), Transport::Udp, 0.05)};
}

std::vector<CrosscheckCase> full_cases() {
  std::vector<CrosscheckCase> base = {single("single-long", 16 * kMB),
                                      single("single-short", 64 * kKB)};
  for (const int n : {2, 4, 8, 16, 32, 64}) {
    base.push_back(incast(fmt::format("incast-long-{}", n), n, 2 * kMB));
  }
  for (const int n : {2, 4, 8, 16, 32, 64}) {
    base.push_back(incast(fmt::format("incast-short-{}", n), n, 64 * kKB));
  }
  base.push_back(leaf_spine_ecmp());
  base.push_back(kv_layers());
  std::vector<CrosscheckCase> all;
  for (const Transport t : {Transport::Dctcp, Transport::NewReno, Transport::Udp}) {
    for (const auto& c : base) all.push_back(with(c, t));
  }
  return all;
}

}  // namespace lynxsim::ns3check
