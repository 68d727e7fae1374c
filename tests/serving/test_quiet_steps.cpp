#include <doctest/doctest.h>

#include "serving_fixture.hpp"
#include "sim/serving/serving_events.hpp"
#include "sim/serving/serving_run.hpp"
#include "sim/serving/workload_synthetic.hpp"

using namespace lynxsim;
using namespace lynxsim::serving;

namespace {

// 2 prefill + 2 decode H100 instances of Llama-3.1-8B on a 10 Gb/s leaf-spine, loaded enough that
// batches grow, requests wait for memory, KV kernels land inside steps and speculation stalls.

// A DecodeStepDone listener makes every decode step its own event.
MethodResult step_by_step(const ServingConfig& c, const quant::MethodSpec& method, const MethodQuality& q) {
  return run_serving(c, method, q, [](Simulator& sim) { sim.bus().subscribe<DecodeStepDone>([](const auto&) {}); });
}

void check_same(const RequestMetrics& a, const RequestMetrics& b) {
  CAPTURE(a.id);
  CHECK(a.decode_joined_at == b.decode_joined_at);
  CHECK(a.first_token_at == b.first_token_at);
  CHECK(a.first_commit_at == b.first_commit_at);
  CHECK(a.decode_first_token_at == b.decode_first_token_at);
  CHECK(a.decode_first_commit_at == b.decode_first_commit_at);
  CHECK(a.last_token_at == b.last_token_at);
  CHECK(a.full_kv_at == b.full_kv_at);
  CHECK(a.memory_wait_time == b.memory_wait_time);
  CHECK(a.verifications == b.verifications);
  CHECK(a.rollbacks == b.rollbacks);
  CHECK(a.drafted_tokens == b.drafted_tokens);
  CHECK(a.accepted_tokens == b.accepted_tokens);
  CHECK(a.wasted_draft_tokens == b.wasted_draft_tokens);
  CHECK(a.committed_tokens == b.committed_tokens);
  CHECK(a.decode_instance == b.decode_instance);
}

}  // namespace

TEST_CASE("folding quiet decode steps gives the step-by-step results and event count") {
  for (const double hbm : {0.9, 0.3}) {
    const ServingConfig c = test::loaded_cluster(hbm);
    for (const char* name : {"bf16", "int8", "lynx"}) {
      CAPTURE(hbm);
      CAPTURE(name);
      const MethodQuality q{0.6, "test", {}, 0.0};
      const MethodResult folded = run_serving(c, quant::method_from_name(name), q);
      const MethodResult stepped = step_by_step(c, quant::method_from_name(name), q);
      REQUIRE(folded.requests.size() == stepped.requests.size());
      CHECK(folded.events_executed == stepped.events_executed);
      CHECK(folded.simulated_time == stepped.simulated_time);
      CHECK(folded.cluster.peak_decode_memory_fraction == stepped.cluster.peak_decode_memory_fraction);
      for (std::size_t i = 0; i < folded.requests.size(); ++i) check_same(folded.requests[i], stepped.requests[i]);
    }
  }
}
