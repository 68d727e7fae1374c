#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "serving_fixture.hpp"
#include "sim/compute/timing_model.hpp"
#include "sim/serving/kernel_stream.hpp"
#include "sim/serving/kv_bytes.hpp"
#include "sim/serving/serving_events.hpp"
#include "sim/serving/serving_run.hpp"

using namespace lynxsim;
using namespace lynxsim::serving;

namespace {

struct Observed {
  std::vector<DecodeStepDone> steps;
  std::vector<KernelRan> kernels;
  std::vector<VerificationDone> verifications;
};

SimulatorHook observe(Observed& out) {
  return [&out](Simulator& sim) {
    sim.bus().subscribe<DecodeStepDone>([&out](const DecodeStepDone& e) { out.steps.push_back(e); });
    sim.bus().subscribe<KernelRan>([&out](const KernelRan& e) { out.kernels.push_back(e); });
    sim.bus().subscribe<VerificationDone>([&out](const VerificationDone& e) { out.verifications.push_back(e); });
  };
}

Bytes sum(const std::vector<Bytes>& planes) {
  Bytes total;
  for (const Bytes b : planes) total += b;
  return total;
}

}  // namespace

TEST_CASE("the kernel stream reports the kernel time inside a window") {
  KernelStream s;
  CHECK(s.submit(Time::from_us(10), Time::from_us(5)) == Time::from_us(15));
  CHECK(s.submit(Time::from_us(12), Time::from_us(5)) == Time::from_us(20));
  CHECK(s.submit(Time::from_us(30), Time::from_us(2)) == Time::from_us(32));
  CHECK(s.busy_within(Time::zero(), Time::from_us(100)) == Time::from_us(12));
  CHECK(s.busy_within(Time::from_us(18), Time::from_us(31)) == Time::from_us(3));
  s.forget_before(Time::from_us(25));
  CHECK(s.busy_within(Time::zero(), Time::from_us(100)) == Time::from_us(2));
}

TEST_CASE("a lone request at acceptance 1 commits k + 1 tokens one verification step after its full KV") {
  const int c = 8192;
  const int k = 4;
  ServingConfig config = test::quickstart_config(c, 64);
  config.streaming = StreamingMode::after_prefill;
  config.speculation.max_draft_tokens = k;
  const test::LinkParams link{1e9, Time::from_us(10), 0.85, Time::from_ms(1)};
  config.make_network = test::single_link(link);
  Observed seen;
  const MethodResult r = run_serving(config, quant::method_from_name("lynx"), MethodQuality{}, observe(seen));
  const RequestMetrics& m = r.requests.front();

  const TimingModel prefill(config.model, config.prefill.gpu, 1);
  const TimingModel decode(config.model, config.decode.gpu, 1);
  const KvGeometry g = kv_geometry_of(config.model);
  const Bytes int8 = sum(total_plane_bytes(quant::method_from_name("lynx"), g, 1, c));
  const Bytes bf16 = total_plane_bytes(quant::method_from_name("bf16"), g, 1, c)[0];
  const Time encode = prefill.kernel_time(bf16, int8, g.num_layers);
  const Time merge = decode.kernel_time(int8, bf16, g.num_layers);
  const std::vector<int> kv{c + k};
  const std::vector<int> drafts{k};
  const Time verify = decode.verify_step(kv, drafts).time;

  REQUIRE(seen.verifications.size() == 1);
  CHECK(seen.verifications[0].drafted == k);
  CHECK(seen.verifications[0].accepted == k);
  CHECK(m.drafted_tokens == k);
  CHECK(m.prefill_done_at == prefill.prefill(c).time);
  const double wire = link.setup.seconds() + link.latency.seconds() +
                      int8.as_double() / (link.efficiency * link.rate_bps / 8);
  const double full_kv = (prefill.prefill(c).time + encode + merge).seconds() + wire;
  CHECK(m.full_kv_at.seconds() == doctest::Approx(full_kv).epsilon(1e-9));
  CHECK(m.first_commit_at == m.full_kv_at + verify);
  CHECK(m.ttft_commit().seconds() == doctest::Approx(full_kv + verify.seconds()).epsilon(1e-9));

  const auto step = std::find_if(seen.steps.begin(), seen.steps.end(),
                                 [](const DecodeStepDone& s) { return s.verifying == 1; });
  REQUIRE(step != seen.steps.end());
  CHECK(step->finished_at - step->started_at == verify);
  const std::vector<SequenceChunk> forward{{k + 1, c}};
  const std::vector<SequenceChunk> plain{{1, c + k}};
  CHECK(verify == decode.decode_step(kv).time + decode.pass(forward, k + 1).time -
                      decode.pass(plain, 1).time);
  CHECK(m.committed_tokens == 64);
}

TEST_CASE("a dequantize kernel on the decode GPU lengthens the decode step it runs in") {
  ServingConfig config = test::quickstart_config(1024, 400);
  config.streaming = StreamingMode::after_prefill;
  config.requests.push_back(RequestSpec{Time::zero(), 8192, 4});
  Observed seen;
  const MethodResult r = run_serving(config, quant::method_from_name("int8"), MethodQuality{}, observe(seen));
  REQUIRE(r.requests.size() == 2);
  const TimingModel decode(config.model, config.decode.gpu, 1);

  const auto kernel = std::find_if(seen.kernels.begin(), seen.kernels.end(), [](const KernelRan& e) {
    return e.request == 1 && e.kind == "dequantize";
  });
  REQUIRE(kernel != seen.kernels.end());
  const Time kernel_time = kernel->finished_at - kernel->started_at;
  const KvGeometry g = kv_geometry_of(config.model);
  CHECK(kernel_time == decode.kernel_time(total_plane_bytes(quant::method_from_name("int8"), g, 1, 8192)[0],
                                          total_plane_bytes(quant::method_from_name("bf16"), g, 1, 8192)[0],
                                          g.num_layers));
  int charged = 0;
  for (std::size_t i = 0; i < seen.steps.size() && seen.steps[i].batch_size == 1; ++i) {
    const DecodeStepDone& s = seen.steps[i];
    const std::vector<int> kv{1024 + static_cast<int>(i)};
    const bool holds = s.started_at <= kernel->started_at && kernel->started_at < s.finished_at;
    CAPTURE(i);
    CHECK(s.finished_at - s.started_at == decode.decode_step(kv).time + (holds ? kernel_time : Time::zero()));
    charged += holds ? 1 : 0;
  }
  CHECK(charged == 1);
}

TEST_CASE("rejected drafts leave the KV and later steps generate them again") {
  const int c = 8192;
  const int k = 4;
  const int output = 64;
  ServingConfig config = test::quickstart_config(c, output);
  config.streaming = StreamingMode::after_prefill;
  config.speculation.max_draft_tokens = k;
  config.make_network = test::single_link({1e9, Time::from_us(10), 0.85, Time::from_ms(1)});
  Observed seen;
  MethodQuality never;
  never.acceptance = 0.0;
  const MethodResult r = run_serving(config, quant::method_from_name("lynx"), never, observe(seen));
  const RequestMetrics& m = r.requests.front();
  CHECK(m.drafted_tokens == k);
  CHECK(m.wasted_draft_tokens == k);
  CHECK(m.committed_tokens == output);
  CHECK(seen.steps.size() == static_cast<std::size_t>(k + 1 + (output - 1)));
  const TimingModel decode(config.model, config.decode.gpu, 1);
  const DecodeStepDone& after = seen.steps[static_cast<std::size_t>(k + 1)];
  const std::vector<int> kv{c + 1};
  CHECK(after.finished_at - after.started_at == decode.decode_step(kv).time);
}
