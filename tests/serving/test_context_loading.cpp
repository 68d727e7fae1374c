#include <doctest/doctest.h>

#include <vector>

#include "serving_fixture.hpp"
#include "sim/compute/timing_model.hpp"
#include "sim/serving/serving_run.hpp"

using namespace lynxsim;
using namespace lynxsim::serving;

namespace {

constexpr int kContext = 8192;
constexpr int kCached = 8000;

ServingConfig loading_config(LoadTarget target) {
  ServingConfig c = test::quickstart_config(kContext, 4);
  c.streaming = StreamingMode::after_prefill;
  c.context_loading = {true, "prefill", target, kCached, 0.0};
  if (target != LoadTarget::aggregated) {
    c.make_network = test::leaf_spine(3, 2, 25e9);
    c.context_loading.store_host = "leaf2.h1";
  }
  return c;
}

RequestMetrics run_one(const ServingConfig& c, const char* method) {
  MethodQuality quality;
  quality.acceptance = 1.0;
  const MethodResult r = run_serving(c, quant::method_from_name(method), quality);
  REQUIRE(r.requests.size() == 1);
  return r.requests.front();
}

Time suffix_prefill(const ServingConfig& c) {
  const TimingModel timing(c.model, c.decode.gpu, 1);
  const SequenceChunk chunk{kContext - kCached, kCached};
  return timing.pass(std::span<const SequenceChunk>(&chunk, 1), 1).time;
}

}  // namespace

TEST_CASE("aggregated bf16: load, then the suffix prefill, then one decode step make the first token") {
  const ServingConfig c = loading_config(LoadTarget::aggregated);
  const RequestMetrics m = run_one(c, "bf16");
  const double bytes = static_cast<double>(kCached) * 128 * 1024;
  const double load = 1e-3 + 10e-6 + bytes / (0.85 * 25e9 / 8);
  CHECK(m.cached_tokens == kCached);
  CHECK(m.prefill_instance == -1);
  CHECK(m.cache_fetch_time.seconds() == doctest::Approx(load).epsilon(1e-9));
  CHECK(m.prefill_start_at == m.arrived_at + m.cache_fetch_time);
  CHECK(m.prefill_done_at - m.prefill_start_at == suffix_prefill(c));
  CHECK(m.decode_ready_at == m.prefill_done_at);
  CHECK(m.exposed_transfer_time() == Time::zero());
  const TimingModel timing(c.model, c.decode.gpu, 1);
  const std::vector<int> lengths{kContext};
  CHECK(m.first_commit_at - m.decode_ready_at == timing.decode_step(lengths).time);
  CHECK(m.committed_tokens == 4);
}

TEST_CASE("aggregated lynx drafts when int4 would answer and commits no earlier than int8") {
  const ServingConfig c = loading_config(LoadTarget::aggregated);
  const RequestMetrics lynx = run_one(c, "lynx");
  const RequestMetrics int4 = run_one(c, "int4");
  const RequestMetrics int8 = run_one(c, "int8");
  CHECK(lynx.first_token_at == int4.first_token_at);
  CHECK(lynx.first_token_at < lynx.first_commit_at);
  // The full KV needs every plane, the merge and a second suffix prefill on the exact prefix:
  // int8's ready time (all bytes, a dequantize, one suffix prefill) to within the kernels' gap.
  CHECK(lynx.full_kv_at.seconds() == doctest::Approx(int8.decode_ready_at.seconds()).epsilon(2e-3));
  CHECK(lynx.full_kv_at - lynx.decode_ready_at >= suffix_prefill(c));
  CHECK(lynx.ttft_commit() >= int8.ttft_commit());
  CHECK(lynx.verifications >= 1);
  CHECK(lynx.committed_tokens == 4);
}

TEST_CASE("the decode target sends the prefix from the store and only the suffix from prefill") {
  const ServingConfig to_decode = loading_config(LoadTarget::decode);
  const ServingConfig to_prefill = loading_config(LoadTarget::prefill);
  for (const char* name : {"int8", "lynx"}) {
    CAPTURE(name);
    const RequestMetrics d = run_one(to_decode, name);
    const RequestMetrics p = run_one(to_prefill, name);
    CHECK(d.cached_tokens == kCached);
    CHECK(p.cached_tokens == kCached);
    // The store's link carries the prefix twice (to prefill and to decode) for the decode target.
    CHECK(d.cache_fetch_time > p.cache_fetch_time);
    CHECK(d.prefill_done_at - d.prefill_start_at == p.prefill_done_at - p.prefill_start_at);
    CHECK(d.exposed_transfer_time() * 10 < p.exposed_transfer_time());
    CHECK(d.committed_tokens == 4);
  }
}

TEST_CASE("a cached fraction loads floor(f * context) tokens, at most context - 1") {
  ContextLoadingSpec spec;
  spec.cached_fraction = 0.5;
  CHECK(spec.cached_for(1001) == 500);
  spec.cached_fraction = 1.0;
  CHECK(spec.cached_for(1000) == 999);
  spec.cached_tokens = 4096;
  CHECK(spec.cached_for(1000) == 999);
  CHECK(spec.cached_for(8192) == 4096);
  spec.cached_tokens = 0;
  spec.cached_fraction = 0.0001;
  CHECK(spec.cached_for(100) == 0);
}

TEST_CASE("aggregated cachegen loads its stored chunks from the store") {
  ServingConfig c = loading_config(LoadTarget::aggregated);
  MethodQuality quality;
  quality.measured_size_ratio = 0.2;
  const MethodResult r = run_serving(c, quant::method_from_name("cachegen"), quality);
  const RequestMetrics& m = r.requests.front();
  CHECK(m.prefill_instance == -1);
  CHECK(m.decode_ready_at == m.prefill_done_at);
  CHECK(m.committed_tokens == 4);
  int chunks = m.cachegen_text_chunks;
  for (const int n : m.cachegen_chunks_per_level) chunks += n;
  const int chunk_tokens = quant::method_from_name("cachegen").cachegen.chunk_tokens;
  CHECK(chunks == (kCached + chunk_tokens - 1) / chunk_tokens);
}

TEST_CASE("a prefix-cache hit loaded to decode leaves the prefill instance only the suffix to send") {
  ServingConfig c = test::quickstart_config(kContext, 4);
  c.streaming = StreamingMode::after_prefill;
  c.make_network = test::leaf_spine(3, 2, 25e9);
  std::vector<std::uint32_t> blocks(16);
  for (std::uint32_t i = 0; i < 16; ++i) blocks[i] = i;
  c.requests = {{Time::zero(), kContext, 4, blocks}, {Time::from_seconds(10), kContext, 4, blocks}};
  c.prefix_cache = {true, "leaf2.h1", Bytes{0}, 512, LoadTarget::prefill};
  ServingConfig to_decode = c;
  to_decode.prefix_cache.target = LoadTarget::decode;
  for (const char* name : {"int8", "lynx"}) {
    CAPTURE(name);
    const MethodResult p = run_serving(c, quant::method_from_name(name), MethodQuality{});
    const MethodResult d = run_serving(to_decode, quant::method_from_name(name), MethodQuality{});
    CHECK(d.requests[0].ttft() == p.requests[0].ttft());
    CHECK(d.requests[1].cached_tokens == kContext - 1);
    CHECK(d.requests[1].exposed_transfer_time() * 4 < p.requests[1].exposed_transfer_time());
    CHECK(d.requests[1].committed_tokens == 4);
  }
}
