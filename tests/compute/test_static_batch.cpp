#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

#include "compute_fixtures.hpp"
#include "sim/compute/static_batch.hpp"
#include "sim/compute/timing_model.hpp"

namespace lynxsim {
namespace {

TEST_CASE("a static batch is one prefill pass of every prompt, then one decode step per further token") {
  const TimingModel timing(test::tiny_model(), test::round_device(), 1);
  const std::vector<SequenceChunk> prompts(3, SequenceChunk{40, 0});
  const double prefill = timing.pass(prompts, 3).time.seconds();
  CHECK(static_batch_time(timing, {3, 40, 1}).seconds() == doctest::Approx(prefill).epsilon(1e-12));
  const double step40 = timing.decode_step(std::vector<int>(3, 40)).time.seconds();
  const double step41 = timing.decode_step(std::vector<int>(3, 41)).time.seconds();
  CHECK(static_batch_time(timing, {3, 40, 3}).seconds() ==
        doctest::Approx(prefill + step40 + step41).epsilon(1e-9));
}

TEST_CASE("a static batch's decode steps carry the engine's per-sequence step cost") {
  EngineSpec engine;
  engine.step_overhead = Time::from_seconds(1e-3);
  engine.step_overhead_per_sequence = Time::from_seconds(50e-6);
  const TimingModel with(test::tiny_model(), test::round_device(), 1, engine);
  engine.step_overhead_per_sequence = Time{};
  const TimingModel without(test::tiny_model(), test::round_device(), 1, engine);
  const double extra = static_batch_time(with, {8, 16, 11}).seconds() -
                       static_batch_time(without, {8, 16, 11}).seconds();
  CHECK(extra == doctest::Approx(11 * 8 * 50e-6).epsilon(1e-6));
}

TEST_CASE("a static batch without sequences or tokens is refused") {
  const TimingModel timing(test::tiny_model(), test::round_device(), 1);
  CHECK_THROWS_AS(static_batch_time(timing, {0, 16, 4}), std::invalid_argument);
  CHECK_THROWS_AS(static_batch_time(timing, {1, 0, 4}), std::invalid_argument);
  CHECK_THROWS_AS(static_batch_time(timing, {1, 16, 0}), std::invalid_argument);
}

}  // namespace
}  // namespace lynxsim
