#include <doctest/doctest.h>

#include <map>

#include "serving_fixture.hpp"
#include "sim/serving/serving_events.hpp"
#include "sim/serving/serving_run.hpp"

using namespace lynxsim;
using namespace lynxsim::serving;

namespace {

// The loaded cluster of serving_fixture.hpp with decode instance 0's NIC flapping and random
// outages on prefill instance 0's NIC.
NetworkFactory faulty_leaf_spine() {
  net::NetworkSpec spec = test::leaf_spine_spec(2, 2, 10e9);
  const net::LinkFaultSpec flap =
      test::link_flap("leaf1.h0-leaf1", Time::from_ms(500), Time::from_ms(100), Time::from_ms(700), 5);
  net::LinkFaultSpec random;
  random.link = "leaf0.h0-leaf0";
  random.down_for = Time::from_ms(30);
  random.failures_per_s = 4.0;
  random.until = Time::from_seconds(5.0);
  spec.faults = {flap, random};
  return test::network_of(spec);
}

}  // namespace

TEST_CASE("under link faults every request finishes once and every byte arrives") {
  const ServingConfig healthy = test::loaded_cluster(0.3);
  ServingConfig faulty = healthy;
  faulty.make_network = faulty_leaf_spine();
  for (const char* name : {"int8", "lynx"}) {
    CAPTURE(name);
    std::map<std::uint64_t, int> done;
    std::int64_t delivered = 0;
    const auto hook = [&](Simulator& sim) {
      sim.bus().subscribe<RequestDone>([&](const RequestDone& e) { ++done[e.request]; });
      sim.bus().subscribe<net::FlowFinished>([&](const net::FlowFinished& e) { delivered += e.record.spec.size.value; });
    };
    const MethodQuality quality{0.7, "test", {}, 0.0};
    const MethodResult r = run_serving(faulty, quant::method_from_name(name), quality, hook);
    const MethodResult base = run_serving(healthy, quant::method_from_name(name), quality);
    std::int64_t expected = 0;
    double slower = 0.0;
    for (std::size_t i = 0; i < r.requests.size(); ++i) {
      const RequestMetrics& m = r.requests[i];
      CHECK(done[m.id] == 1);
      CHECK(m.committed_tokens == m.output_tokens);
      for (const Bytes b : m.plane_bytes) expected += b.value;
      slower += (m.ttft() - base.requests[i].ttft()).seconds();
    }
    CHECK(done.size() == r.requests.size());
    CHECK(delivered == expected);
    CHECK(slower > 0.0);
  }
}
