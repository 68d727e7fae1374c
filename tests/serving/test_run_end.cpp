#include <doctest/doctest.h>

#include <algorithm>

#include "serving_fixture.hpp"
#include "sim/serving/serving_run.hpp"

// A serving run ends with its last request: repeating bandwidth traces and background senders do
// not keep it going (net/network_factory.hpp).

using namespace lynxsim;
using namespace lynxsim::serving;

namespace {

// The quickstart link (25 Gb/s, 10 us, efficiency 0.85, 1 ms setup) with `traces` and `background`.
NetworkFactory traced_link(std::vector<net::BandwidthTraceSpec> traces,
                           std::vector<net::BackgroundSpec> background = {}) {
  return [=](Simulator& sim) {
    net::NetworkSpec spec;
    spec.topology = net::SingleLinkTopology{net::LinkSpec{BitsPerSecond{25e9}, Time::from_us(10), 0.85}};
    spec.setup_time = Time::from_ms(1);
    spec.traces = traces;
    spec.background = background;
    return net::make_network(sim, spec);
  };
}

Time last_finish(const MethodResult& r) {
  Time last;
  for (const RequestMetrics& m : r.requests) last = max(last, m.last_token_at);
  return last;
}

MethodResult run(const ServingConfig& c) {
  return run_serving(c, quant::method_from_name("int8"), MethodQuality{});
}

}  // namespace

TEST_CASE("a repeating trace at the link's own rate changes nothing and ends with the last request") {
  ServingConfig c = test::quickstart_config(8192, 16);
  c.requests.push_back({Time::from_ms(300), 4096, 8});
  const MethodResult plain = run(c);
  for (const Time period : {Time::from_us(2), Time::from_ms(1), Time::from_ms(100)}) {
    CAPTURE(period.ps());
    const net::TracePoint a{Time::zero(), BitsPerSecond{25e9}};
    const net::TracePoint b{Time::from_ps(period.ps() / 2), BitsPerSecond{25e9}};
    c.make_network = traced_link({{"link", {a, b}, true}});
    const MethodResult traced = run(c);
    REQUIRE(traced.requests.size() == 2);
    for (std::size_t i = 0; i < 2; ++i) {
      CHECK(traced.requests[i].decode_ready_at == plain.requests[i].decode_ready_at);
      CHECK(traced.requests[i].last_token_at == plain.requests[i].last_token_at);
    }
    CHECK(traced.simulated_time == last_finish(traced));
    CHECK(traced.simulated_time == plain.simulated_time);
  }
}

TEST_CASE("a background sender running for a day ends with the last request") {
  ServingConfig c = test::quickstart_config(8192, 16);
  net::BackgroundSpec bg{"prefill", "decode", BitsPerSecond{1e9}, Time::from_ms(1), Time::from_ms(1),
                         true, Time::zero(), Time::from_seconds(86400.0)};
  c.make_network = traced_link({}, {bg});
  const MethodResult r = run(c);
  CHECK(r.simulated_time == last_finish(r));
  CHECK(r.simulated_time < Time::from_seconds(10.0));
}

TEST_CASE("a transfer longer than eleven days still ends: the clock, not a cut-off, bounds a flow") {
  ServingConfig c = test::quickstart_config(4096, 4);
  c.make_network = test::single_link({2e3, Time::from_us(10), 1.0, Time::zero()});
  const MethodResult r = run(c);
  // int8 KV of 4096 tokens: 276,824,064 bytes at 250 bytes/s, about 12.8 days.
  const double transfer = 276'824'064.0 / 250.0;
  CHECK(r.requests.at(0).decode_ready_at.seconds() > transfer);
  CHECK(r.requests.at(0).decode_ready_at.seconds() < transfer * 1.001);
}

TEST_CASE("requests whose flows cannot end within the clock are reported, not an internal error") {
  ServingConfig c = test::quickstart_config(131072, 4);
  c.make_network = test::single_link({1e3, Time::from_us(10), 1.0, Time::zero()});
  try {
    run(c);
    FAIL("expected UnservedRequests");
  } catch (const UnservedRequests& e) {
    CHECK(e.ids() == std::vector<std::uint64_t>{0});
    CHECK(std::string(e.what()).find("within the simulator's clock") != std::string::npos);
  }
}
