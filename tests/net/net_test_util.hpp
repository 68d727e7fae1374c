#pragma once
// Shared helpers of the sim/net tests.

#include <doctest/doctest.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "sim/core/simulator.hpp"
#include "sim/net/network_factory.hpp"
#include "sim/scenario/topology_json.hpp"

namespace lynxsim::net::test {

// The JSON paths of the issues `parse` (a call of the config layer's network reader) throws; a
// parse that succeeds fails the test.
template <class Parse>
std::set<std::string> issue_paths(Parse&& parse) {
  std::set<std::string> paths;
  try {
    parse();
    FAIL("expected an error");
  } catch (const scenario::NetConfigError& e) {
    for (const auto& i : e.issues()) paths.insert(i.json_path);
  }
  return paths;
}

inline LinkSpec link_of(double gbps, double latency_us, double efficiency = 1.0) {
  return LinkSpec{BitsPerSecond{gbps * 1e9}, Time::from_us(latency_us), efficiency};
}

inline NetworkSpec single_link(double gbps, double latency_us, double efficiency, Time setup) {
  NetworkSpec spec;
  spec.topology = SingleLinkTopology{link_of(gbps, latency_us, efficiency)};
  spec.setup_time = setup;
  return spec;
}

struct Finished {
  std::vector<FlowRecord> records;
  FlowDone sink() {
    return [this](const FlowRecord& r) { records.push_back(r); };
  }
  double at_s(FlowId id) const {
    for (const auto& r : records) {
      if (r.id == id) return r.finished_at.seconds();
    }
    return -1.0;
  }
};

inline FlowSpec flow(HostId src, HostId dst, std::int64_t bytes, int cls = 0, double weight = 1.0) {
  FlowSpec f;
  f.src = src;
  f.dst = dst;
  f.size = Bytes{bytes};
  f.priority_class = cls;
  f.weight = weight;
  return f;
}

}  // namespace lynxsim::net::test
