#include <doctest/doctest.h>

#include <chrono>

#include "serving_fixture.hpp"
#include "sim/serving/serving_run.hpp"
#include "sim/scenario/length_file.hpp"
#include "sim/scenario/workload_trace.hpp"

using namespace lynxsim;
using namespace lynxsim::serving;
using namespace lynxsim::scenario;

// The Mooncake conversation hour (12,031 requests) on 8 prefill + 8 decode H100 instances of
// Llama-3.1-8B over a 400 Gb/s leaf-spine, for bf16, int8, int4 and lynx. Skipped by default; run
// with `test_serving -tc="*benchmark*" --no-skip`.
TEST_CASE("benchmark: the Mooncake conversation hour with every quickstart method" * doctest::skip()) {
  ServingConfig c;
  c.model = test::model_card("llama-3.1-8b");
  c.prefill.gpu = test::gpu_profile("h100-sxm");
  c.prefill.count = 8;
  c.decode = c.prefill;
  c.make_network = test::leaf_spine(4, 4, 400e9);
  c.router = RouterPolicy::least_loaded;
  c.layers_per_flow = 8;
  c.prefill_schedule.max_batch_tokens = 16384;
  c.requests = read_trace(std::filesystem::path(LYNXSIM_SOURCE_DIR) / "scenarios/traces/mooncake_conversation.jsonl",
                          TraceFormat::mooncake);
  const auto start = std::chrono::steady_clock::now();
  std::uint64_t events = 0;
  double simulated = 0.0;
  for (const char* name : {"bf16", "int8", "int4", "lynx"}) {
    const auto t0 = std::chrono::steady_clock::now();
    const MethodResult r = run_serving(c, quant::method_from_name(name), MethodQuality{0.8, "bench", {}, 0.0});
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    double ttft = 0.0;
    for (const auto& m : r.requests) ttft += m.ttft().seconds();
    MESSAGE(std::string(name) << ": wall " << wall << " s, events " << r.events_executed << ", events/s "
                 << r.events_executed / wall << ", simulated s per wall s "
                 << r.simulated_time.seconds() / wall << ", mean TTFT "
                 << ttft / static_cast<double>(r.requests.size()));
    events += r.events_executed;
    simulated += r.simulated_time.seconds();
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  MESSAGE("all methods: wall " << wall << " s, events/s " << static_cast<double>(events) / wall
                               << ", simulated s per wall s " << simulated / wall);
}
