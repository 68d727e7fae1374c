#pragma once
// Builders of small GGUF files for the llm tests: a sample file exercising the reader, and a tiny
// random Llama model whose float weights the tests keep for a reference forward pass.

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/llm/gguf_writer.hpp"

namespace lynxsim::llm::test {

inline std::uint64_t splitmix(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// Uniform in [-1, 1).
inline float uniform_pm1(std::uint64_t& state) {
  return static_cast<float>(static_cast<double>(splitmix(state) >> 11) * 0x1.0p-52 - 1.0);
}

inline std::vector<float> random_values(std::uint64_t& state, std::size_t count, float scale,
                                        float offset = 0.0f) {
  std::vector<float> out(count);
  for (float& v : out) {
    v = offset + scale * uniform_pm1(state);
  }
  return out;
}

struct TinyConfig {
  int n_layers = 2;
  int n_embd = 32;
  int n_heads = 4;
  int n_kv_heads = 2;
  int n_ff = 48;
  int vocab = 40;
  int context = 256;
  float theta = 10000.0f;
  float eps = 1e-5f;
};

struct TinyLayer {
  std::vector<float> attn_norm, ffn_norm, wq, wk, wv, wo, w_gate, w_up, w_down;
};

struct TinyModel {
  TinyConfig config;
  std::vector<float> token_embd;  // [vocab][n_embd]
  std::vector<float> output_norm;
  std::vector<TinyLayer> layers;
};

inline TinyModel make_tiny_model(const TinyConfig& c, std::uint64_t seed) {
  std::uint64_t s = seed;
  const auto d = static_cast<std::size_t>(c.n_embd);
  const std::size_t kv = d / static_cast<std::size_t>(c.n_heads) * c.n_kv_heads;
  const auto ff = static_cast<std::size_t>(c.n_ff);
  const float w_scale = 1.7f / static_cast<float>(std::sqrt(static_cast<double>(c.n_embd)));
  TinyModel m{c, random_values(s, c.vocab * d, 1.0f), random_values(s, d, 0.2f, 1.0f), {}};
  for (int l = 0; l < c.n_layers; ++l) {
    TinyLayer L;
    L.attn_norm = random_values(s, d, 0.2f, 1.0f);
    L.ffn_norm = random_values(s, d, 0.2f, 1.0f);
    L.wq = random_values(s, d * d, w_scale);
    L.wk = random_values(s, kv * d, w_scale);
    L.wv = random_values(s, kv * d, w_scale);
    L.wo = random_values(s, d * d, w_scale);
    L.w_gate = random_values(s, ff * d, w_scale);
    L.w_up = random_values(s, ff * d, w_scale);
    L.w_down = random_values(s, d * ff, w_scale);
    m.layers.push_back(std::move(L));
  }
  return m;
}

inline std::vector<std::uint8_t> tiny_model_gguf(const TinyModel& m) {
  const TinyConfig& c = m.config;
  const auto d = static_cast<std::uint64_t>(c.n_embd);
  const std::uint64_t kv = d / static_cast<std::uint64_t>(c.n_heads) * c.n_kv_heads;
  const auto ff = static_cast<std::uint64_t>(c.n_ff);
  GgufWriter w;
  w.add_string("general.architecture", "llama");
  w.add_u32("llama.block_count", static_cast<std::uint32_t>(c.n_layers));
  w.add_u32("llama.embedding_length", static_cast<std::uint32_t>(c.n_embd));
  w.add_u32("llama.attention.head_count", static_cast<std::uint32_t>(c.n_heads));
  w.add_u32("llama.attention.head_count_kv", static_cast<std::uint32_t>(c.n_kv_heads));
  w.add_u32("llama.feed_forward_length", static_cast<std::uint32_t>(c.n_ff));
  w.add_u32("llama.context_length", static_cast<std::uint32_t>(c.context));
  w.add_f32("llama.rope.freq_base", c.theta);
  w.add_f32("llama.attention.layer_norm_rms_epsilon", c.eps);
  w.add_f32_tensor("token_embd.weight", {d, static_cast<std::uint64_t>(c.vocab)}, m.token_embd);
  w.add_f32_tensor("output_norm.weight", {d}, m.output_norm);
  for (int l = 0; l < c.n_layers; ++l) {
    const TinyLayer& L = m.layers[static_cast<std::size_t>(l)];
    const std::string p = "blk." + std::to_string(l) + ".";
    w.add_f32_tensor(p + "attn_norm.weight", {d}, L.attn_norm);
    w.add_f32_tensor(p + "ffn_norm.weight", {d}, L.ffn_norm);
    w.add_f32_tensor(p + "attn_q.weight", {d, d}, L.wq);
    w.add_f32_tensor(p + "attn_k.weight", {d, kv}, L.wk);
    w.add_f32_tensor(p + "attn_v.weight", {d, kv}, L.wv);
    w.add_f32_tensor(p + "attn_output.weight", {d, d}, L.wo);
    w.add_f32_tensor(p + "ffn_gate.weight", {d, ff}, L.w_gate);
    w.add_f32_tensor(p + "ffn_up.weight", {d, ff}, L.w_up);
    w.add_f32_tensor(p + "ffn_down.weight", {ff, d}, L.w_down);
  }
  return w.bytes();
}

}  // namespace lynxsim::llm::test
