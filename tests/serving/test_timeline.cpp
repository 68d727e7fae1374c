#include <doctest/doctest.h>

#include "serving_fixture.hpp"
#include "sim/serving/kv_bytes.hpp"
#include "sim/serving/serving_run.hpp"

using namespace lynxsim;
using namespace lynxsim::serving;

namespace {

RequestMetrics run_one(const ServingConfig& config, const char* method_name,
                       double acceptance = 1.0) {
  MethodQuality quality;
  quality.acceptance = acceptance;
  const MethodResult r = run_serving(config, quant::method_from_name(method_name), quality);
  REQUIRE(r.requests.size() == config.requests.size());
  return r.requests.front();
}

double seconds(Time t) { return t.seconds(); }

}  // namespace

TEST_CASE("a bf16 transfer after prefill takes setup + latency + bytes / (efficiency * rate)") {
  ServingConfig c = test::quickstart_config(8192, 4);
  c.streaming = StreamingMode::after_prefill;
  const RequestMetrics m = run_one(c, "bf16");
  const double bytes = 8192.0 * 128 * 1024;
  const double expected = 1e-3 + 10e-6 + bytes / (0.85 * 25e9 / 8);
  CHECK(seconds(m.exposed_transfer_time()) == doctest::Approx(expected).epsilon(1e-9));
  CHECK(m.full_kv_at == m.decode_ready_at);
  CHECK(m.ttft() == m.ttft_commit());
}

TEST_CASE("lynx 4+4 is decode-ready when an int4 transfer would be, and complete when int8 is") {
  for (const auto mode : {StreamingMode::after_prefill, StreamingMode::layerwise}) {
    ServingConfig c = test::quickstart_config();
    c.streaming = mode;
    const RequestMetrics lynx = run_one(c, "lynx");
    const RequestMetrics int4 = run_one(c, "int4");
    const RequestMetrics int8 = run_one(c, "int8");
    const double tol = 2e-3;
    CHECK(seconds(lynx.decode_ready_at) == doctest::Approx(seconds(int4.decode_ready_at)).epsilon(tol));
    CHECK(seconds(lynx.full_kv_at) == doctest::Approx(seconds(int8.decode_ready_at)).epsilon(tol));
    CHECK(lynx.ttft_speculative() < int8.ttft());
    CHECK(lynx.ttft() == lynx.ttft_commit());
    CHECK(lynx.ttft_commit() >= lynx.full_kv_at - lynx.arrived_at);
    CHECK(lynx.plane_bytes[0] == int4.plane_bytes[0]);
  }
}

TEST_CASE("acceptance 1 commits every draft; acceptance 0 keeps only the corrected token") {
  ServingConfig c = test::quickstart_config(32768, 512);
  c.streaming = StreamingMode::after_prefill;
  const RequestMetrics all = run_one(c, "lynx", 1.0);
  REQUIRE(all.drafted_tokens > 0);
  CHECK(all.accepted_tokens == all.drafted_tokens);
  CHECK(all.rollbacks == 0);
  CHECK(all.wasted_draft_tokens == 0);
  CHECK(all.committed_tokens == 512);

  const RequestMetrics none = run_one(c, "lynx", 0.0);
  REQUIRE(none.drafted_tokens > 0);
  CHECK(none.accepted_tokens == 0);
  CHECK(none.wasted_draft_tokens == none.drafted_tokens);
  CHECK(none.rollbacks == none.verifications);
  CHECK(none.last_token_at > all.last_token_at);
}

TEST_CASE("the first commit of a speculative request follows the full KV") {
  ServingConfig c = test::quickstart_config(65536, 64);
  c.make_network = test::single_link({10e9, Time::from_us(10), 0.85, Time::from_ms(1)});
  const RequestMetrics m = run_one(c, "lynx-2+2+4", 0.7);
  CHECK(m.first_token_at < m.full_kv_at);
  CHECK(m.first_commit_at > m.full_kv_at);
  CHECK(m.verifications >= 1);
}

TEST_CASE("the first token can come from the prefill instance") {
  ServingConfig c = test::quickstart_config(8192, 16);
  c.first_token_from = FirstTokenSource::prefill;
  const RequestMetrics m = run_one(c, "int8");
  CHECK(m.first_token_at == m.prefill_done_at);
  CHECK(m.committed_tokens == 16);
  CHECK(m.decode_first_token_at > m.prefill_done_at);
  CHECK(m.ttdt() == m.decode_first_commit_at - m.arrived_at);
  const RequestMetrics lynx = run_one(c, "lynx", 0.8);
  CHECK(lynx.ttft() == m.ttft());
  CHECK(lynx.ttdt_speculative() < m.ttdt());
  c.requests[0].output_tokens = 1;
  const RequestMetrics one = run_one(c, "int8");
  CHECK(one.last_token_at == one.prefill_done_at);
}

TEST_CASE("requests queue first come, first served at the prefill instance") {
  ServingConfig c = test::quickstart_config(8192, 8);
  c.requests.push_back(RequestSpec{Time::from_ms(1), 8192, 8});
  const MethodResult r = run_serving(c, quant::method_from_name("int8"), MethodQuality{});
  REQUIRE(r.requests.size() == 2);
  CHECK(r.requests[1].prefill_start_at == r.requests[0].prefill_done_at);
  CHECK(r.requests[1].prefill_queue_time() > Time::zero());
}

TEST_CASE("equal seeds give identical results") {
  ServingConfig c = test::quickstart_config(16384, 200);
  c.requests.push_back(RequestSpec{Time::from_ms(50), 4096, 100});
  const auto a = run_serving(c, quant::method_from_name("lynx"), MethodQuality{0.6, "test", {}, 0.0});
  const auto b = run_serving(c, quant::method_from_name("lynx"), MethodQuality{0.6, "test", {}, 0.0});
  REQUIRE(a.requests.size() == b.requests.size());
  CHECK(a.events_executed == b.events_executed);
  for (std::size_t i = 0; i < a.requests.size(); ++i) {
    CHECK(a.requests[i].last_token_at == b.requests[i].last_token_at);
    CHECK(a.requests[i].accepted_tokens == b.requests[i].accepted_tokens);
  }
}

TEST_CASE("the stream decides the client's TTFT and whether rolled-back drafts are retractions") {
  ServingConfig c = test::quickstart_config(65536, 64);
  c.make_network = test::single_link({10e9, Time::from_us(10), 0.85, Time::from_ms(1)});
  c.streaming = StreamingMode::after_prefill;
  const RequestMetrics committed = run_one(c, "lynx", 0.5);
  c.speculation.stream = SpeculationStream::speculative;
  const RequestMetrics streamed = run_one(c, "lynx", 0.5);
  REQUIRE(committed.wasted_draft_tokens > 0);
  CHECK(committed.ttft() == committed.ttft_commit());
  CHECK(committed.ttft_speculative() < committed.ttft_commit());
  CHECK(committed.retracted_tokens() == 0);
  CHECK(streamed.ttft() == streamed.ttft_speculative());
  CHECK(streamed.ttft_speculative() == committed.ttft_speculative());
  CHECK(streamed.ttft_commit() == committed.ttft_commit());
  CHECK(streamed.retracted_tokens() == streamed.wasted_draft_tokens);
  const RequestMetrics plain = run_one(c, "int8");
  CHECK(plain.ttft() == plain.ttft_commit());
  CHECK(plain.retracted_tokens() == 0);
}
