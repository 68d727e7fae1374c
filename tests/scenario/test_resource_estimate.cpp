#include <doctest/doctest.h>

#include <string>

#include "sim/scenario/input_limits.hpp"
#include "sim/scenario/memory_estimate.hpp"
#include "sim/scenario/resource_estimate.hpp"
#include "sim/serving/kv_head_map.hpp"

using namespace lynxsim;
using namespace lynxsim::scenario;

namespace {

// One request of `context` tokens, one method, one group per role.
Scenario one_request(int layers, int kv_heads, int prefill_tp, int decode_tp, const char* method,
                     int context = 1000) {
  Scenario s;
  s.serving.model.num_layers = layers;
  s.serving.model.num_kv_heads = kv_heads;
  s.serving.prefill.tensor_parallel = prefill_tp;
  s.serving.decode.tensor_parallel = decode_tp;
  s.serving.requests.push_back({Time::zero(), context, 8});
  s.methods.push_back(quant::method_from_name(method));
  return s;
}

bool has_path(const IssueList& issues, const std::string& path) {
  for (const auto& i : issues.items()) {
    if (i.json_path == path) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("KV flows of layer-wise streaming are requests x layer groups x planes x rank pairs") {
  Scenario s = one_request(32, 8, 1, 1, "lynx");
  s.methods.push_back(quant::method_from_name("int8"));
  s.serving.requests.push_back(s.serving.requests.front());
  const ResourceEstimate e = estimate_resources(s);
  CHECK(e.flows_at_most == 2 * 32 * (2 + 1));
  CHECK(e.flows_at_least == e.flows_at_most);
  CHECK(e.prefill_layer_passes == 2 * 32 * 2);
  s.serving.layers_per_flow = 5;
  CHECK(estimate_resources(s).flows_at_most == 2 * 7 * (2 + 1));
}

TEST_CASE("the rank-pair bounds bracket the flows kv_head_flows really makes") {
  for (const int n : {1, 2, 8, 32}) {
    for (const int tp_p : {1, 2, 3, 4, 8, 16, 64}) {
      for (const int tp_d : {1, 2, 3, 4, 8, 16, 64}) {
        Scenario s = one_request(4, n, tp_p, tp_d, "int8");
        s.serving.streaming = serving::StreamingMode::after_prefill;
        const ResourceEstimate e = estimate_resources(s);
        const auto real = static_cast<std::int64_t>(serving::kv_head_flows(n, tp_p, tp_d).size());
        CAPTURE(n);
        CAPTURE(tp_p);
        CAPTURE(tp_d);
        CHECK(e.flows_at_least <= real);
        CHECK(real <= e.flows_at_most);
      }
    }
  }
}

TEST_CASE("chunked prefill multiplies the pieces by the passes a prompt spans") {
  Scenario s = one_request(10, 8, 1, 1, "int8", 1000);
  s.serving.prefill_schedule = {serving::PrefillOrder::fcfs, 300, true};
  const ResourceEstimate e = estimate_resources(s);
  CHECK(e.flows_at_least == 10 * 4);
  CHECK(e.flows_at_most == 10 * 5);
  CHECK(e.prefill_layer_passes == 10 * 4);
}

TEST_CASE("CacheGen sends one flow per chunk and rank pair") {
  Scenario s = one_request(32, 8, 1, 1, "cachegen", 10'000);
  s.methods.front().cachegen.chunk_tokens = 1500;
  CHECK(estimate_resources(s).flows_at_most == 7);
}

TEST_CASE("instances, GPUs and flows above their limits are refused at their section") {
  Scenario s = one_request(32, 8, 1, 1, "int8");
  IssueList none;
  check_resource_limits(s, none);
  CHECK(none.empty());

  s.serving.prefill = {{}, 1, 4096};
  for (int i = 0; i < 16; ++i) s.serving.extra_prefill.push_back({{}, 1, 4096});
  s.serving.decode = {{}, 1024, 4096};
  s.serving.extra_decode.push_back({{}, 1, 1});
  IssueList issues;
  check_resource_limits(s, issues);
  CHECK(has_path(issues, "/prefill"));
  CHECK(has_path(issues, "/decode"));
  CHECK(estimate_resources(s).prefill_instances == 17 * 4096);
  CHECK(estimate_resources(s).decode_ranks == kMaxRanksPerRole + 1);

  Scenario flows = one_request(80, 8, 1, 1, "int8", 1 << 24);
  flows.serving.prefill_schedule = {serving::PrefillOrder::fcfs, 1, true};
  IssueList flow_issues;
  check_resource_limits(flows, flow_issues);
  CHECK(has_path(flow_issues, "/workload"));
}

TEST_CASE("a background sender of tiny periods is refused at its path") {
  Scenario s = one_request(32, 8, 1, 1, "int8");
  net::BackgroundSpec b;
  b.on_time = Time::from_ps(1);
  b.stop_at = Time::from_seconds(3600.0);
  s.network.background.push_back(b);
  IssueList issues;
  check_resource_limits(s, issues);
  CHECK(has_path(issues, "/network/background/0"));
}

TEST_CASE("background periods near the end of the clock are counted without overflow") {
  Scenario s = one_request(32, 8, 1, 1, "int8");
  net::BackgroundSpec b;
  b.on_time = Time::from_ps(6'000'000'000'000'000'000);
  b.off_time = Time::from_ps(6'000'000'000'000'000'000);
  b.stop_at = Time::from_ps(9'000'000'000'000'000'000);
  s.network.background.push_back(b);
  IssueList issues;
  CHECK_NOTHROW(check_resource_limits(s, issues));
  CHECK(issues.empty());
}

TEST_CASE("the memory model is base + requests x (per request + methods x per record) + network + routes + trace") {
  ResourceEstimate e;
  e.requests = 1000;
  e.network.hosts = 2;
  e.network.switches = 0;
  e.network.links = 1;
  e.flows_at_most = 10;
  const std::int64_t network = 2 * kMemoryPerNode + kMemoryPerLink + 10 * 2 * kMemoryPerRouteHop;
  CHECK(run_memory_bytes(e, 3, 0) ==
        kMemoryBaseBytes + 1000 * (kMemoryPerRequest + 3 * kMemoryPerRequestMethod) + network);
  CHECK(run_memory_bytes(e, 3, 500) - run_memory_bytes(e, 3, 0) == 500 * kMemoryPerTraceEvent);
  e.network.switches = 50000;
  e.flows_at_most = 1 << 20;
  ResourceEstimate capped = e;
  capped.flows_at_most = kMemoryRouteFlows;
  CHECK(run_memory_bytes(e, 1, 0) == run_memory_bytes(capped, 1, 0));
  capped.flows_at_most = kMemoryRouteFlows - 1;
  CHECK(run_memory_bytes(e, 1, 0) - run_memory_bytes(capped, 1, 0) == 50002 * kMemoryPerRouteHop);
  e.requests = std::int64_t{1} << 62;
  CHECK(run_memory_bytes(e, 1000, 0) == INT64_MAX);
}
