#include <doctest/doctest.h>

#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "serving_fixture.hpp"
#include "sim/net/network_factory.hpp"
#include "sim/serving/serving_events.hpp"
#include "sim/serving/serving_run.hpp"

using namespace lynxsim;
using namespace lynxsim::serving;

namespace {

// Ratios of the four default levels, close to what accuracy::run_cachegen_sizes measures.
const std::vector<double> kRatios{0.20, 0.10, 0.06, 0.04};
constexpr double kBf16PerToken = 4.0 * 8 * 128 * 32;  // llama-3.1-8b, one rank

MethodQuality cachegen_quality() {
  MethodQuality q;
  q.cachegen_level_ratios = kRatios;
  return q;
}

struct CachegenRun {
  RequestMetrics metrics;
  std::vector<std::string> chunk_labels;  // in send order
  std::vector<std::int64_t> chunk_bytes;
  double encode_s = 0.0;
  double flows_s = 0.0;
  double decode_s = 0.0;
};

CachegenRun run_cachegen(const ServingConfig& config, const quant::MethodSpec& method,
                         const MethodQuality& quality = cachegen_quality()) {
  CachegenRun out;
  const SimulatorHook hook = [&out](Simulator& sim) {
    sim.bus().subscribe<net::FlowStarted>([&out](const net::FlowStarted& e) {
      out.chunk_labels.push_back(e.record.spec.label);
      out.chunk_bytes.push_back(e.record.spec.size.value);
    });
    sim.bus().subscribe<net::FlowFinished>([&out](const net::FlowFinished& e) {
      out.flows_s += (e.record.finished_at - e.record.started_at).seconds();
    });
    sim.bus().subscribe<KernelRan>([&out](const KernelRan& e) {
      const double s = (e.finished_at - e.started_at).seconds();
      (e.kind == "cachegen-encode" ? out.encode_s : out.decode_s) += s;
    });
  };
  const MethodResult r = run_serving(config, method, quality, hook);
  REQUIRE(r.requests.size() == 1);
  out.metrics = r.requests.front();
  return out;
}

ServingConfig link_config(double rate_bps, int context) {
  ServingConfig c = test::quickstart_config(context, 4);
  c.make_network = test::single_link({rate_bps, Time::from_us(10), 0.85, Time::from_us(10)});
  return c;
}

// Mean level over chunks, a text chunk counting as one level below the coarsest.
double mean_level(const RequestMetrics& m) {
  double sum = 4.0 * m.cachegen_text_chunks;
  int chunks = m.cachegen_text_chunks;
  for (std::size_t l = 0; l < m.cachegen_chunks_per_level.size(); ++l) {
    sum += static_cast<double>(l) * m.cachegen_chunks_per_level[l];
    chunks += m.cachegen_chunks_per_level[l];
  }
  return sum / chunks;
}

int level_of(const std::string& label) {
  if (label.find("text") != std::string::npos) return 4;
  return label[label.find("level") + 5] - '0';
}

}  // namespace

TEST_CASE("cachegen cuts the context into 1500-token chunks and counts every chunk once") {
  const CachegenRun run = run_cachegen(link_config(400e9, 15000), quant::method_from_name("cachegen-0"));
  const RequestMetrics& m = run.metrics;
  REQUIRE(m.cachegen_chunks_per_level.size() == 4);
  CHECK(std::accumulate(m.cachegen_chunks_per_level.begin(), m.cachegen_chunks_per_level.end(), 0) +
            m.cachegen_text_chunks == 10);
  CHECK(m.cachegen_chunks_per_level[0] == 10);
  CHECK(run.chunk_labels.size() == 10);
}

TEST_CASE("cachegen picks coarser levels as the link slows and sends text under the floor") {
  const quant::MethodSpec method = quant::method_from_name("cachegen-0");
  double previous = -1.0;
  for (const double rate : {400e9, 4e9, 1e9, 0.3e9, 20e6}) {
    const RequestMetrics m = run_cachegen(link_config(rate, 15000), method).metrics;
    const double level = mean_level(m);
    CHECK(level >= previous);
    previous = level;
    if (rate == 20e6) CHECK(m.cachegen_text_chunks >= 8);
    if (rate == 400e9) CHECK(m.cachegen_text_chunks == 0);
  }
  CHECK(previous > 3.0);
}

TEST_CASE("cachegen follows a bandwidth trace: coarser levels, then text, after the link slows") {
  ServingConfig c = test::quickstart_config(30000, 4);
  c.streaming = StreamingMode::after_prefill;
  const RequestMetrics baseline = run_cachegen(c, quant::method_from_name("cachegen-0")).metrics;
  CHECK(baseline.cachegen_chunks_per_level[0] == 20);
  const Time drop_at = baseline.prefill_done_at + Time::from_ms(60);
  c.make_network = [drop_at](Simulator& sim) {
    net::NetworkSpec spec;
    spec.topology = net::SingleLinkTopology{net::LinkSpec{BitsPerSecond{25e9}, Time::from_us(10), 0.85}};
    spec.setup_time = Time::from_us(10);
    spec.traces.push_back({"link", {net::TracePoint{drop_at, BitsPerSecond{1e9}}}, false});
    return net::make_network(sim, spec);
  };
  const CachegenRun run = run_cachegen(c, quant::method_from_name("cachegen-0"));
  REQUIRE(run.chunk_labels.size() == 20);
  CHECK(level_of(run.chunk_labels[0]) == 0);
  CHECK(level_of(run.chunk_labels[1]) == 0);
  int worst_after_drop = 0;
  for (std::size_t i = 2; i < run.chunk_labels.size(); ++i) {
    CHECK(level_of(run.chunk_labels[i]) >= 2);
    worst_after_drop = std::max(worst_after_drop, level_of(run.chunk_labels[i]));
  }
  CHECK(worst_after_drop == 4);
  CHECK(run.metrics.cachegen_text_chunks > 0);
}

TEST_CASE("cachegen sends exactly the measured bytes of each chunk at its level") {
  const CachegenRun run = run_cachegen(link_config(2e9, 10000), quant::method_from_name("cachegen-0"));
  std::int64_t total = 0;
  for (std::size_t k = 0; k < run.chunk_labels.size(); ++k) {
    const int tokens = std::min(1500, 10000 - static_cast<int>(k) * 1500);
    const int level = level_of(run.chunk_labels[k]);
    const auto expected = level == 4 ? 4LL * tokens
                                     : std::llround(kBf16PerToken * tokens * kRatios[static_cast<std::size_t>(level)]);
    CHECK(run.chunk_bytes[k] == expected);
    total += expected;
  }
  CHECK(run.metrics.plane_bytes.size() == 1);
  CHECK(run.metrics.plane_bytes.front().value == total);
}

TEST_CASE("cachegen pipelines encode, transfer and decode chunk by chunk") {
  ServingConfig c = link_config(25e9, 32768);
  c.streaming = StreamingMode::after_prefill;
  const CachegenRun run = run_cachegen(c, quant::method_from_name("cachegen"));
  const double exposed = run.metrics.exposed_transfer_time().seconds();
  REQUIRE(run.encode_s > 0.0);
  REQUIRE(run.decode_s > 0.0);
  CHECK(exposed < 0.9 * (run.encode_s + run.flows_s + run.decode_s));
  CHECK(exposed >= std::max({run.encode_s, run.flows_s, run.decode_s}));
  CHECK(run.metrics.full_kv_at == run.metrics.decode_ready_at);
}

TEST_CASE("cachegen encodes every level of its ladder at the configured coder throughput") {
  quant::MethodSpec method = quant::method_from_name("cachegen");
  method.cachegen.encode_mb_per_s = 1000.0;
  const CachegenRun run = run_cachegen(link_config(400e9, 3000), method);
  const double ladder = 3.0;  // levels 1, 2, 3
  CHECK(run.encode_s == doctest::Approx(ladder * kBf16PerToken * 3000 / 1e9).epsilon(1e-6));
}

TEST_CASE("a text chunk is recomputed on the decode GPU") {
  const CachegenRun run = run_cachegen(link_config(10e6, 3000), quant::method_from_name("cachegen"));
  CHECK(run.metrics.cachegen_text_chunks >= 1);
  CHECK(run.decode_s > 0.0);
  CHECK(run.metrics.decode_ready_at > run.metrics.prefill_done_at);
}

TEST_CASE("cachegen completes the quickstart request and beats bf16 and int8 sent after prefill") {
  ServingConfig c = test::quickstart_config();
  const RequestMetrics layerwise = run_cachegen(c, quant::method_from_name("cachegen")).metrics;
  CHECK(layerwise.committed_tokens == 128);
  CHECK(std::accumulate(layerwise.cachegen_chunks_per_level.begin(), layerwise.cachegen_chunks_per_level.end(), 0) +
            layerwise.cachegen_text_chunks == 22);
  c.streaming = StreamingMode::after_prefill;
  const RequestMetrics cg = run_cachegen(c, quant::method_from_name("cachegen")).metrics;
  CHECK(cg.ttft().seconds() == doctest::Approx(layerwise.ttft().seconds()).epsilon(1e-3));
  for (const char* name : {"bf16", "int8"}) {
    const RequestMetrics other = run_serving(c, quant::method_from_name(name), MethodQuality{}).requests.front();
    CHECK(cg.ttft() < other.ttft());
  }
}

TEST_CASE("cachegen without measured sizes is refused") {
  const ServingConfig c = test::quickstart_config(4096, 2);
  CHECK_THROWS_AS(run_serving(c, quant::method_from_name("cachegen"), MethodQuality{}), std::invalid_argument);
  MethodQuality one_level;
  one_level.measured_size_ratio = 0.1;
  CHECK(run_serving(c, quant::method_from_name("cachegen"), one_level).requests.front().cachegen_chunks_per_level.size() == 1);
}

TEST_CASE("cachegen method parameters are validated") {
  quant::MethodSpec m = quant::method_from_name("cachegen-2");
  CHECK(m.cachegen_level == 2);
  CHECK(quant::validate_method(m).empty());
  m.cachegen.chunk_tokens = 0;
  m.cachegen.slo_s = 0.0;
  CHECK(quant::validate_method(m).size() == 2);
}
