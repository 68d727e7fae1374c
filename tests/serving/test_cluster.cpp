#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "serving_fixture.hpp"
#include "sim/serving/serving_events.hpp"
#include "sim/serving/serving_run.hpp"
#include "sim/serving/workload_synthetic.hpp"

using namespace lynxsim;
using namespace lynxsim::serving;

namespace {

// 2 prefill + 2 decode H100 instances (TP1) of Llama-3.1-8B on a 4-host leaf-spine.
ServingConfig cluster_config(int count, double rate_per_s, int context = 2048, int output = 64) {
  ServingConfig c;
  c.model = test::model_card("llama-3.1-8b");
  c.prefill.gpu = test::gpu_profile("h100-sxm");
  c.prefill.count = 2;
  c.decode = c.prefill;
  c.make_network = test::leaf_spine(2, 2, 100e9);
  c.router = RouterPolicy::least_loaded;
  c.layers_per_flow = 8;
  SyntheticWorkload w;
  w.count = count;
  w.rate_per_s = rate_per_s;
  w.context = {LengthKind::uniform, 1, context / 2, context};
  w.output = {LengthKind::uniform, 1, 1, output};
  c.requests = generate_workload(w, 5);
  return c;
}

MethodQuality quality(double acceptance) { return MethodQuality{acceptance, "test", {}, 0.0}; }

double mean_ttft(const MethodResult& r) {
  double sum = 0.0;
  for (const auto& m : r.requests) sum += m.ttft().seconds();
  return sum / static_cast<double>(r.requests.size());
}

}  // namespace

TEST_CASE("every request that arrives finishes exactly once with its output length") {
  const ServingConfig c = cluster_config(400, 20.0);
  for (const char* name : {"int8", "lynx"}) {
    CAPTURE(name);
    std::multiset<std::uint64_t> done;
    const auto hook = [&done](Simulator& sim) {
      sim.bus().subscribe<RequestDone>([&done](const RequestDone& e) { done.insert(e.request); });
    };
    const MethodResult r = run_serving(c, quant::method_from_name(name), quality(0.7), hook);
    REQUIRE(r.requests.size() == 400);
    CHECK(done.size() == 400);
    for (const auto& m : r.requests) {
      CHECK(done.count(m.id) == 1);
      CHECK(m.committed_tokens == m.output_tokens);
      CHECK(m.last_token_at >= m.first_commit_at);
      CHECK(m.first_commit_at >= m.first_token_at);
      CHECK(m.decode_joined_at >= m.decode_ready_at);
    }
    CHECK(r.cluster.num_prefill == 2);
    CHECK(r.cluster.requests_per_s > 0.0);
  }
}

TEST_CASE("Little's law holds on a long steady run") {
  const ServingConfig c = cluster_config(3000, 25.0, 1024, 32);
  const MethodResult r = run_serving(c, quant::method_from_name("lynx"), quality(0.8));
  const Time begin = r.requests.front().arrived_at;
  Time end = begin;
  double w_sum = 0.0;
  for (const auto& m : r.requests) {
    end = max(end, m.last_token_at);
    w_sum += m.e2e().seconds();
  }
  const double span = (end - begin).seconds();
  const double throughput = static_cast<double>(r.requests.size()) / span;
  const double w = w_sum / static_cast<double>(r.requests.size());
  const int samples = 20000;
  double in_system = 0.0;
  for (int k = 0; k < samples; ++k) {
    const Time t = begin + Time::from_seconds(span * (k + 0.5) / samples);
    for (const auto& m : r.requests) in_system += (m.arrived_at <= t && t < m.last_token_at) ? 1 : 0;
  }
  CHECK(in_system / samples == doctest::Approx(throughput * w).epsilon(0.02));
  CHECK(in_system / samples > 1.0);
}

TEST_CASE("adding bandwidth never increases mean TTFT without contention") {
  for (const char* name : {"bf16", "int8", "lynx"}) {
    double previous = 1e9;
    for (const double gbps : {5.0, 10.0, 25.0, 50.0, 100.0, 400.0}) {
      CAPTURE(name);
      CAPTURE(gbps);
      ServingConfig c = cluster_config(0, 1.0);
      for (int i = 0; i < 6; ++i) c.requests.push_back({Time::from_seconds(10.0 * i), 4096 * (i + 1), 8, {}});
      c.make_network = test::leaf_spine(2, 2, gbps * 1e9);
      const double ttft = mean_ttft(run_serving(c, quant::method_from_name(name), quality(0.9)));
      CHECK(ttft <= previous);
      previous = ttft;
    }
  }
}

TEST_CASE("decode memory never exceeds its capacity and full memory makes requests wait") {
  ServingConfig c = cluster_config(300, 40.0, 16384, 256);
  c.decode.gpu.hbm_capacity = Bytes{24'000'000'000};
  c.router = RouterPolicy::memory_aware;
  c.kv_admission.policy = KvAdmissionPolicy::staging;
  std::int64_t worst_margin = INT64_MAX;
  int changes = 0;
  const auto hook = [&](Simulator& sim) {
    sim.bus().subscribe<DecodeMemoryChanged>([&](const DecodeMemoryChanged& e) {
      worst_margin = std::min(worst_margin, e.capacity_bytes - e.used_bytes);
      ++changes;
    });
  };
  const MethodResult r = run_serving(c, quant::method_from_name("lynx"), quality(0.7), hook);
  CHECK(changes >= 600);
  CHECK(worst_margin >= 0);
  CHECK(r.cluster.peak_decode_memory_fraction <= 1.0);
  CHECK(r.cluster.peak_decode_memory_fraction > 0.8);
  const auto waited = std::count_if(r.requests.begin(), r.requests.end(), [](const RequestMetrics& m) {
    return m.memory_wait_time > Time::zero();
  });
  CHECK(waited > 0);
  for (const auto& m : r.requests) CHECK(m.memory_wait_time <= m.decode_admission_time());
}

TEST_CASE("round robin alternates instances and equal seeds give identical cluster runs") {
  ServingConfig c = cluster_config(200, 30.0);
  c.router = RouterPolicy::round_robin;
  const auto a = run_serving(c, quant::method_from_name("lynx"), quality(0.6));
  const auto b = run_serving(c, quant::method_from_name("lynx"), quality(0.6));
  REQUIRE(a.requests.size() == b.requests.size());
  CHECK(a.events_executed == b.events_executed);
  for (std::size_t i = 0; i < a.requests.size(); ++i) {
    CHECK(a.requests[i].prefill_instance == static_cast<int>(i % 2));
    CHECK(a.requests[i].decode_instance == static_cast<int>(i % 2));
    CHECK(a.requests[i].last_token_at == b.requests[i].last_token_at);
    CHECK(a.requests[i].wasted_draft_tokens == b.requests[i].wasted_draft_tokens);
  }
}

TEST_CASE("batched and chunked prefill run several prompts per pass") {
  ServingConfig c = test::quickstart_config(4096, 4);
  for (int i = 0; i < 3; ++i) c.requests.push_back({Time::zero(), 4096, 4, {}});
  const auto alone = run_serving(c, quant::method_from_name("int8"), quality(1.0));
  c.prefill_schedule.max_batch_tokens = 16384;
  const auto batched = run_serving(c, quant::method_from_name("int8"), quality(1.0));
  CHECK(batched.requests[1].prefill_start_at == batched.requests[0].prefill_done_at);
  CHECK(batched.requests[3].prefill_start_at == batched.requests[1].prefill_start_at);
  CHECK(batched.requests[3].prefill_done_at == batched.requests[1].prefill_done_at);
  CHECK(batched.requests[3].prefill_done_at < alone.requests[3].prefill_done_at);
  c.prefill_schedule.max_batch_tokens = 3000;
  c.prefill_schedule.chunked = true;
  const auto chunked = run_serving(c, quant::method_from_name("int8"), quality(1.0));
  CHECK(chunked.requests[1].prefill_start_at < chunked.requests[0].prefill_done_at);
  CHECK(chunked.requests[1].prefill_done_at > chunked.requests[0].prefill_done_at);
  for (const auto& m : chunked.requests) CHECK(m.committed_tokens == 4);
  CHECK(chunked.requests[0].plane_bytes == alone.requests[0].plane_bytes);
}

TEST_CASE("shortest prompt first lets a short prompt overtake a long one") {
  ServingConfig c = test::quickstart_config(32768, 2);
  c.requests.push_back({Time::from_ms(1), 32768, 2, {}});
  c.requests.push_back({Time::from_ms(2), 1024, 2, {}});
  c.prefill_schedule.order = PrefillOrder::shortest_prompt_first;
  const auto r = run_serving(c, quant::method_from_name("int8"), quality(1.0));
  CHECK(r.requests[2].prefill_start_at == r.requests[0].prefill_done_at);
  CHECK(r.requests[1].prefill_start_at >= r.requests[2].prefill_done_at);
}

TEST_CASE("grouping layers into fewer flows keeps a lone request's TTFT") {
  ServingConfig c = test::quickstart_config(16384, 8);
  const auto per_layer = run_serving(c, quant::method_from_name("lynx"), quality(1.0));
  c.layers_per_flow = 4;
  const auto grouped = run_serving(c, quant::method_from_name("lynx"), quality(1.0));
  CHECK(grouped.events_executed < per_layer.events_executed);
  CHECK(grouped.requests[0].ttft().seconds() ==
        doctest::Approx(per_layer.requests[0].ttft().seconds()).epsilon(0.05));
  CHECK(grouped.requests[0].plane_bytes == per_layer.requests[0].plane_bytes);
}

TEST_CASE("the prefix cache fetches seen blocks from the store and prefills only the suffix") {
  ServingConfig c = cluster_config(0, 1.0);
  c.make_network = test::leaf_spine(3, 2, 100e9);
  c.prefix_cache = {true, "leaf2.h1", Bytes{0}, 512};
  std::vector<std::uint32_t> blocks(16);
  for (std::uint32_t i = 0; i < 16; ++i) blocks[i] = i;
  c.requests = {{Time::zero(), 8192, 4, blocks}, {Time::from_seconds(5), 8192, 4, blocks}};
  c.requests[1].hash_ids.back() = 99;
  for (const char* name : {"int8", "lynx"}) {
    CAPTURE(name);
    const auto r = run_serving(c, quant::method_from_name(name), quality(1.0));
    CHECK(r.requests[0].cached_tokens == 0);
    CHECK(r.requests[1].cached_tokens == 15 * 512);
    CHECK(r.requests[1].cache_fetch_time > Time::zero());
    const Time compute0 = r.requests[0].prefill_done_at - r.requests[0].prefill_start_at;
    const Time compute1 = r.requests[1].prefill_done_at - r.requests[1].prefill_start_at;
    CHECK(compute1 * 2 < compute0);
    CHECK(r.cluster.cache_hit_blocks == 15);
    CHECK(r.cluster.cache_block_hit_rate == doctest::Approx(15.0 / 32.0));
    CHECK(r.requests[1].committed_tokens == 4);
  }
}

TEST_CASE("prompts whose cached prefix is in flight count as prefill load for the router") {
  ServingConfig c = cluster_config(0, 1.0);
  c.make_network = test::leaf_spine(3, 2, 100e9);
  c.prefix_cache = {true, "leaf2.h1", Bytes{0}, 512};
  std::vector<std::uint32_t> blocks(16);
  for (std::uint32_t i = 0; i < 16; ++i) blocks[i] = i;
  c.requests = {{Time::zero(), 8192, 4, blocks}};
  for (int k = 0; k < 2; ++k) {
    c.requests.push_back({Time::from_seconds(5) + Time::from_us(k), 8192, 4, blocks});
    c.requests.back().hash_ids.back() = 100 + static_cast<std::uint32_t>(k);
  }
  const auto r = run_serving(c, quant::method_from_name("int8"), quality(1.0));
  CHECK(r.requests[1].cached_tokens == 15 * 512);
  CHECK(r.requests[2].cached_tokens == 15 * 512);
  CHECK(r.requests[1].prefill_instance != r.requests[2].prefill_instance);
}

TEST_CASE("link utilisation and goodput are reported") {
  ServingConfig c = cluster_config(100, 10.0);
  c.slo.ttft = Time::from_ms(200);
  const auto r = run_serving(c, quant::method_from_name("int8"), quality(1.0));
  REQUIRE_FALSE(r.cluster.links.empty());
  CHECK(r.cluster.max_link_utilisation > 0.0);
  CHECK(r.cluster.max_link_utilisation <= 1.0);
  for (const auto& l : r.cluster.links) CHECK(l.peak <= 1.0 + 1e-9);
  std::int64_t met = 0;
  for (const auto& m : r.requests) met += m.ttft() <= Time::from_ms(200) ? 1 : 0;
  CHECK(r.cluster.requests_meeting_slo == met);
  CHECK(r.cluster.goodput_requests_per_s <= r.cluster.requests_per_s);
}
