#include "sim/serving/route_check.hpp"

#include <fmt/format.h>

#include "sim/net/reachability.hpp"

namespace lynxsim::serving {
namespace {

// The hosts of every instance of a role, instance by instance.
std::vector<std::vector<net::HostId>> instance_hosts(const net::Topology& t, net::PoolId pool,
                                                     const std::vector<InstanceSpec>& instances) {
  std::vector<std::vector<net::HostId>> out;
  for (std::size_t i = 0; i < instances.size(); ++i) {
    const auto tp = static_cast<std::uint32_t>(instances[i].tensor_parallel);
    auto& hosts = out.emplace_back();
    for (std::uint32_t r = 0; r < tp; ++r) hosts.push_back(t.place(pool, static_cast<std::uint32_t>(i), r, tp));
  }
  return out;
}

std::vector<net::HostId> all_of(const std::vector<std::vector<net::HostId>>& per_instance) {
  std::vector<net::HostId> out;
  for (const auto& hosts : per_instance) out.insert(out.end(), hosts.begin(), hosts.end());
  return out;
}

struct Check {
  const net::Topology& topology;
  const net::Reachability reach;
  std::vector<RouteProblem> problems;

  // Adds a problem when some host of `from` cannot reach some host of `to`.
  bool need(RouteUse use, const std::vector<net::HostId>& from, const std::vector<net::HostId>& to,
            const std::string& what) {
    const auto missing = reach.first_unreachable(from, to);
    if (!missing) return true;
    problems.push_back({use, fmt::format("no route from host \"{}\" to host \"{}\" ({}) in the network's links",
                                         topology.host_name(missing->first),
                                         topology.host_name(missing->second), what)});
    return false;
  }
};

std::string store_host(const ServingConfig& c) {
  return c.prefix_cache.enabled ? c.prefix_cache.store_host : c.context_loading.store_host;
}

void check_store(const ServingConfig& c, Check& check, const std::vector<net::HostId>& prefill,
                 const std::vector<net::HostId>& decode) {
  if (!c.prefix_cache.enabled && !c.context_loading.enabled) return;
  const LoadTarget target = c.prefix_cache.enabled ? c.prefix_cache.target : c.context_loading.target;
  const std::vector<net::HostId> store{check.topology.host_by_name(store_host(c))};
  if (target != LoadTarget::aggregated &&
      !check.need(RouteUse::store, store, prefill, "the KV store to a prefill instance")) {
    return;
  }
  if (target != LoadTarget::prefill) check.need(RouteUse::store, store, decode, "the KV store to a decode instance");
}

}  // namespace

std::vector<RouteProblem> missing_routes(const ServingConfig& c, const net::Topology& placed) {
  Check check{placed, net::Reachability(placed), {}};
  const auto specs = expand_instances(c.prefill, c.extra_prefill);
  const auto prefill = instance_hosts(placed, kPrefillPool, specs);
  const auto decode = instance_hosts(placed, kDecodePool, expand_instances(c.decode, c.extra_decode));
  const std::vector<net::HostId> prefill_hosts = all_of(prefill);
  const std::vector<net::HostId> decode_hosts = all_of(decode);
  const bool aggregated = c.context_loading.enabled && c.context_loading.target == LoadTarget::aggregated;
  if (!aggregated) {
    check.need(RouteUse::kv, prefill_hosts, decode_hosts, "KV from a prefill to a decode instance");
  }
  check_store(c, check, prefill_hosts, decode_hosts);
  for (std::size_t i = 0; c.model.moe && !aggregated && i < specs.size(); ++i) {
    if (specs[i].all_to_all_flows &&
        !check.need(RouteUse::expert_exchange, prefill[i], prefill[i],
                    fmt::format("the expert all-to-all of prefill instance {}", i))) {
      break;
    }
  }
  return check.problems;
}

}  // namespace lynxsim::serving
