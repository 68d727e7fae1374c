#include <doctest/doctest.h>

#include <algorithm>
#include <array>

#include "compute_fixtures.hpp"
#include "sim/compute/expert_parallel.hpp"
#include "sim/compute/timing_model.hpp"

namespace lynxsim {
namespace {

Time latency(const HardwareSpec& hw, int ranks) {
  return hw.scale_up_latency + hw.scale_up_step_latency * (ranks - 1);
}

ExpertParallelLayout dp_ep(int ranks, double imbalance = 1.0) {
  ExpertParallelLayout l;
  l.attention_dp = ranks;
  l.expert_parallel = ranks;
  l.load_imbalance = imbalance;
  return l;
}

}  // namespace

TEST_CASE("a MoE layer's dispatch and combine inside one node: N k (R-1)/R rows each way") {
  const HardwareSpec hw = test::shipped_hardware("h800-sxm");
  const ModelSpec v3 = test::shipped_model("deepseek-v3");
  const double bus = hw.scale_up_bandwidth.value * hw.scale_up_efficiency;
  const int tokens = 4096;
  const double out = tokens * 8.0 * 7 / 8 * 7168 * 2;
  const Time layer = expert_parallel_layer_time(hw, v3, 8, tokens, 1.0);
  CHECK(layer.seconds() == doctest::Approx(2.0 * (out / bus + latency(hw, 8).seconds())));
  const Time skewed = expert_parallel_layer_time(hw, v3, 8, tokens, 1.5);
  CHECK((skewed - latency(hw, 8) * 2).seconds() ==
        doctest::Approx(1.5 * (layer - latency(hw, 8) * 2).seconds()));
}

TEST_CASE("an all-to-all across nodes sends the other nodes' share through the NIC") {
  const HardwareSpec hw = test::shipped_hardware("h800-sxm");
  const double bus = hw.scale_up_bandwidth.value * hw.scale_up_efficiency;
  const double nic = hw.nic_bandwidth.value / 8.0 * kScaleOutEfficiency;
  const double bytes = 15e6;
  const Time t = all_to_all_time(hw, 16, Bytes{15'000'000}, 2.0, 8);
  const double expected = 2.0 * std::max(bytes * 7 / 15 / bus, bytes * 8 / 15 / nic);
  CHECK(t.seconds() == doctest::Approx(expected + latency(hw, 16).seconds()));
  CHECK(bytes * 8 / 15 / nic > bytes * 7 / 15 / bus);
  CHECK(all_to_all_time(hw, 16, Bytes{15'000'000}, 2.0, 16).seconds() ==
        doctest::Approx(2.0 * bytes / bus + latency(hw, 16).seconds()));
}

TEST_CASE("the flow model's share of an all-to-all adds up to the closed form on an idle fabric") {
  const HardwareSpec hw = test::shipped_hardware("h800-sxm");
  const ModelSpec v3 = test::shipped_model("deepseek-v3");
  const double nic = hw.nic_bandwidth.value / 8.0 * kScaleOutEfficiency;
  const int tokens = 4096;
  const ExpertTraffic t = expert_parallel_traffic(hw, v3, 16, tokens, 1.11, 8);
  CHECK(t.pair_bytes == doctest::Approx(2.0 * 1.11 * tokens * 8.0 / 16 * 7168 * 2));
  const double across_s = 8 * t.pair_bytes / nic;
  const Time closed = expert_parallel_layer_time(hw, v3, 16, tokens, 1.11, 8);
  CHECK(closed.seconds() == doctest::Approx(std::max(t.in_node_s, across_s) + t.latency.seconds()));
  CHECK(t.latency == latency(hw, 16) * 2);
  const ExpertTraffic one_node = expert_parallel_traffic(hw, v3, 8, tokens, 1.11, 8);
  CHECK(one_node.pair_bytes == 0.0);
  CHECK(one_node.in_node_s + one_node.latency.seconds() ==
        doctest::Approx(expert_parallel_layer_time(hw, v3, 8, tokens, 1.11, 8).seconds()));
}

TEST_CASE("with scale_out_flows a layer keeps the all-to-all's latency terms only") {
  const HardwareSpec hw = test::shipped_hardware("h800-sxm");
  const ModelSpec v3 = test::shipped_model("deepseek-v3");
  TimingModel closed(v3, hw, 16);
  closed.set_parallel_layout(dp_ep(16, 1.11));
  TimingModel flows(v3, hw, 16);
  ExpertParallelLayout layout = dp_ep(16, 1.11);
  layout.scale_out_flows = true;
  flows.set_parallel_layout(layout);
  CHECK(flows.expert_exchange_time(4096) == latency(hw, 16) * 2);
  const SequenceChunk prompt[] = {{16384, 0}};
  const ExpertTraffic t = flows.expert_traffic(prompt);
  const double moe_share = 58.0 / 61.0;
  const ExpertTraffic layer = expert_parallel_traffic(hw, v3, 16, 16384, 1.11, 8);
  CHECK(t.pair_bytes == doctest::Approx(moe_share * layer.pair_bytes));
  CHECK(closed.expert_traffic(prompt).pair_bytes == doctest::Approx(t.pair_bytes));
  const double nic = hw.nic_bandwidth.value / 8.0 * kScaleOutEfficiency;
  const Time gap = closed.layer_breakdown(prompt).total_time() - flows.layer_breakdown(prompt).total_time();
  CHECK(gap.seconds() == doctest::Approx(std::max(t.in_node_s, 8 * t.pair_bytes / nic)).epsilon(1e-6));
}

TEST_CASE("layouts: attention_dp divides tp, expert_parallel is 1 or tp and needs experts") {
  CHECK_NOTHROW(check_layout(dp_ep(16), 16, true));
  ExpertParallelLayout l = dp_ep(16);
  l.attention_dp = 3;
  CHECK_THROWS_AS(check_layout(l, 16, true), std::invalid_argument);
  l = dp_ep(16);
  l.expert_parallel = 4;
  CHECK_THROWS_AS(check_layout(l, 16, true), std::invalid_argument);
  CHECK_THROWS_AS(check_layout(dp_ep(16), 16, false), std::invalid_argument);
  CHECK_THROWS_AS(check_layout(dp_ep(16, 0.9), 16, true), std::invalid_argument);
}

TEST_CASE("DP attention: the busiest DP rank's sequences on its own GPUs, then the expert exchange") {
  const HardwareSpec hw = test::shipped_hardware("h800-sxm");
  const ModelSpec v3 = test::shipped_model("deepseek-v3");
  TimingModel dp(v3, hw, 16);
  dp.set_parallel_layout(dp_ep(16, 1.2));
  const TimingModel one_gpu(v3, hw, 1);
  std::array<SequenceChunk, 32> batch{};
  batch.fill({1, 8000});
  const SequenceChunk two[] = {{1, 8000}, {1, 8000}};
  const LayerBreakdown layer = dp.layer_breakdown(batch);
  CHECK(layer.attention.time == one_gpu.layer_breakdown(two).attention.time);
  const double moe_share = 58.0 / 61.0;
  const Time dense = TimingModel::ring_allreduce(hw, 16, Bytes{32LL * 7168 * 2});
  const Time expected = Time::from_seconds(moe_share * expert_parallel_layer_time(hw, v3, 16, 2, 1.2).seconds() +
                                           (1 - moe_share) * dense.seconds());
  CHECK(layer.allreduce_time.seconds() == doctest::Approx(expected.seconds()));
  CHECK(dp.expert_exchange_time(2) == expert_parallel_layer_time(hw, v3, 16, 2, 1.2));
}

TEST_CASE("DP attention keeps one copy of the attention weights per DP rank") {
  const HardwareSpec hw = test::shipped_hardware("h800-sxm");
  const ModelSpec v3 = test::shipped_model("deepseek-v3");
  const TimingModel tp(v3, hw, 16);
  TimingModel dp(v3, hw, 16);
  dp.set_parallel_layout(dp_ep(16));
  const double attention = v3.attention_params(LayerKind::full) * 61 * v3.weight_bits / 8.0;
  CHECK(static_cast<double>(dp.weight_bytes_per_rank().value - tp.weight_bytes_per_rank().value) ==
        doctest::Approx(attention * 15 / 16).epsilon(1e-6));
}

}  // namespace lynxsim
