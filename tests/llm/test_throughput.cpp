#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

#include "sim/llm/model.hpp"
#include "sim/llm/throughput.hpp"
#include "tiny_gguf.hpp"

using namespace lynxsim::llm;

namespace {

const Model& model() {
  static const Model m = Model::from_gguf(GgufFile::parse(test::tiny_model_gguf(test::make_tiny_model({}, 99))));
  return m;
}

}  // namespace

TEST_CASE("throughput rates are tokens over wall seconds, zero when nothing was timed") {
  const Throughput t{600, 32, 2.0, 0.5};
  CHECK(t.prefill_tokens_per_s() == doctest::Approx(300.0));
  CHECK(t.decode_tokens_per_s() == doctest::Approx(64.0));
  CHECK(Throughput{}.prefill_tokens_per_s() == 0.0);
  CHECK(Throughput{}.decode_tokens_per_s() == 0.0);
}

TEST_CASE("the throughput measurement prefills the whole prompt and decodes the requested tokens") {
  const std::vector<int> prompt{1, 5, 7, 2, 9, 11, 3, 3, 8, 0, 4, 6};
  const Throughput t = measure_throughput(model(), prompt, ThroughputConfig{5, 2});
  CHECK(t.prompt_tokens == 12);
  CHECK(t.decoded_tokens == 5);
  CHECK(t.threads == 2);
  CHECK(t.prefill_s >= 0.0);
  CHECK(t.decode_s >= 0.0);
}

TEST_CASE("the throughput measurement rejects an empty prompt and a non-positive decode count") {
  const std::vector<int> prompt{1, 2, 3};
  CHECK_THROWS_AS(measure_throughput(model(), {}, ThroughputConfig{}), std::invalid_argument);
  CHECK_THROWS_AS(measure_throughput(model(), prompt, ThroughputConfig{0, 1}), std::invalid_argument);
}
