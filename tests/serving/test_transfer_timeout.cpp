#include <doctest/doctest.h>

#include <map>
#include <span>

#include "serving_fixture.hpp"
#include "sim/compute/timing_model.hpp"
#include "sim/serving/serving_events.hpp"
#include "sim/serving/serving_run.hpp"

using namespace lynxsim;
using namespace lynxsim::serving;

namespace {

constexpr int kContext = 2048;
const MethodQuality kQuality{0.7, "test", {}, 0.0};

// One request on an H100 pair joined by one 25 Gb/s link, its KV sent after the prefill; the link
// down from `down_at` for `down_for` (none when down_for is zero).
ServingConfig one_request(Time down_at, Time down_for, std::optional<KvTransferSpec> transfer) {
  ServingConfig c = test::quickstart_config(kContext, 16);
  c.prefill.gpu = test::gpu_profile("h100-sxm");
  c.decode.gpu = c.prefill.gpu;
  c.streaming = StreamingMode::after_prefill;
  net::NetworkSpec spec;
  spec.topology = net::SingleLinkTopology{net::LinkSpec{BitsPerSecond{25e9}, Time::from_us(10), 0.85}};
  spec.setup_time = Time::from_ms(1);
  if (down_for > Time::zero()) spec.faults = {test::link_flap("link", down_at, down_for, std::nullopt, 1)};
  c.make_network = test::network_of(spec);
  if (transfer) c.kv_transfer = *transfer;
  return c;
}

KvTransferSpec timeout_of(Time timeout, int retries, KvTransferFallback fallback) {
  KvTransferSpec t;
  t.timeout = timeout;
  t.retries = retries;
  t.fallback = fallback;
  return t;
}

// What a run shows beyond its metrics: when KV flows started, and the decode instance's
// reservation and admission state at the end.
struct Run {
  MethodResult result;
  std::vector<Time> kv_flow_starts;
  Time anchor_in;  // the last arrival of a plane-0 flow
  std::int64_t min_used = -1;
  std::int64_t last_used = -1;
  int last_in_flight = 0;
  const RequestMetrics& request() const { return result.requests.front(); }
};

Run run(const ServingConfig& c, const char* method) {
  Run out;
  const auto hook = [&out](Simulator& sim) {
    sim.bus().subscribe<net::FlowStarted>([&out](const net::FlowStarted& e) {
      if (e.record.spec.size.value > 0) out.kv_flow_starts.push_back(e.record.started_at);
    });
    sim.bus().subscribe<net::FlowFinished>([&out](const net::FlowFinished& e) {
      if (e.record.spec.size.value > 0 && e.record.spec.priority_class == 0) {
        out.anchor_in = max(out.anchor_in, e.record.finished_at);
      }
    });
    sim.bus().subscribe<DecodeMemoryChanged>([&out](const DecodeMemoryChanged& e) {
      out.last_used = e.used_bytes;
      out.min_used = out.min_used < 0 ? e.used_bytes : std::min(out.min_used, e.used_bytes);
    });
    sim.bus().subscribe<KvAdmissionChanged>([&out](const KvAdmissionChanged& e) { out.last_in_flight = e.in_flight; });
  };
  out.result = run_serving(c, quant::method_from_name(method), kQuality, hook);
  return out;
}

std::int64_t kv_bytes(const RequestMetrics& m) {
  std::int64_t total = 0;
  for (const Bytes b : m.plane_bytes) total += b.value;
  return total;
}

// The healthy run: when the transfer starts (its first KV flow) and the request's metrics.
Run healthy(const char* method) {
  Run r = run(one_request(Time::zero(), Time::zero(), std::nullopt), method);
  REQUIRE(!r.kv_flow_starts.empty());
  return r;
}

void check_reservations_freed(const Run& r) {
  CHECK(r.last_used == r.min_used);
  CHECK(r.last_in_flight == 0);
}

}  // namespace

TEST_CASE("a link down longer than the timeout: cancelled at start + timeout, resent, then failed") {
  const Run base = healthy("int8");
  const Time t0 = base.kv_flow_starts.front();
  const Time timeout = Time::from_ms(400);
  // Down from 10 ms into the transfer until well after two timeouts.
  const Time down_at = t0 + Time::from_ms(10);
  const ServingConfig c = one_request(down_at, Time::from_seconds(1.5),
                                      timeout_of(timeout, 1, KvTransferFallback::retry));
  const Run r = run(c, "int8");
  const RequestMetrics& m = r.request();
  CHECK(m.failed());
  CHECK(failure_cause_name(m.failure) == "kv_transfer_timeout");
  CHECK(m.kv_timeouts == 2);
  // The resend starts at the first deadline exactly.
  const auto flows = static_cast<std::size_t>(base.kv_flow_starts.size());
  REQUIRE(r.kv_flow_starts.size() == 2 * flows);
  CHECK(r.kv_flow_starts[flows] == t0 + timeout);
  // 9 ms of sending at 25 Gb/s x 0.85 before the outage (the flow's 1 ms setup first), then nothing.
  const double sent = 25e9 / 8 * 0.85 * 0.009;
  CHECK(static_cast<double>(m.kv_bytes_sent.value) == doctest::Approx(sent).epsilon(1e-6));
  CHECK(m.kv_bytes_wasted == m.kv_bytes_sent);
  CHECK_FALSE(m.meets_slo);
  check_reservations_freed(r);
  CHECK(r.result.cluster.requests_per_s == 0.0);
}

TEST_CASE("with a retry left the resent KV arrives after the outage; sent = delivered + wasted") {
  const Run base = healthy("int8");
  const Time t0 = base.kv_flow_starts.front();
  const Time timeout = Time::from_ms(400);
  const ServingConfig c = one_request(t0 + Time::from_ms(10), Time::from_ms(500),
                                      timeout_of(timeout, 1, KvTransferFallback::retry));
  const Run r = run(c, "int8");
  const RequestMetrics& m = r.request();
  CHECK_FALSE(m.failed());
  CHECK(m.kv_timeouts == 1);
  CHECK(m.committed_tokens == m.output_tokens);
  CHECK(m.kv_bytes_wasted.value > 0);
  CHECK(m.kv_bytes_sent.value - m.kv_bytes_wasted.value == kv_bytes(m));
  // The resend waits for the link (up at t0 + 510 ms) and then takes as long as the first would have.
  const Time healthy_transfer = base.request().decode_ready_at - t0;
  CHECK(m.decode_ready_at > t0 + Time::from_ms(510));
  CHECK((m.decode_ready_at - (t0 + Time::from_ms(510))).seconds() ==
        doctest::Approx(healthy_transfer.seconds()).epsilon(0.05));
  check_reservations_freed(r);
}

TEST_CASE("reprefill_on_decode: decode-ready at the timeout plus the decode GPU's prefill") {
  const Run base = healthy("int8");
  const Time t0 = base.kv_flow_starts.front();
  const Time timeout = Time::from_ms(300);
  const ServingConfig c = one_request(t0 + Time::from_ms(10), Time::from_seconds(2),
                                      timeout_of(timeout, 0, KvTransferFallback::reprefill_on_decode));
  const Run r = run(c, "int8");
  const RequestMetrics& m = r.request();
  const TimingModel decode(c.model, c.decode.gpu, 1);
  const SequenceChunk chunk{kContext, 0};
  const Time prefill = decode.pass(std::span<const SequenceChunk>(&chunk, 1), 1).time;
  CHECK(m.reprefilled);
  CHECK_FALSE(m.failed());
  CHECK(m.kv_timeouts == 1);
  CHECK(m.decode_ready_at == t0 + timeout + prefill);
  CHECK(m.full_kv_at == m.decode_ready_at);
  CHECK(m.first_token_at > m.decode_ready_at);
  CHECK(m.committed_tokens == m.output_tokens);
  CHECK(m.kv_bytes_wasted == m.kv_bytes_sent);
  check_reservations_freed(r);
}

TEST_CASE("commit_on_anchor: the residual lost after the anchor commits unverified, degraded") {
  const Run base = healthy("lynx");
  const Time t0 = base.kv_flow_starts.front();
  const RequestMetrics& h = base.request();
  REQUIRE(h.full_kv_at > h.decode_ready_at);
  // Down from the anchor's arrival (the residual still on the wire), the deadline 50 ms after the
  // anchor is ready.
  REQUIRE(h.full_kv_at - base.anchor_in > Time::from_ms(5));
  const Time timeout = h.decode_ready_at - t0 + Time::from_ms(50);
  const ServingConfig c = one_request(base.anchor_in, Time::from_seconds(2),
                                      timeout_of(timeout, 0, KvTransferFallback::commit_on_anchor));
  const Run r = run(c, "lynx");
  const RequestMetrics& m = r.request();
  CHECK(m.degraded);
  CHECK_FALSE(m.failed());
  CHECK(m.verifications == 0);
  CHECK(m.committed_tokens == m.output_tokens);
  CHECK(m.decode_ready_at == h.decode_ready_at);
  CHECK(m.first_commit_at >= t0 + timeout);
  CHECK((m.first_commit_at - (t0 + timeout)).seconds() < 0.05);
  CHECK(m.kv_bytes_sent.value - m.kv_bytes_wasted.value <= kv_bytes(m));
  check_reservations_freed(r);
}

TEST_CASE("commit_on_anchor before the anchor is in retries, then fails") {
  const Run base = healthy("lynx");
  const Time t0 = base.kv_flow_starts.front();
  const ServingConfig c = one_request(t0 + Time::from_us(1100), Time::from_seconds(2),
                                      timeout_of(Time::from_ms(200), 1, KvTransferFallback::commit_on_anchor));
  const Run r = run(c, "lynx");
  CHECK(r.request().failed());
  CHECK_FALSE(r.request().degraded);
  CHECK(r.request().kv_timeouts == 2);
  check_reservations_freed(r);
}

TEST_CASE("timeouts under load: every request finishes once or fails, deterministically") {
  ServingConfig c = test::loaded_cluster(0.3);
  net::NetworkSpec spec = test::leaf_spine_spec(2, 2, 10e9);
  spec.faults = {test::link_flap("leaf1.h0-leaf1", Time::from_ms(500), Time::from_ms(400),
                                 Time::from_ms(1500), 3)};
  c.make_network = test::network_of(spec);
  for (const KvTransferFallback f : {KvTransferFallback::retry, KvTransferFallback::reprefill_on_decode,
                                     KvTransferFallback::commit_on_anchor}) {
    c.kv_transfer = timeout_of(Time::from_ms(150), 1, f);
    CAPTURE(static_cast<int>(f));
    std::map<std::uint64_t, int> done;
    const auto hook = [&done](Simulator& sim) {
      sim.bus().subscribe<RequestDone>([&done](const RequestDone& e) { ++done[e.request]; });
    };
    const MethodResult a = run_serving(c, quant::method_from_name("lynx"), kQuality, hook);
    const MethodResult b = run_serving(c, quant::method_from_name("lynx"), kQuality);
    int timeouts = 0;
    for (std::size_t i = 0; i < a.requests.size(); ++i) {
      const RequestMetrics& m = a.requests[i];
      CHECK(done[m.id] == (m.failed() ? 0 : 1));
      if (!m.failed()) CHECK(m.committed_tokens == m.output_tokens);
      CHECK(m.kv_bytes_sent.value - m.kv_bytes_wasted.value <= kv_bytes(m));
      if (!m.failed() && !m.reprefilled && !m.degraded) {
        CHECK(m.kv_bytes_sent.value - m.kv_bytes_wasted.value == kv_bytes(m));
      }
      timeouts += m.kv_timeouts;
      CHECK(m.last_token_at == b.requests[i].last_token_at);
      CHECK(m.kv_bytes_wasted == b.requests[i].kv_bytes_wasted);
    }
    CHECK(timeouts > 0);
  }
}

TEST_CASE("a request finished by its prefill token is not failed when its transfer gives up") {
  const Run base = healthy("int8");
  const Time t0 = base.kv_flow_starts.front();
  ServingConfig c = one_request(t0 + Time::from_ms(10), Time::from_seconds(2),
                                timeout_of(Time::from_ms(200), 0, KvTransferFallback::retry));
  c.first_token_from = FirstTokenSource::prefill;
  c.requests.front().output_tokens = 1;
  const Run r = run(c, "int8");
  CHECK_FALSE(r.request().failed());
  CHECK(r.request().kv_timeouts == 1);
  CHECK(r.request().committed_tokens == 1);
  check_reservations_freed(r);
}

TEST_CASE("a closed-loop client gets its slot back from a failed request") {
  ServingConfig c = one_request(Time::from_ms(100), Time::from_seconds(3),
                                timeout_of(Time::from_ms(200), 0, KvTransferFallback::retry));
  c.requests.assign(30, c.requests.front());
  c.client = ClientSpec{2, Time::zero()};
  const Run r = run(c, "int8");
  int failed = 0;
  for (const RequestMetrics& m : r.result.requests) {
    failed += m.failed() ? 1 : 0;
    if (!m.failed()) CHECK(m.committed_tokens == m.output_tokens);
  }
  CHECK(failed > 0);
  CHECK(failed < 30);
  check_reservations_freed(r);
}
