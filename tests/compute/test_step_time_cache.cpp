#include <doctest/doctest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "compute_fixtures.hpp"
#include "sim/compute/timing_model.hpp"

namespace lynxsim {
namespace {

struct Setup {
  std::string model_name;
  std::string gpu_name;
  int tp;
  std::optional<EngineSpec> engine;
  ExpertParallelLayout layout{};
  ModelSpec model = test::shipped_model(model_name);
  HardwareSpec gpu = test::shipped_hardware(gpu_name);
};

EngineSpec costly_engine() {
  EngineSpec e;
  e.name = "costly";
  e.step_overhead = Time::from_us(900);
  e.step_overhead_per_sequence = Time::from_ns(1700);
  e.step_overhead_per_context_token = Time::from_ns(17);
  e.cuda_graphs = false;
  e.layer_launch_overhead = Time::from_us(21);
  e.tp_comm_overlap = 0.4;
  return e;
}

// A decode batch of `sequences` around a mean KV length, with `verifiers` of them verifying drafts.
struct Batch {
  PassTotals plain;
  PassTotals verifying;
  int rows = 0;
};

Batch random_batch(std::mt19937_64& rng, int sequences, int mean_length, int verifiers) {
  std::uniform_int_distribution<int> spread(0, 2 * mean_length);
  std::uniform_int_distribution<int> drafts(1, 16);
  Batch b;
  for (int i = 0; i < sequences; ++i) {
    const int length = 16 + spread(rng);
    const int k = i < verifiers ? drafts(rng) : 0;
    b.plain.add({1, length});
    b.verifying.add({k + 1, length - k});
    b.rows += k + 1;
  }
  return b;
}

// The same step timed by a model that has seen nothing before (every memo misses), as a pass.
TimingModel timing_of(const Setup& s) {
  TimingModel timing(s.model, s.gpu, s.tp, s.engine);
  timing.set_parallel_layout(s.layout);
  return timing;
}

Time uncached(const Setup& s, const Batch& b) {
  return timing_of(s).verify_step(b.plain, b.verifying, b.rows).time;
}

}  // namespace

TEST_CASE("memoized step times equal uncached ones, bit for bit, on random decode batches") {
  const std::vector<Setup> setups{{"llama-3.1-8b", "h100-sxm", 1, std::nullopt},
                                  {"llama-3.1-8b", "h100-sxm", 2, costly_engine()},
                                  {"qwen2.5-7b", "ascend-910b", 1, std::nullopt},
                                  {"llama-3.1-70b", "h200", 8, costly_engine()},
                                  {"gemma-3-27b", "h100-sxm", 2, std::nullopt},
                                  {"deepseek-v3", "h800-sxm", 8, std::nullopt},
                                  {"deepseek-v3", "h800-sxm", 8, std::nullopt, {8, 8, 1.2, 8}}};
  std::mt19937_64 rng(20261204);
  for (const Setup& s : setups) {
    CAPTURE(s.model_name);
    CAPTURE(s.tp);
    const TimingModel cached = timing_of(s);
    std::uniform_int_distribution<int> sequences(1, 300);
    std::uniform_int_distribution<int> mean_length(1, 20000);
    for (int i = 0; i < 150; ++i) {
      const int n = sequences(rng);
      const Batch b = random_batch(rng, n, mean_length(rng), i % 3 == 0 ? 1 + n / 4 : 0);
      const Time expected = uncached(s, b);
      CHECK(cached.verify_step_time(b.plain, b.verifying, b.rows) == expected);
      CHECK(cached.verify_step_time(b.plain, b.verifying, b.rows) == expected);
      CHECK(cached.verify_step(b.plain, b.verifying, b.rows).time == expected);
    }
  }
}

TEST_CASE("consecutive decode steps of one batch are timed as if each were the first") {
  for (const Setup& s : {Setup{"llama-3.1-8b", "h100-sxm", 1, std::nullopt},
                         Setup{"qwen3-next-80b-a3b", "h200", 4, costly_engine()},
                         Setup{"deepseek-v3", "h800-sxm", 16, std::nullopt, {16, 16, 1.0, 8}}}) {
    CAPTURE(s.model_name);
    const TimingModel cached = timing_of(s);
    std::mt19937_64 rng(7);
    for (const int size : {1, 3, 17, 64, 101, 256}) {
      CAPTURE(size);
      const TimingModel::DecodeSteps steps = cached.decode_steps(size);
      std::int64_t lengths = std::uniform_int_distribution<std::int64_t>(0, 6000)(rng) * size;
      for (int step = 0; step < 300; ++step, lengths += size) {
        PassTotals plain;
        plain.sequences = size;
        plain.new_tokens = size;
        plain.attention_pairs = static_cast<double>(lengths) + 0.5 * size;
        plain.kv_read_tokens = static_cast<double>(lengths + size);
        const Batch b{plain, {}, size};
        const Time expected = uncached(s, b);
        CHECK(steps.time(lengths) == expected);
        CHECK(cached.verify_step_time(b.plain, b.verifying, b.rows) == expected);
      }
    }
  }
}

TEST_CASE("decode steps equal uncached steps when KV lengths jump back and forth across KV blocks") {
  for (const Setup& s : {Setup{"llama-3.1-8b", "h100-sxm", 1, std::nullopt},
                         Setup{"llama-3.1-8b", "h100-sxm", 2, costly_engine()},
                         Setup{"qwen2.5-7b", "ascend-910b", 1, std::nullopt},
                         Setup{"llama-3.1-70b", "h200", 8, costly_engine()}}) {
    CAPTURE(s.model_name);
    const TimingModel cached = timing_of(s);
    std::mt19937_64 rng(11);
    for (const int size : {1, 2, 9, 128}) {
      CAPTURE(size);
      const TimingModel::DecodeSteps steps = cached.decode_steps(size);
      std::uniform_int_distribution<std::int64_t> mean(0, 40000);
      std::uniform_int_distribution<std::int64_t> near(-3, 3);
      std::int64_t lengths = mean(rng) * size;
      for (int step = 0; step < 200; ++step) {
        const std::int64_t moved = lengths + near(rng) * size + step % 2;
        lengths = step % 7 == 0 ? mean(rng) * size : std::max<std::int64_t>(0, moved);
        PassTotals plain;
        plain.sequences = size;
        plain.new_tokens = size;
        plain.attention_pairs = static_cast<double>(lengths) + 0.5 * size;
        plain.kv_read_tokens = static_cast<double>(lengths + size);
        CHECK(steps.time(lengths) == uncached(s, Batch{plain, {}, size}));
      }
    }
  }
}

TEST_CASE("decode steps need a batch") {
  const Setup s{"llama-3.1-8b", "h100-sxm", 1, std::nullopt};
  const TimingModel tm(s.model, s.gpu, s.tp, s.engine);
  CHECK_THROWS_AS(tm.decode_steps(0), std::invalid_argument);
}

}  // namespace lynxsim
