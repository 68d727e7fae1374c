#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "sim/llm/session.hpp"
#include "real_model.hpp"

using namespace lynxsim::llm;

// Reference values: Hugging Face transformers 5.25 (Gemma3ForCausalLM, float32, CPU) on the same
// GGUF file, dequantized by transformers' own GGUF loader (scripts/hf_crosscheck.py gemma).

TEST_CASE("Gemma 3 270M's configuration is read from its GGUF file") {
  const Model* model = test::gemma_model();
  if (model == nullptr) {
    return;
  }
  const LlamaConfig& c = model->config();
  CHECK(c.is_gemma());
  CHECK(c.n_layers == 18);
  CHECK(c.n_embd == 640);
  CHECK(c.n_heads == 4);
  CHECK(c.n_kv_heads == 1);
  CHECK(c.head_dim == 256);
  CHECK(c.n_ff == 2048);
  CHECK(c.vocab_size == 262144);
  CHECK(c.context_length == 32768);
  CHECK(c.rope_theta == 1e6);
  CHECK(c.rope_theta_local == 1e4);
  CHECK(c.sliding_window == 512);
  std::vector<int> global;
  for (int l = 0; l < c.n_layers; ++l) {
    if (!c.is_local(l)) global.push_back(l);
  }
  CHECK(global == std::vector<int>{5, 11, 17});
  CHECK(c.first_visible(0, 600) == 89);
  CHECK(c.first_visible(5, 600) == 0);
  CHECK(model->tied_output());
}

TEST_CASE("Gemma's tokenizer and next-token logits match transformers on a short prompt") {
  const Model* model = test::gemma_model();
  if (model == nullptr) {
    return;
  }
  const std::vector<int> ids = model->tokenizer().encode_prompt("The quick brown fox jumps over the lazy");
  CHECK(ids == std::vector<int>{2, 818, 3823, 8864, 37423, 38167, 1024, 506, 31770});
  CHECK(model->tokenizer().encode_prompt("The capital of France is") ==
        std::vector<int>{2, 818, 5279, 529, 7001, 563});
  Session session(*model, {2, KvPrecision::F32});
  const std::vector<float>& logits = session.prefill(ids);
  const std::vector<int> top_ids = {4799, 8858, 11149, 11866, 12414};
  const std::vector<double> top_hf = {22.807632, 18.952705, 18.407978, 18.140615, 17.911535};
  std::vector<int> order(logits.size());
  std::iota(order.begin(), order.end(), 0);
  std::partial_sort(order.begin(), order.begin() + 5, order.end(),
                    [&](int a, int b) { return logits[static_cast<std::size_t>(a)] > logits[static_cast<std::size_t>(b)]; });
  for (std::size_t k = 0; k < top_ids.size(); ++k) {
    CHECK(order[k] == top_ids[k]);
    CHECK(std::abs(logits[static_cast<std::size_t>(top_ids[k])] - top_hf[k]) < 1e-3);
  }
}
