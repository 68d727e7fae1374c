#include <doctest/doctest.h>

#include <cmath>
#include <numeric>

#include "reference_llama.hpp"
#include "sim/llm/dequantize.hpp"
#include "sim/llm/model.hpp"
#include "sim/llm/session.hpp"

using namespace lynxsim::llm;

namespace {

const test::TinyModel& tiny() {
  static const test::TinyModel m = test::make_tiny_model(test::TinyConfig{}, 2024);
  return m;
}

const Model& tiny_model() {
  static const Model m = Model::from_gguf(GgufFile::parse(test::tiny_model_gguf(tiny())));
  return m;
}

std::vector<int> tokens_of(int count, std::uint64_t seed) {
  std::vector<int> out(static_cast<std::size_t>(count));
  for (int& t : out) {
    t = static_cast<int>(test::splitmix(seed) % static_cast<std::uint64_t>(tiny().config.vocab));
  }
  return out;
}

double max_abs_diff(std::span<const float> a, std::span<const float> b) {
  REQUIRE(a.size() == b.size());
  double out = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    out = std::max(out, std::fabs(static_cast<double>(a[i]) - b[i]));
  }
  return out;
}

std::span<const float> row(const RowMatrix& m, Eigen::Index r) {
  return {m.row(r).data(), static_cast<std::size_t>(m.cols())};
}

}  // namespace

TEST_CASE("the tiny model's configuration and tied head come from its GGUF metadata") {
  const LlamaConfig& c = tiny_model().config();
  CHECK(c.n_layers == 2);
  CHECK(c.head_dim == 8);
  CHECK(c.kv_dim() == 16);
  CHECK(c.vocab_size == 40);
  CHECK(tiny_model().tied_output());
  CHECK_FALSE(tiny_model().has_tokenizer());
  CHECK_THROWS_AS(tiny_model().tokenizer(), std::logic_error);
}

TEST_CASE("the forward pass of a tiny random model matches a direct double-precision reference") {
  const std::vector<int> tokens = tokens_of(70, 7);
  const std::vector<test::Vec> expected = test::reference_logits(tiny(), tokens);
  Session session(tiny_model(), {2, KvPrecision::F32});
  const RowMatrix logits = session.forward(tokens);
  double worst = 0.0;
  for (std::size_t p = 0; p < tokens.size(); ++p) {
    for (int v = 0; v < tiny().config.vocab; ++v) {
      const double ref = expected[p][static_cast<std::size_t>(v)];
      worst = std::max(
          worst, std::fabs(logits(static_cast<Eigen::Index>(p), v) - ref) / (1.0 + std::fabs(ref)));
    }
  }
  CHECK(worst < 2e-5);
  CHECK(session.position() == 70);
}

TEST_CASE("prefill followed by decode steps reproduces the logits of one forward pass") {
  const std::vector<int> tokens = tokens_of(20, 11);
  Session whole(tiny_model());
  const RowMatrix all = whole.forward(tokens);
  Session stepwise(tiny_model());
  stepwise.prefill(std::span<const int>(tokens).first(12));
  CHECK(max_abs_diff(stepwise.last_logits(), row(all, 11)) < 1e-5);
  for (std::size_t t = 12; t < tokens.size(); ++t) {
    stepwise.decode_step(tokens[t]);
    CHECK(max_abs_diff(stepwise.last_logits(), row(all, static_cast<Eigen::Index>(t))) < 1e-5);
  }
}

TEST_CASE("results are bit-identical for every thread count") {
  const std::vector<int> tokens = tokens_of(150, 3);
  Session one(tiny_model(), {1, KvPrecision::F32});
  const RowMatrix reference = one.forward(tokens);
  const std::vector<int> continuation = one.generate_greedy(10);
  for (const int threads : {2, 3}) {
    Session many(tiny_model(), {threads, KvPrecision::F32});
    CHECK(many.forward(tokens) == reference);
    CHECK(many.generate_greedy(10) == continuation);
  }
}

TEST_CASE("a forked session decodes like the original and is independent of it") {
  const std::vector<int> prompt = tokens_of(30, 5);
  Session original(tiny_model());
  original.prefill(prompt);
  Session fork = original;
  fork.kv().transform([](int layer, LayerKv& kv) {
    if (layer == 0) {
      std::fill(kv.values.begin(), kv.values.end(), 0.0f);
    }
  });
  const std::vector<float> original_next = original.decode_step(1);
  const std::vector<float> fork_next = fork.decode_step(1);
  Session fresh(tiny_model());
  std::vector<int> extended = prompt;
  extended.push_back(1);
  CHECK(max_abs_diff(fresh.prefill(extended), original_next) < 1e-5);
  CHECK(max_abs_diff(fork_next, original_next) > 1e-3);
}

TEST_CASE("the KV cache reads out and writes back in the [kv_head][token][head_dim] layout") {
  Session session(tiny_model());
  session.prefill(tokens_of(9, 13));
  const KvCache& cache = session.kv();
  const LayerKv layer = cache.layer(1);
  CHECK(layer.n_kv_heads == 2);
  CHECK(layer.n_tokens == 9);
  CHECK(layer.keys.size() == 2u * 9u * 8u);
  CHECK(layer.keys[9 * 8 + 3 * 8 + 5] == cache.keys(1, 1)[3 * 8 + 5]);
  const std::vector<float> before = session.last_logits();
  Session copy = session;
  copy.kv().replace_layer(1, layer);
  CHECK(copy.decode_step(4) == Session(session).decode_step(4));
  LayerKv wrong = layer;
  wrong.keys.pop_back();
  CHECK_THROWS_AS(session.kv().replace_layer(1, wrong), std::invalid_argument);
  CHECK_THROWS_AS(cache.keys(2, 0), std::out_of_range);
  CHECK(session.last_queries(0).size() == 32u);
  CHECK(before == session.last_logits());
}

TEST_CASE("a bf16 KV cache stores bf16 values and stays close to the float run") {
  const std::vector<int> tokens = tokens_of(40, 17);
  Session exact(tiny_model(), {1, KvPrecision::F32});
  Session half(tiny_model(), {1, KvPrecision::Bf16});
  const RowMatrix a = exact.forward(tokens);
  const RowMatrix b = half.forward(tokens);
  for (const float v : half.kv().keys(1, 0)) {
    REQUIRE(bf16_to_float(float_to_bf16(v)) == v);
  }
  const double diff = (a - b).cwiseAbs().maxCoeff();
  CHECK(diff > 0.0);
  CHECK(diff < 0.05);
  round_kv_to_bf16(exact.kv());
  CHECK(max_abs_diff(exact.kv().values(0, 1), half.kv().values(0, 1)) == 0.0);
}

TEST_CASE("teacher-forced scores are the log-softmax and argmax of the forward logits") {
  const std::vector<int> tokens = tokens_of(12, 19);
  Session forward_session(tiny_model());
  const RowMatrix logits = forward_session.forward(tokens);
  Session scored(tiny_model());
  const TokenScores s = scored.score(tokens);
  REQUIRE(s.log_prob.size() == tokens.size());
  CHECK(std::isnan(s.log_prob[0]));
  CHECK(s.predicted[0] == -1);
  double sum = 0.0;
  for (std::size_t i = 1; i < tokens.size(); ++i) {
    const auto r = row(logits, static_cast<Eigen::Index>(i) - 1);
    double z = 0.0;
    for (const float v : r) {
      z += std::exp(static_cast<double>(v));
    }
    const double expected = r[static_cast<std::size_t>(tokens[i])] - std::log(z);
    CHECK(s.log_prob[i] == doctest::Approx(expected).epsilon(1e-6));
    CHECK(s.predicted[i] == argmax(r));
    sum += expected;
  }
  CHECK(perplexity(s) == doctest::Approx(std::exp(-sum / 11.0)).epsilon(1e-6));
}

TEST_CASE("greedy generation appends the argmax token at every step") {
  Session session(tiny_model());
  session.prefill(tokens_of(6, 23));
  Session replay = session;
  const std::vector<int> generated = session.generate_greedy(8);
  REQUIRE(generated.size() == 8u);
  for (const int t : generated) {
    CHECK(argmax(replay.last_logits()) == t);
    replay.decode_step(t);
  }
  CHECK(session.position() == 14);
}

TEST_CASE("invalid tokens and over-long sequences are rejected without corrupting the cache") {
  Session session(tiny_model());
  session.prefill(tokens_of(4, 29));
  const std::vector<int> bad{1, 40};
  CHECK_THROWS_AS(session.prefill(bad), std::invalid_argument);
  CHECK(session.position() == 4);
  const std::vector<int> long_tokens(253, 1);
  CHECK_THROWS_AS(session.prefill(long_tokens), std::invalid_argument);
  CHECK(session.position() == 4);
  CHECK_THROWS_AS(Session(tiny_model()).generate_greedy(3), std::logic_error);
}

TEST_CASE("rewinding drops later tokens so a rejected draft can be replaced") {
  Session session(tiny_model());
  session.prefill(tokens_of(10, 31));
  const std::vector<float> first = session.decode_step(3);
  session.generate_greedy(4);
  session.rewind(10);
  CHECK(session.position() == 10);
  CHECK(session.last_logits().empty());
  CHECK(session.decode_step(3) == first);
  CHECK_THROWS_AS(session.rewind(12), std::invalid_argument);
}
