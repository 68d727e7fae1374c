#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "serving_fixture.hpp"
#include "sim/compute/timing_model.hpp"
#include "sim/serving/rank_memory.hpp"
#include "sim/serving/serving_events.hpp"
#include "sim/serving/serving_run.hpp"

using namespace lynxsim;
using namespace lynxsim::serving;

namespace {

constexpr int kContext = 4096;
constexpr int kOutput = 512;

// One TP1 H100 prefill instance and one decode instance of 4 H100s with data-parallel attention
// over 4 ranks; each decode GPU's HBM holds its weights and 1.5 requests' KV, so a rank keeps one
// request at a time.
ServingConfig dp_config(int requests, KvAdmissionPolicy policy) {
  ServingConfig c;
  c.kv_admission.policy = policy;
  c.model = test::model_card("llama-3.1-8b");
  c.prefill.gpu = test::gpu_profile("h100-sxm");
  c.decode.gpu = c.prefill.gpu;
  c.decode.tensor_parallel = 4;
  c.decode.parallel.attention_dp = 4;
  TimingModel timing(c.model, c.decode.gpu, 4);
  timing.set_parallel_layout(c.decode.parallel);
  const double reserve = static_cast<double>(timing.kv_bytes_per_rank(kContext + kOutput).value);
  const double fill = static_cast<double>(timing.weight_bytes_per_rank().value) + 1.5 * reserve;
  c.decode.gpu.hbm_capacity = Bytes{static_cast<std::int64_t>(fill / c.decode_memory.usable_fraction)};
  for (int i = 0; i < requests; ++i) c.requests.push_back(RequestSpec{Time::zero(), kContext, kOutput});
  c.make_network = test::single_link({});
  return c;
}

MethodQuality quality() { return MethodQuality{1.0, "test", {}, 0.0}; }

}  // namespace

TEST_CASE("rank memory: one budget per rank, requests placed by id, blocked clocks per rank") {
  RankMemory m(4, 100, 40);
  CHECK(m.rank_of(6) == 2);
  CHECK(m.total_used() == 160);
  CHECK(m.fits(0, 60));
  CHECK_FALSE(m.fits(0, 61));
  m.reserve(1, 50);
  CHECK(m.fits(0, 60));
  CHECK_FALSE(m.fits(1, 11));
  CHECK(m.peak() == 90);
  m.release(1, 50);
  CHECK(m.total_used() == 160);
  CHECK(m.peak() == 90);
  m.set_blocked(3, true, Time::from_ms(2));
  CHECK(m.blocked_clock(3, Time::from_ms(5)) == Time::from_ms(3));
  m.set_blocked(3, false, Time::from_ms(7));
  CHECK(m.blocked_clock(3, Time::from_ms(9)) == Time::from_ms(5));
  CHECK(m.blocked_clock(0, Time::from_ms(9)) == Time::zero());
  CHECK_THROWS_AS(RankMemory(0, 100, 40), std::invalid_argument);
}

TEST_CASE("data-parallel decode ranks do not pool HBM: one request per rank fits, the next waits") {
  // With eight requests the second of each rank waits for the first to finish: for the join under
  // "staging", for its transfer under "reserve".
  std::set<int> ranks;
  std::int64_t worst_margin = INT64_MAX;
  const auto hook = [&](Simulator& sim) {
    sim.bus().subscribe<DecodeMemoryChanged>([&](const DecodeMemoryChanged& e) {
      ranks.insert(e.rank);
      worst_margin = std::min(worst_margin, e.capacity_bytes - e.used_bytes);
    });
  };
  SUBCASE("four requests, one per rank: nobody waits for memory") {
    const MethodResult r = run_serving(dp_config(4, KvAdmissionPolicy::staging),
                                       quant::method_from_name("int8"), quality(), hook);
    for (const auto& m : r.requests) CHECK(m.memory_wait_time == Time::zero());
    CHECK(ranks == std::set<int>{0, 1, 2, 3});
  }
  for (const KvAdmissionPolicy policy : {KvAdmissionPolicy::staging, KvAdmissionPolicy::reserve}) {
    const bool reserve = policy == KvAdmissionPolicy::reserve;
    CAPTURE(reserve);
    SUBCASE(reserve ? "eight requests, reserve" : "eight requests, staging") {
      const MethodResult r = run_serving(dp_config(8, policy), quant::method_from_name("int8"), quality(), hook);
      REQUIRE(r.requests.size() == 8);
      for (const auto& m : r.requests) {
        CAPTURE(m.id);
        const Time waited = reserve ? m.kv_admission_wait : m.memory_wait_time;
        CHECK((reserve ? m.memory_wait_time : m.kv_admission_wait) == Time::zero());
        if (m.id < 4) {
          CHECK(waited == Time::zero());
        } else {
          CHECK(waited > Time::zero());
          const auto first = std::find_if(r.requests.begin(), r.requests.end(),
                                          [&](const RequestMetrics& o) { return o.id == m.id - 4; });
          REQUIRE(first != r.requests.end());
          CHECK(m.decode_joined_at >= first->last_token_at);
        }
      }
      CHECK(r.cluster.peak_decode_memory_fraction <= 1.0);
      CHECK(r.cluster.peak_decode_memory_fraction > 0.9);
    }
  }
  CHECK(worst_margin >= 0);
}
