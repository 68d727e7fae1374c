#include <doctest/doctest.h>

#include <utility>
#include <vector>

#include "serving_fixture.hpp"
#include "sim/compute/timing_model.hpp"
#include "sim/serving/serving_run.hpp"

using namespace lynxsim;
using namespace lynxsim::serving;

namespace {

MethodQuality quality() { return MethodQuality{0.9, "test", {}, 0.0}; }

// Only per-request costs: the per-step costs equal to the GPU profile's, so steps keep their times
// on GPUs without an additive layer overhead (an engine has none).
EngineSpec request_costs_only(const HardwareSpec& gpu) {
  EngineSpec e;
  e.name = "test";
  e.arrival_to_prefill = Time::from_ms(3.0);
  e.tokenize_per_token = Time::from_us(1.0);
  e.kv_connector_setup = Time::from_ms(20.0);
  e.first_decode_launch = Time::from_ms(5.0);
  e.step_overhead = gpu.step_overhead;
  return e;
}

ServingConfig quickstart_without_layer_overhead(int context, int requests) {
  ServingConfig c = test::quickstart_config(context, requests);
  c.prefill.gpu.layer_overhead = Time::zero();
  c.decode.gpu.layer_overhead = Time::zero();
  return c;
}

}  // namespace

TEST_CASE("an engine's per-request costs add to TTFT once each") {
  ServingConfig c = quickstart_without_layer_overhead(4096, 4);
  const MethodResult plain = run_serving(c, quant::method_from_name("lynx"), quality());
  c.engine = request_costs_only(c.prefill.gpu);
  const MethodResult with = run_serving(c, quant::method_from_name("lynx"), quality());
  const RequestMetrics& a = plain.requests.at(0);
  const RequestMetrics& b = with.requests.at(0);
  const Time admission = Time::from_ms(3.0) + Time::from_us(1.0) * 4096;
  const Time handover = Time::from_ms(25.0);
  CHECK(b.prefill_done_at - a.prefill_done_at == admission);
  CHECK(b.decode_ready_at - a.decode_ready_at == admission);
  // The decode GPU finishes its KV kernels during the handover instead of after it, so the first
  // step may start up to those kernels' time (well under 1 ms here) earlier than a pure shift.
  for (const auto& [after, before] : {std::pair{b.ttft_speculative(), a.ttft_speculative()},
                                      std::pair{b.ttft_commit(), a.ttft_commit()}}) {
    CHECK(after - before <= admission + handover);
    CHECK(after - before >= admission + handover - Time::from_ms(1.0));
  }
}

TEST_CASE("a decode side that tokenizes the prompt again adds that tokenization to the handover") {
  ServingConfig c = quickstart_without_layer_overhead(4096, 4);
  c.engine = request_costs_only(c.prefill.gpu);
  const MethodResult once = run_serving(c, quant::method_from_name("bf16"), quality());
  c.engine->decode_tokenizes_prompt = true;
  const MethodResult twice = run_serving(c, quant::method_from_name("bf16"), quality());
  const RequestMetrics& a = once.requests.at(0);
  const RequestMetrics& b = twice.requests.at(0);
  CHECK(b.prefill_done_at == a.prefill_done_at);
  CHECK(b.ttft_commit() - a.ttft_commit() == Time::from_us(1.0) * 4096);
  CHECK(c.engine->decode_handover(1000) - c.engine->decode_handover(0) == Time::from_us(1000.0));
}

TEST_CASE("clients that send token ids are charged no tokenization on either side") {
  ServingConfig c = quickstart_without_layer_overhead(4096, 4);
  c.engine = request_costs_only(c.prefill.gpu);
  c.engine->decode_tokenizes_prompt = true;
  const MethodResult text = run_serving(c, quant::method_from_name("bf16"), quality());
  c.prompt_token_ids = true;
  const MethodResult ids = run_serving(c, quant::method_from_name("bf16"), quality());
  const RequestMetrics& a = text.requests.at(0);
  const RequestMetrics& b = ids.requests.at(0);
  CHECK(a.prefill_done_at - b.prefill_done_at == Time::from_us(1.0) * 4096);
  CHECK(a.ttft_commit() - b.ttft_commit() == Time::from_us(1.0) * 4096 * 2);
}

TEST_CASE("an engine's step costs replace the GPU profile's step and layer overheads") {
  const ModelSpec m = test::model_card("llama-3.1-8b");
  const HardwareSpec gpu = test::gpu_profile("h100-sxm");
  EngineSpec graphs;
  graphs.step_overhead = Time::from_ms(1.0);
  graphs.step_overhead_per_sequence = Time::from_us(40.0);
  graphs.layer_launch_overhead = Time::from_us(30.0);
  const TimingModel none(m, gpu, 1);
  const TimingModel with_graphs(m, gpu, 1, graphs);
  const std::vector<int> batch(8, 2048);
  const Time base =
      none.decode_step(batch).time - gpu.step_overhead - gpu.layer_overhead * m.num_layers;
  CHECK(with_graphs.decode_step(batch).time ==
        base + Time::from_ms(1.0) + Time::from_us(40.0) * 8);
}

namespace {

// `engine` adds `decode` to an 8 x 2048-token decode step (one-step and cached timing) and `prompt`
// to a 4096-token prompt pass at `tp`, against `without`.
void check_added_step_cost(const EngineSpec& without, const EngineSpec& engine, int tp, Time decode,
                           Time prompt) {
  const std::vector<int> batch(8, 2048);
  const SequenceChunk chunk{4096, 0};
  const TimingModel a(test::model_card("llama-3.1-8b"), test::gpu_profile("h100-sxm"), tp, engine);
  const TimingModel b(a.model(), a.hardware(), tp, without);
  CHECK(a.decode_step(batch).time == b.decode_step(batch).time + decode);
  CHECK(a.decode_steps(8).time(8 * 2048) == b.decode_steps(8).time(8 * 2048) + decode);
  CHECK(a.pass({&chunk, 1}, 1).time == b.pass({&chunk, 1}, 1).time + prompt);
}

}  // namespace

TEST_CASE("at tensor parallelism above 1 every pass and decode step adds the engine's TP step cost") {
  EngineSpec without;
  without.step_overhead = Time::from_ms(1.0);
  EngineSpec engine = without;
  engine.tp_step_overhead = Time::from_us(600.0);
  for (const int tp : {1, 2, 4}) {
    CAPTURE(tp);
    const Time extra = tp > 1 ? Time::from_us(600.0) : Time::zero();
    check_added_step_cost(without, engine, tp, extra, extra);
  }
}

TEST_CASE("every pass and decode step adds the engine's host cost per token its sequences hold") {
  EngineSpec without;
  without.step_overhead = Time::from_ms(1.0);
  EngineSpec engine = without;
  engine.step_overhead_per_context_token = Time::from_ns(24);
  check_added_step_cost(without, engine, 2, Time::from_seconds(24e-9 * 8 * 2049),
                        Time::from_seconds(24e-9 * 4096));
}

TEST_CASE("without CUDA graphs a layer takes the longer of its host launch time and its GPU time") {
  const ModelSpec m = test::model_card("llama-3.1-8b");
  const HardwareSpec gpu = test::gpu_profile("h100-sxm");
  EngineSpec graphs;
  graphs.step_overhead = Time::from_ms(1.0);
  EngineSpec eager = graphs;
  eager.cuda_graphs = false;
  eager.prefill_cuda_graphs = false;
  const std::vector<int> batch(8, 2048);
  const TimingModel with_graphs(m, gpu, 1, graphs);
  const Time layers = with_graphs.decode_step(batch).time - Time::from_ms(1.0) - with_graphs.lm_head(8).time;
  const Time gpu_layer = Time::from_ps(layers.ps() / m.num_layers);
  REQUIRE(gpu_layer * m.num_layers == layers);
  const auto step = [&](Time launch) {
    eager.layer_launch_overhead = launch;
    return TimingModel(m, gpu, 1, eager).decode_step(batch).time;
  };
  CHECK(step(Time::from_ps(gpu_layer.ps() / 2)) == with_graphs.decode_step(batch).time);
  CHECK(step(gpu_layer * 3) - step(gpu_layer * 2) == gpu_layer * m.num_layers);
  const TimingModel host_bound(m, gpu, 1, eager);
  const std::vector<SequenceChunk> one{{1, 2048}};
  CHECK(host_bound.layer_breakdown(one).total_time() == gpu_layer * 3);
}

TEST_CASE("prefill passes follow prefill_cuda_graphs, decode steps cuda_graphs") {
  const ModelSpec m = test::model_card("llama-3.1-8b");
  const HardwareSpec gpu = test::gpu_profile("h100-sxm");
  EngineSpec eager_prefill;
  eager_prefill.prefill_cuda_graphs = false;
  eager_prefill.layer_launch_overhead = Time::from_ms(1.0);
  EngineSpec eager_decode = eager_prefill;
  eager_decode.prefill_cuda_graphs = true;
  eager_decode.cuda_graphs = false;
  const TimingModel p(m, gpu, 1, eager_prefill);
  const TimingModel d(m, gpu, 1, eager_decode);
  const std::vector<int> batch(4, 512);
  CHECK(p.prefill(256).time == p.lm_head(1).time + Time::from_ms(1.0) * m.num_layers);
  CHECK(d.prefill(256).time < Time::from_ms(1.0) * m.num_layers);
  CHECK(d.decode_step(batch).time == d.lm_head(4).time + Time::from_ms(1.0) * m.num_layers);
  CHECK(p.decode_step(batch).time < Time::from_ms(1.0) * m.num_layers);
  CHECK(d.decode_steps(4).time(4 * 512) == d.decode_step(batch).time);
}

TEST_CASE("tp_comm_overlap hides that share of the all-reduces, at most the layer's GEMM and elementwise time") {
  const ModelSpec m = test::model_card("llama-3.1-8b");
  const HardwareSpec gpu = test::gpu_profile("h100-sxm");
  EngineSpec serial;
  EngineSpec half = serial;
  half.tp_comm_overlap = 0.5;
  EngineSpec full = serial;
  full.tp_comm_overlap = 1.0;
  const SequenceChunk chunk{4096, 0};
  const LayerBreakdown none = TimingModel(m, gpu, 4, serial).layer_breakdown({&chunk, 1});
  const LayerBreakdown some = TimingModel(m, gpu, 4, half).layer_breakdown({&chunk, 1});
  const Time allreduce = TimingModel(m, gpu, 4).allreduce_time(Bytes{2LL * 4096 * m.hidden_size}) * 2;
  CHECK(none.allreduce_time == allreduce);
  CHECK(some.allreduce_time == allreduce - Time::from_seconds(0.5 * allreduce.seconds()));
  HardwareSpec fast = gpu;
  fast.hbm_bandwidth = {1e18};
  fast.peak_bf16 = {1e21};
  fast.kernel_floor = Time::from_us(1.0);
  const LayerBreakdown short_compute = TimingModel(m, fast, 4, full).layer_breakdown({&chunk, 1});
  const Time compute = short_compute.linear.time + short_compute.elementwise.time;
  REQUIRE(compute < allreduce);
  CHECK(short_compute.allreduce_time == allreduce - compute);
}

TEST_CASE("an engine's small-message all-reduce replaces the ring's latencies up to its size cap") {
  const ModelSpec m = test::model_card("llama-3.1-70b");
  const HardwareSpec gpu = test::gpu_profile("h100-sxm");
  EngineSpec engine;
  engine.small_allreduce_latency = Time::from_us(10.5);
  engine.small_allreduce_max_bytes = 32LL << 20;
  const TimingModel with(m, gpu, 8, engine);
  const TimingModel without(m, gpu, 8);
  for (const std::int64_t bytes : {16LL << 10, 1LL << 20, 32LL << 20}) {
    CAPTURE(bytes);
    const Time ring = TimingModel::ring_allreduce(gpu, 8, Bytes{bytes});
    const Time own = TimingModel::ring_transfer(gpu, 8, Bytes{bytes}) + Time::from_us(10.5);
    CHECK(without.tp_allreduce(8, Bytes{bytes}) == ring);
    CHECK(with.tp_allreduce(8, Bytes{bytes}) == min(ring, own));
  }
  const Bytes above{(32LL << 20) + 1};
  CHECK(with.tp_allreduce(8, above) == TimingModel::ring_allreduce(gpu, 8, above));
  CHECK(with.tp_allreduce(1, Bytes{1LL << 20}) == Time::zero());
  EngineSpec slow = engine;
  slow.small_allreduce_latency = Time::from_ms(1.0);
  CHECK(TimingModel(m, gpu, 8, slow).tp_allreduce(8, Bytes{1LL << 20}) ==
        TimingModel::ring_allreduce(gpu, 8, Bytes{1LL << 20}));
  const SequenceChunk token{1, 4096};
  CHECK(with.layer_breakdown({&token, 1}).allreduce_time ==
        with.tp_allreduce(8, Bytes{2LL * m.hidden_size}) * 2);
}
