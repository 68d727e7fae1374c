#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "serving_fixture.hpp"
#include "sim/compute/expert_parallel.hpp"
#include "sim/serving/expert_exchange.hpp"
#include "sim/serving/serving_run.hpp"

using namespace lynxsim;
using namespace lynxsim::serving;

namespace {

constexpr double kNicBps = 400e9;
const Time kHostLatency = Time::from_us(1);

// Four leaves of eight hosts, one non-blocking spine; host links at DeepEP's RDMA efficiency, so a
// lone rank's NIC carries kScaleOutEfficiency of its line rate as the closed form assumes.
net::NetworkSpec fabric() {
  net::LeafSpineTopology topo;
  topo.leaves = 4;
  topo.hosts_per_leaf = 8;
  topo.spines = 1;
  topo.host_link = net::LinkSpec{BitsPerSecond{kNicBps}, kHostLatency, kScaleOutEfficiency};
  topo.uplink = net::LinkSpec{BitsPerSecond{8 * kNicBps}, kHostLatency, 1.0};
  net::NetworkSpec spec;
  spec.topology = topo;
  spec.setup_time = Time::from_ms(1);
  return spec;
}

std::vector<net::HostId> ranks_on_two_leaves(const net::Network& net) {
  std::vector<net::HostId> hosts;
  for (int r = 0; r < 16; ++r) hosts.push_back(net.host_by_name(fmt::format("leaf{}.h{}", r / 8, r % 8)));
  return hosts;
}

struct Exchange {
  Time done_at = Time::max();
  Time kv_done_at = Time::max();
};

// One exchange of `pair` bytes per cross-node pair (and an in-node timer), with an optional KV flow
// of kv_bytes from rank 0 to a decode host started with it.
Exchange run_exchange(Bytes pair, Time in_node, std::int64_t kv_bytes, net::SchedulingPolicy policy,
                      std::int64_t kv_key = 0) {
  Simulator sim;
  auto net = net::make_flow_network(sim, fabric());
  net::SchedulingSpec scheduling;
  scheduling.policy = policy;
  net->set_scheduling(scheduling);
  ExpertExchange exchange(sim, *net, ranks_on_two_leaves(*net), 8);
  Exchange out;
  exchange.run(pair, in_node, 1, [&] { out.done_at = sim.now(); });
  if (kv_bytes > 0) {
    net::FlowSpec kv;
    kv.src = net->host_by_name("leaf0.h0");
    kv.dst = net->host_by_name("leaf2.h0");
    kv.size = Bytes{kv_bytes};
    kv.order_key = kv_key;
    net->start_flow_with_setup(kv, [&](const net::FlowRecord&) { out.kv_done_at = sim.now(); }, Time::zero());
  }
  sim.run();
  CHECK(exchange.flows_started() == (pair.value > 0 ? 128u : 0u));
  return out;
}

constexpr double kNic = kNicBps / 8.0 * kScaleOutEfficiency;
const Time kPath = kHostLatency * 4;

}  // namespace

TEST_CASE("an expert group spans hosts when it has more than one node and a host per rank") {
  const std::vector<net::HostId> distinct{0, 1, 2, 3};
  CHECK(ExpertExchange::spans_hosts(distinct, 4, 2));
  CHECK_FALSE(ExpertExchange::spans_hosts(distinct, 4, 4));
  CHECK_FALSE(ExpertExchange::spans_hosts({0, 0, 0, 0}, 4, 2));
  CHECK_FALSE(ExpertExchange::spans_hosts({0, 1, 0, 1}, 4, 2));
}

TEST_CASE("on an idle fabric the exchange takes the closed form's max(in-node, across) plus one path latency") {
  const double pair = 10e6;
  const Exchange across = run_exchange(Bytes{10'000'000}, Time::from_ms(1), 0, net::SchedulingPolicy::request_order);
  const double expected = 8 * pair / kNic + kPath.seconds();
  CHECK(across.done_at.seconds() == doctest::Approx(expected).epsilon(1e-9));
  const Exchange in_node = run_exchange(Bytes{10'000'000}, Time::from_ms(5), 0, net::SchedulingPolicy::request_order);
  CHECK(in_node.done_at == Time::from_ms(5));
  const Exchange none = run_exchange(Bytes{0}, Time::from_ms(2), 0, net::SchedulingPolicy::request_order);
  CHECK(none.done_at == Time::from_ms(2));
}

TEST_CASE("a KV transfer on a rank's NIC and the exchange share it max-min: both slow down") {
  const Bytes pair{10'000'000};
  const std::int64_t kv = 20'000'000;
  const Exchange idle = run_exchange(pair, Time::zero(), 0, net::SchedulingPolicy::strict);
  for (const auto policy : {net::SchedulingPolicy::strict, net::SchedulingPolicy::fair}) {
    const Exchange both = run_exchange(pair, Time::zero(), kv, policy);
    const double kv_alone = static_cast<double>(kv) / kNic + kPath.seconds();
    CHECK(both.done_at > idle.done_at);
    CHECK(both.kv_done_at.seconds() > kv_alone * 1.5);
    // Rank 0's NIC carries 9 flows at a ninth each until its 8 pair flows end (9 * pair sent), then
    // the rest of the KV alone.
    CHECK(both.done_at.seconds() == doctest::Approx(9 * 10e6 / kNic + kPath.seconds()).epsilon(1e-6));
    CHECK(both.kv_done_at.seconds() ==
          doctest::Approx((8 * 10e6 + static_cast<double>(kv)) / kNic + kPath.seconds()).epsilon(1e-6));
  }
}

TEST_CASE("under request_order the KV of an earlier request goes first, the exchange waits") {
  const Bytes pair{10'000'000};
  const std::int64_t kv = 20'000'000;
  const Exchange both = run_exchange(pair, Time::zero(), kv, net::SchedulingPolicy::request_order, 0);
  CHECK(both.kv_done_at.seconds() == doctest::Approx(static_cast<double>(kv) / kNic + kPath.seconds()));
  CHECK(both.done_at.seconds() ==
        doctest::Approx((8 * 10e6 + static_cast<double>(kv)) / kNic + kPath.seconds()).epsilon(1e-6));
}

namespace {

// DeepSeek-V3 on 16 + 16 H800s, each GPU its own host of fabric(): EP16 over two nodes per instance.
ServingConfig deepseek_config(bool flows, std::vector<Time> arrivals) {
  ServingConfig c;
  c.model = test::model_card("deepseek-v3");
  c.prefill.gpu = test::gpu_profile("h800-sxm");
  c.prefill.tensor_parallel = 16;
  c.prefill.parallel = default_layout(c.model, 16, true);
  c.prefill.all_to_all_flows = flows;
  c.decode = c.prefill;
  c.decode.parallel = default_layout(c.model, 16, false);
  c.make_network = [](Simulator& sim) { return net::make_network(sim, fabric()); };
  c.streaming = StreamingMode::after_prefill;
  for (const Time at : arrivals) c.requests.push_back(RequestSpec{at, 8192, 2});
  return c;
}

MethodQuality exact() { return MethodQuality{1.0, "test", {}, 0.0}; }

Time pass_of(const RequestMetrics& m) { return m.prefill_done_at - m.prefill_start_at; }

}  // namespace

TEST_CASE("a lone prefill pass on the flow model takes the closed form's time plus a path latency per layer") {
  const auto method = quant::method_from_name("bf16");
  const MethodResult flows = run_serving(deepseek_config(true, {Time::zero()}), method, exact());
  const MethodResult closed = run_serving(deepseek_config(false, {Time::zero()}), method, exact());
  const Time gap = pass_of(flows.requests[0]) - pass_of(closed.requests[0]);
  CHECK(std::abs((gap - kPath * 61).seconds()) < 1e-6);
  CHECK(pass_of(closed.requests[0]) > Time::from_ms(100));
}

TEST_CASE("a KV transfer leaving the prefill NICs slows the next prompt's all-to-all") {
  const auto method = quant::method_from_name("bf16");
  const std::vector<Time> close{Time::zero(), Time::from_ms(1)};
  const MethodResult flows = run_serving(deepseek_config(true, close), method, exact());
  const MethodResult closed = run_serving(deepseek_config(false, close), method, exact());
  const Time first_gap = pass_of(flows.requests[0]) - pass_of(closed.requests[0]);
  const Time second_gap = pass_of(flows.requests[1]) - pass_of(closed.requests[1]);
  CHECK(second_gap > first_gap + Time::from_us(100));
  const MethodResult again = run_serving(deepseek_config(true, close), method, exact());
  for (std::size_t i = 0; i < 2; ++i) CHECK(again.requests[i].ttft() == flows.requests[i].ttft());
}
