#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "sim/net/flow_list_run.hpp"
#include "sim/net/transfer_engine.hpp"
#include "sim/scenario/topology_json.hpp"

using namespace lynxsim;
using namespace lynxsim::net;

namespace {

// One 100 Gbps link (12.5 GB/s goodput), 10 us latency, 20 us setup; descriptors of 4 KiB, 5 us
// each plus their bytes at 8 GB/s, 4 in flight per NIC:
//   E = 4 x 4096 / (5e-6 + 4096 / 8e9) = 2.97193 GB/s, below the link's goodput.
NetworkSpec engine_link() {
  NetworkSpec spec;
  spec.topology = SingleLinkTopology{LinkSpec{BitsPerSecond{100e9}, Time::from_us(10), 1.0}};
  spec.setup_time = Time::from_us(20);
  spec.transfer_engine = TransferEngineSpec{Bytes{4096}, Time::from_us(5), BytesPerSecond{8e9}, 4};
  return spec;
}

FlowListEntry flow(std::int64_t bytes, Time start = Time::zero()) {
  FlowListEntry f;
  f.src = "prefill";
  f.dst = "decode";
  f.size = Bytes{bytes};
  f.start = start;
  return f;
}

double fct(const FlowListResult& r) { return (r.record.finished_at - r.record.started_at).seconds(); }

}  // namespace

TEST_CASE("transfer engine: descriptors in flight over the per-descriptor time bound a NIC") {
  const TransferEngineSpec e{Bytes{4096}, Time::from_us(5), BytesPerSecond{8e9}, 4};
  CHECK(engine_rate(e) == doctest::Approx(4.0 * 4096 / (5e-6 + 4096 / 8e9)).epsilon(1e-12));
  const TransferEngineSpec no_lane{Bytes{65536}, Time::from_us(2), std::nullopt, 1};
  CHECK(engine_rate(no_lane) == doctest::Approx(65536 / 2e-6).epsilon(1e-12));
}

TEST_CASE("transfer engine: one transfer on one link takes setup + B / min(E, G) + latency") {
  const double e = engine_rate(*engine_link().transfer_engine);
  const auto r = run_flow_list(engine_link(), {flow(10'000'000)}, 1, "t");
  CHECK(fct(r[0]) == doctest::Approx(20e-6 + 1e7 / e + 10e-6).epsilon(1e-9));
  NetworkSpec fast = engine_link();
  fast.transfer_engine->descriptor_size = Bytes{1 << 20};  // E = 15.7 GB/s: the link binds
  const auto f = run_flow_list(fast, {flow(10'000'000)}, 1, "t");
  CHECK(fct(f[0]) == doctest::Approx(20e-6 + 1e7 / 12.5e9 + 10e-6).epsilon(1e-9));
}

TEST_CASE("transfer engine: transfers of one NIC share its descriptors in flight") {
  const double e = engine_rate(*engine_link().transfer_engine);
  const auto r = run_flow_list(engine_link(), {flow(10'000'000), flow(5'000'000)}, 1, "t");
  // Both at E / 2 until the smaller ends at 2 x 5 MB / E; the larger then alone at E.
  CHECK(fct(r[1]) == doctest::Approx(20e-6 + 1e7 / e + 10e-6).epsilon(1e-9));
  CHECK(fct(r[0]) == doctest::Approx(20e-6 + 1.5e7 / e + 10e-6).epsilon(1e-9));
}

TEST_CASE("transfer engine: without the key a transfer costs its bytes alone") {
  NetworkSpec plain = engine_link();
  plain.transfer_engine.reset();
  const auto r = run_flow_list(plain, {flow(10'000'000)}, 1, "t");
  CHECK(fct(r[0]) == doctest::Approx(20e-6 + 1e7 / 12.5e9 + 10e-6).epsilon(1e-9));
}

TEST_CASE("transfer engine: the network key reads with its calibrated defaults") {
  const auto j = nlohmann::json::parse(R"({"topology": {"kind": "single-link",
      "link": {"rate": "100Gbps", "latency": "1us"}},
      "transfer_engine": {"descriptor_size": "32KiB", "descriptors_in_flight": 16}})");
  nlohmann::json resolved;
  const NetworkSpec s = scenario::parse_network(j, "/network", ".", {}, &resolved);
  REQUIRE(s.transfer_engine.has_value());
  CHECK(s.transfer_engine->descriptor_size.value == 32768);
  CHECK(s.transfer_engine->descriptors_in_flight == 16);
  CHECK(s.transfer_engine->descriptor_cost == Time::from_ns(6190));
  CHECK(s.transfer_engine->descriptor_rate->value == doctest::Approx(66.9e9 / 8));
  CHECK(resolved["transfer_engine"]["descriptor_cost"] == "6.19us");
  CHECK_FALSE(scenario::parse_network(nlohmann::json::parse(
                                          R"({"topology": {"kind": "single-link",
      "link": {"rate": "100Gbps", "latency": "1us"}}})"),
                                      "/network", ".")
                  .transfer_engine.has_value());
}
