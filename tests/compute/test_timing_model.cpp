#include <doctest/doctest.h>

#include <vector>

#include "compute_fixtures.hpp"
#include "sim/compute/timing_model.hpp"

namespace lynxsim {
namespace {

using test::round_device;
using test::tiny_model;

TEST_CASE("per-layer prefill FLOPs match the closed form for a small model") {
  const TimingModel tm(tiny_model(), round_device(), 1);
  const SequenceChunk chunk{10, 0};
  const LayerBreakdown layer = tm.layer_breakdown({&chunk, 1});
  CHECK(layer.linear.flops == doctest::Approx(2.0 * 10 * 36864));
  CHECK(layer.attention.flops == doctest::Approx(4.0 * 10 * 5 * 4 * 16));
  const OpTiming op = tm.prefill_layer(10, 0);
  CHECK(op.flops == doctest::Approx(737280.0 + 12800.0));
}

TEST_CASE("a chunk after cached tokens counts attention as new * (cached + new / 2)") {
  const TimingModel tm(tiny_model(), round_device(), 1);
  const SequenceChunk chunk{8, 100};
  const LayerBreakdown layer = tm.layer_breakdown({&chunk, 1});
  CHECK(layer.attention.flops == doctest::Approx(4.0 * 8 * (100 + 4) * 4 * 16));
}

TEST_CASE("chunked prefill attention FLOPs add up exactly to one full causal prefill") {
  const TimingModel tm(tiny_model(), round_device(), 1);
  double chunked = 0.0;
  for (int cached = 0; cached < 4096; cached += 512) chunked += tm.prefill_layer(512, cached).flops;
  const double linear = 2.0 * 4096 * 36864;
  CHECK(chunked - linear == doctest::Approx(4.0 * 4096.0 * 4096.0 / 2 * 4 * 16).epsilon(1e-12));
  CHECK(tm.prefill_layer(4096, 0).flops == doctest::Approx(chunked).epsilon(1e-12));
}

TEST_CASE("a sequence without new tokens adds no attention work to a pass") {
  const TimingModel tm(tiny_model(), round_device(), 1);
  const std::vector<SequenceChunk> alone{{4, 100}};
  const std::vector<SequenceChunk> with_idle{{4, 100}, {0, 5000}};
  CHECK(tm.layer_breakdown(with_idle).attention.bytes == tm.layer_breakdown(alone).attention.bytes);
  CHECK(tm.pass(with_idle, 1).time == tm.pass(alone, 1).time);
}

TEST_CASE("verification FLOPs are k + 1 query tokens through all layers and the LM head") {
  const TimingModel tm(tiny_model(), round_device(), 1);
  const double per_layer = 2.0 * 9 * 36864 + 4.0 * 9 * (1000 + 4.5) * 4 * 16;
  const double head = 2.0 * 9 * 100 * 64;
  CHECK(tm.verify(8, 1000).flops == doctest::Approx(2 * per_layer + head));
}

TEST_CASE("a prefill is its layers plus the LM head of one row plus the step overhead") {
  const ModelSpec m = test::shipped_model("llama-3.1-70b");
  const HardwareSpec hw = test::shipped_hardware("h100-sxm");
  const TimingModel tm(m, hw, 4);
  const Time by_layers = tm.prefill_layer(5000, 0).time * m.num_layers + tm.lm_head(1).time +
                         hw.step_overhead;
  CHECK(tm.prefill(5000).time == by_layers);
}

TEST_CASE("a compute-bound layer takes FLOPs over effective peak plus the layer overhead") {
  HardwareSpec hw = round_device();
  hw.hbm_bandwidth = {1e18};
  const TimingModel tm(tiny_model(), hw, 1);
  const OpTiming op = tm.prefill_layer(10, 0);
  CHECK(op.bound == Bound::compute);
  CHECK(op.time.ps() == 737280 + 25600 + 1'000'000);
}

TEST_CASE("a causal chunk's masked work runs at the non-causal rate, a decode step has none") {
  HardwareSpec hw = round_device();
  hw.hbm_bandwidth = {1e18};
  const TimingModel plain(tiny_model(), hw, 1);
  hw.causal_overhead_tokens = 50.0;
  const TimingModel causal(tiny_model(), hw, 1);
  const SequenceChunk prompt{100, 0};
  const OpTiming before = plain.layer_breakdown({&prompt, 1}).attention;
  const OpTiming after = causal.layer_breakdown({&prompt, 1}).attention;
  CHECK(after.flops == before.flops);
  CHECK(before.time.seconds() == doctest::Approx(256.0 * 100 * 50 / 0.5e12).epsilon(1e-9));
  CHECK(after.time.seconds() == doctest::Approx(256.0 * (100 * 50 + 50 * 100) / 0.5e12).epsilon(1e-9));
  const std::vector<SequenceChunk> steps(4, SequenceChunk{1, 300});
  CHECK(causal.layer_breakdown(steps).attention.time == plain.layer_breakdown(steps).attention.time);
}

TEST_CASE("prefill time grows quadratically in context once attention dominates") {
  const TimingModel tm(test::shipped_model("llama-3.1-8b"), test::shipped_hardware("h100-sxm"), 1);
  const SequenceChunk a{512 * 1024, 0};
  const SequenceChunk b{1024 * 1024, 0};
  CHECK(tm.layer_breakdown({&b, 1}).attention.flops /
            tm.layer_breakdown({&a, 1}).attention.flops == doctest::Approx(4.0).epsilon(1e-12));
  const double long_ratio = tm.prefill(1024 * 1024).time.seconds() / tm.prefill(512 * 1024).time.seconds();
  CHECK(long_ratio > 3.6);
  CHECK(long_ratio < 4.0);
  const double short_ratio = tm.prefill(2048).time.seconds() / tm.prefill(1024).time.seconds();
  CHECK(short_ratio < 2.2);
  CHECK(tm.prefill(32768).bound == Bound::compute);
}

TEST_CASE("a decode step at batch 1 is memory-bound and streams weights plus KV") {
  const ModelSpec m = test::shipped_model("llama-3.1-8b");
  const HardwareSpec hw = test::shipped_hardware("h100-sxm");
  const TimingModel tm(m, hw, 1);
  const std::vector<int> kv{32768};
  const OpTiming step = tm.decode_step(kv);
  CHECK(step.bound == Bound::memory);
  const double bytes = tm.weight_bytes_per_rank().as_double() +
                       32769.0 * m.kv_bytes_per_token_bf16().as_double();
  const double stream_s = bytes / (hw.hbm_bandwidth.value * hw.memory_efficiency);
  const double fixed_s = m.num_layers * hw.layer_overhead.seconds() + hw.step_overhead.seconds();
  CHECK(step.time.seconds() == doctest::Approx(stream_s + fixed_s).epsilon(0.01));
}

TEST_CASE("decode cost grows with every sequence's KV length") {
  const TimingModel tm(test::shipped_model("llama-3.1-8b"), test::shipped_hardware("h100-sxm"), 1);
  const std::vector<int> short_kv{1024, 1024};
  const std::vector<int> mixed_kv{1024, 65536};
  CHECK(tm.decode_step(mixed_kv).time > tm.decode_step(short_kv).time);
  CHECK(tm.decode_step(mixed_kv).bytes > tm.decode_step(short_kv).bytes);
}

TEST_CASE("tensor parallelism halves the compute and adds two all-reduces per layer") {
  HardwareSpec hw = round_device();
  hw.hbm_bandwidth = {1e18};
  const TimingModel tp1(tiny_model(), hw, 1);
  const TimingModel tp2(tiny_model(), hw, 2);
  const SequenceChunk chunk{1000, 0};
  const LayerBreakdown one = tp1.layer_breakdown({&chunk, 1});
  const LayerBreakdown two = tp2.layer_breakdown({&chunk, 1});
  CHECK(two.linear.flops == doctest::Approx(one.linear.flops / 2));
  CHECK(two.linear.time.ps() == doctest::Approx(one.linear.time.ps() / 2.0).epsilon(1e-9));
  CHECK(two.attention.time.ps() == doctest::Approx(one.attention.time.ps() / 2.0).epsilon(1e-9));
  CHECK(one.allreduce_time == Time::zero());
  const double activation_bytes = 1000.0 * 64 * 2;
  const double one_allreduce_s = 2.0 * 1 / 2 * activation_bytes / 100e9 + 2e-6;
  CHECK(two.allreduce_time.seconds() == doctest::Approx(2 * one_allreduce_s).epsilon(1e-9));
}

TEST_CASE("ring all-reduce costs 2 (t-1)/t bytes over the link plus latency") {
  const TimingModel tp4(tiny_model(), round_device(), 4);
  const Time t = tp4.allreduce_time(Bytes{400'000'000});
  CHECK(t.seconds() == doctest::Approx(1.5 * 4e8 / 100e9 + 2e-6).epsilon(1e-12));
}

TEST_CASE("each of the 2 (t-1) ring steps adds the hop latency") {
  HardwareSpec hw = round_device();
  hw.scale_up_step_latency = Time::from_us(1.0);
  const Bytes bytes{1'000'000};
  for (int t : {2, 4, 8}) {
    const double link_s = 2.0 * (t - 1) / t * 1e6 / 100e9;
    CHECK(TimingModel::ring_allreduce(hw, t, bytes).seconds() ==
          doctest::Approx(link_s + 2e-6 + 2.0 * (t - 1) * 1e-6).epsilon(1e-12));
  }
  CHECK(TimingModel::ring_allreduce(hw, 1, bytes) == Time::zero());
}

TEST_CASE("with an LL latency an all-reduce takes the faster of the Simple ring and LL") {
  HardwareSpec hw = round_device();
  hw.scale_up_latency = Time::from_us(20.0);
  hw.scale_up_step_latency = Time::from_us(0.5);
  hw.scale_up_ll_latency = Time::from_us(8.0);
  for (const double bytes : {1e4, 1e6, 1e8}) {
    CAPTURE(bytes);
    const double link_s = 2.0 * 7 / 8 * bytes / 100e9;
    const double simple = link_s + 20e-6 + 14 * 0.5e-6;
    const double ll = 2.0 * link_s + 8e-6 + 14 * 0.5e-6;
    CHECK(TimingModel::ring_allreduce(hw, 8, Bytes{static_cast<std::int64_t>(bytes)}).seconds() ==
          doctest::Approx(std::min(simple, ll)).epsilon(1e-12));
  }
  HardwareSpec simple_only = hw;
  simple_only.scale_up_ll_latency = Time::zero();
  CHECK(TimingModel::ring_allreduce(hw, 8, Bytes{10'000}) <
        TimingModel::ring_allreduce(simple_only, 8, Bytes{10'000}));
  CHECK(TimingModel::ring_allreduce(hw, 8, Bytes{100'000'000}) ==
        TimingModel::ring_allreduce(simple_only, 8, Bytes{100'000'000}));
}

TEST_CASE("KV heads replicate when TP exceeds the KV heads") {
  const ModelSpec qwen = test::shipped_model("qwen2.5-7b");
  const HardwareSpec hw = round_device();
  const TimingModel tp4(qwen, hw, 4);
  const TimingModel tp8(qwen, hw, 8);
  CHECK(tp4.kv_replication() == 1);
  CHECK(tp4.kv_bytes_per_token_per_rank() * 4 == qwen.kv_bytes_per_token_bf16());
  CHECK(tp8.kv_replication() == 2);
  CHECK(tp8.kv_bytes_per_token_per_rank() * 8 == qwen.kv_bytes_per_token_bf16() * 2);
  CHECK((tp8.kv_bytes_per_token_per_rank() * 8).value == 112 * 1024);
  const TimingModel llama_tp16(test::shipped_model("llama-3.1-8b"), hw, 16);
  CHECK(llama_tp16.kv_replication() == 2);
}

TEST_CASE("kernel cost is launches times launch cost plus bytes over effective HBM") {
  const TimingModel tm(tiny_model(), round_device(), 1);
  const Time t = tm.kernel_time(Bytes{1'000'000'000}, Bytes{500'000'000}, 3);
  CHECK(t == Time::from_us(12.0) + Time::from_seconds(1.5e9 / (0.5 * 1e12)));
  CHECK(tm.kernel_time(Bytes{0}, Bytes{0}, 0) == Time::zero());
}

TEST_CASE("verification of k drafts costs more than a decode step and less than k steps") {
  const TimingModel tm(test::shipped_model("llama-3.1-8b"), test::shipped_hardware("h100-sxm"), 1);
  const std::vector<int> kv{8192};
  const Time step = tm.decode_step(kv).time;
  const Time verify = tm.verify(8, 8192).time;
  CHECK(verify > step);
  CHECK(verify < step * 8);
}

TEST_CASE("bad arguments are rejected") {
  CHECK_THROWS_AS(TimingModel(tiny_model(), round_device(), 0), std::invalid_argument);
  ModelSpec broken = tiny_model();
  broken.num_kv_heads = 0;
  CHECK_THROWS_AS(TimingModel(broken, round_device(), 1), std::invalid_argument);
  const TimingModel tm(tiny_model(), round_device(), 1);
  CHECK_THROWS_AS(tm.prefill(0), std::invalid_argument);
  CHECK_THROWS_AS(tm.decode_step({}), std::invalid_argument);
  CHECK_THROWS_AS(tm.prefill_layer(-1, 0), std::invalid_argument);
}

}  // namespace
}  // namespace lynxsim
