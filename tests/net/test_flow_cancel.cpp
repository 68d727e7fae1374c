#include <doctest/doctest.h>

#include "net_test_util.hpp"
#include "sim/net/flow_network.hpp"
#include "sim/net/network_factory.hpp"

using namespace lynxsim;
using namespace lynxsim::net;

namespace {

// An idle 8 Gb/s link (1 GB/s), no latency, setup `setup_us`.
std::unique_ptr<FlowNetwork> link_1gbps(Simulator& sim, double latency_us = 0.0, double setup_us = 0.0) {
  return make_flow_network(sim, test::single_link(8.0, latency_us, 1.0, Time::from_us(setup_us)));
}

}  // namespace

TEST_CASE("a cancelled flow frees its share: the other finishes as if alone from then on") {
  Simulator sim(1);
  auto net = link_1gbps(sim);
  test::Finished done;
  const auto a = net->start_flow(test::flow(0, 1, 1'000'000'000), done.sink());
  const auto b = net->start_flow(test::flow(0, 1, 1'000'000'000), done.sink());
  Bytes sent_a;
  sim.schedule_at(Time::from_seconds(0.5), [&] { sent_a = net->cancel_flow(a); });
  sim.run();
  // Both at 0.5 GB/s for 0.5 s: 250 MB each; b's 750 MB then at 1 GB/s.
  CHECK(sent_a.value == 250'000'000);
  CHECK(done.at_s(a) == -1.0);
  CHECK(done.at_s(b) == doctest::Approx(1.25));
  CHECK(net->active_flows() == 0);
  // Conservation: delivered + cancelled-sent + never sent = started.
  CHECK(net->bytes_delivered().value == 1'000'000'000);
  CHECK(net->cancel_flow(a).value == 0);
  CHECK(net->cancel_flow(b).value == 0);
}

TEST_CASE("a flow cancelled in setup sent nothing; one cancelled in flight sent everything") {
  Simulator sim(1);
  auto net = link_1gbps(sim, 1000.0, 100.0);
  test::Finished done;
  const auto in_setup = net->start_flow(test::flow(0, 1, 1'000'000), done.sink());
  const auto in_flight = net->start_flow(test::flow(0, 1, 1'000'000), done.sink());
  Bytes setup_sent{-1};
  Bytes flight_sent{-1};
  sim.schedule_at(Time::from_us(50), [&] { setup_sent = net->cancel_flow(in_setup); });
  // Alone from 100 us: 1 MB takes 1 ms; its last byte is on the wire from 1.1 ms to 2.1 ms.
  sim.schedule_at(Time::from_us(1500), [&] { flight_sent = net->cancel_flow(in_flight); });
  sim.run();
  CHECK(setup_sent.value == 0);
  CHECK(flight_sent.value == 1'000'000);
  CHECK(done.records.empty());
  CHECK(net->active_flows() == 0);
  CHECK(net->bytes_delivered().value == 0);
}

TEST_CASE("cancelling on a down link counts only the bytes sent before the outage") {
  Simulator sim(1);
  auto net = link_1gbps(sim);
  test::Finished done;
  const auto a = net->start_flow(test::flow(0, 1, 1'000'000'000), done.sink());
  sim.schedule_at(Time::from_seconds(0.2), [&] {
    for (LinkId l = 0; l < net->topology().num_links(); ++l) net->set_link_rate(l, BitsPerSecond{0.0});
  });
  Bytes sent;
  sim.schedule_at(Time::from_seconds(0.7), [&] { sent = net->cancel_flow(a); });
  sim.run();
  CHECK(sent.value == 200'000'000);
  CHECK(done.records.empty());
  CHECK(sim.now() == Time::from_seconds(0.7));
}
