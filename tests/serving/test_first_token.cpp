#include <doctest/doctest.h>

#include "serving_fixture.hpp"
#include "sim/serving/serving_run.hpp"

using namespace lynxsim;
using namespace lynxsim::serving;

namespace {

RequestMetrics run_one(const ServingConfig& config, const char* method_name, double acceptance) {
  MethodQuality quality;
  quality.acceptance = acceptance;
  const MethodResult r = run_serving(config, quant::method_from_name(method_name), quality);
  REQUIRE(r.requests.size() == 1);
  return r.requests.front();
}

ServingConfig after_prefill(int context, int output, SpeculationStream stream) {
  ServingConfig c = test::quickstart_config(context, output);
  c.streaming = StreamingMode::after_prefill;
  c.speculation.stream = stream;
  return c;
}

}  // namespace

TEST_CASE("with acceptance 1 the first committed token is the first verification, after the full KV") {
  const RequestMetrics m = run_one(after_prefill(32768, 256, SpeculationStream::committed), "lynx", 1.0);
  REQUIRE(m.drafted_tokens >= 1);
  CHECK(m.accepted_tokens == m.drafted_tokens);
  CHECK(m.first_token_at < m.full_kv_at);
  CHECK(m.first_commit_at > m.full_kv_at);
  CHECK(m.ttft() == m.ttft_commit());
  CHECK(m.retracted_tokens() == 0);
}

TEST_CASE("streaming drafts with acceptance 0 retracts every draft the client saw") {
  const RequestMetrics m =
      run_one(after_prefill(32768, 256, SpeculationStream::speculative), "lynx", 0.0);
  REQUIRE(m.drafted_tokens > 0);
  CHECK(m.ttft() == m.ttft_speculative());
  CHECK(m.retracted_tokens() == m.drafted_tokens);
  CHECK(m.retracted_tokens() == m.wasted_draft_tokens);
}

TEST_CASE("a non-speculative method has one reading of its first token and its first decode token") {
  for (const auto stream : {SpeculationStream::committed, SpeculationStream::speculative}) {
    const RequestMetrics m = run_one(after_prefill(8192, 16, stream), "int8", 1.0);
    CHECK(m.ttft() == m.ttft_commit());
    CHECK(m.ttft_speculative() == m.ttft_commit());
    CHECK(m.ttdt_speculative() == m.ttdt_commit());
    CHECK(m.retracted_tokens() == 0);
  }
}

TEST_CASE("with the first token from prefill methods tie on TTFT and differ on the first decode token") {
  ServingConfig c = after_prefill(32768, 64, SpeculationStream::committed);
  c.make_network = test::single_link({10e9, Time::from_us(10), 0.85, Time::from_ms(1)});
  c.first_token_from = FirstTokenSource::prefill;
  const RequestMetrics int8 = run_one(c, "int8", 1.0);
  const RequestMetrics lynx = run_one(c, "lynx", 1.0);
  for (const RequestMetrics* m : {&int8, &lynx}) {
    CHECK(m->first_token_at == m->prefill_done_at);
    CHECK(m->first_commit_at == m->prefill_done_at);
    CHECK(m->ttft() == m->prefill_done_at - m->arrived_at);
  }
  CHECK(lynx.decode_first_token_at > lynx.decode_ready_at);
  CHECK(lynx.decode_first_token_at < lynx.full_kv_at);
  CHECK(lynx.ttdt_speculative() < int8.ttdt());
  CHECK(lynx.decode_first_commit_at > lynx.full_kv_at);
  CHECK(lynx.ttdt() == lynx.ttdt_commit());
  CHECK(int8.decode_first_commit_at > int8.decode_ready_at);
}
