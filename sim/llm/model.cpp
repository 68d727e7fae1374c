#include "sim/llm/model.hpp"

#include <stdexcept>
#include <string>

#include "sim/llm/dequantize.hpp"

namespace lynxsim::llm {
namespace {

RowMatrix load_matrix(const GgufFile& file, const std::string& name, int rows, int cols) {
  const GgufTensorInfo& info = file.tensor(name);
  if (info.dims.size() != 2 || info.dims[0] != static_cast<std::uint64_t>(cols) ||
      info.dims[1] != static_cast<std::uint64_t>(rows)) {
    throw GgufError("tensor '" + name + "' must have shape [" + std::to_string(cols) + ", " +
                    std::to_string(rows) + "]");
  }
  RowMatrix out(rows, cols);
  dequantize(info.type, file.tensor_bytes(info),
             std::span<float>(out.data(), static_cast<std::size_t>(out.size())));
  return out;
}

Eigen::VectorXf load_vector(const GgufFile& file, const std::string& name, int size) {
  const GgufTensorInfo& info = file.tensor(name);
  if (info.dims.size() != 1 || info.dims[0] != static_cast<std::uint64_t>(size)) {
    throw GgufError("tensor '" + name + "' must have shape [" + std::to_string(size) + "]");
  }
  Eigen::VectorXf out(size);
  dequantize(info.type, file.tensor_bytes(info),
             std::span<float>(out.data(), static_cast<std::size_t>(out.size())));
  return out;
}

LayerWeights load_layer(const GgufFile& file, const LlamaConfig& c, int index) {
  const std::string p = "blk." + std::to_string(index) + ".";
  LayerWeights w;
  w.attn_norm = load_vector(file, p + "attn_norm.weight", c.n_embd);
  w.ffn_norm = load_vector(file, p + "ffn_norm.weight", c.n_embd);
  if (c.is_gemma()) {
    w.q_norm = load_vector(file, p + "attn_q_norm.weight", c.head_dim);
    w.k_norm = load_vector(file, p + "attn_k_norm.weight", c.head_dim);
    w.post_attn_norm = load_vector(file, p + "post_attention_norm.weight", c.n_embd);
    w.post_ffn_norm = load_vector(file, p + "post_ffw_norm.weight", c.n_embd);
  }
  w.wq = load_matrix(file, p + "attn_q.weight", c.q_dim(), c.n_embd);
  w.wk = load_matrix(file, p + "attn_k.weight", c.kv_dim(), c.n_embd);
  w.wv = load_matrix(file, p + "attn_v.weight", c.kv_dim(), c.n_embd);
  w.wo = load_matrix(file, p + "attn_output.weight", c.n_embd, c.q_dim());
  w.w_gate = load_matrix(file, p + "ffn_gate.weight", c.n_ff, c.n_embd);
  w.w_up = load_matrix(file, p + "ffn_up.weight", c.n_ff, c.n_embd);
  w.w_down = load_matrix(file, p + "ffn_down.weight", c.n_embd, c.n_ff);
  return w;
}

}  // namespace

Model Model::load(const std::filesystem::path& path) {
  const GgufFile file = GgufFile::read(path);
  try {
    return from_gguf(file);
  } catch (const GgufError& error) {
    throw GgufError(path.string() + ": " + error.what());
  }
}

Model Model::from_gguf(const GgufFile& file) {
  Model m;
  m.config_ = LlamaConfig::from_gguf(file);
  const LlamaConfig& c = m.config_;
  m.token_embd_ = load_matrix(file, "token_embd.weight", c.vocab_size, c.n_embd);
  if (file.find_tensor("output.weight") != nullptr) {
    m.output_ = load_matrix(file, "output.weight", c.vocab_size, c.n_embd);
  }
  m.output_norm_ = load_vector(file, "output_norm.weight", c.n_embd);
  for (int l = 0; l < c.n_layers; ++l) {
    m.layers_.push_back(load_layer(file, c, l));
  }
  if (file.has("tokenizer.ggml.tokens")) {
    m.tokenizer_ = Tokenizer::from_gguf(file);
  }
  return m;
}

const Tokenizer& Model::tokenizer() const {
  if (!tokenizer_) {
    throw std::logic_error("this model file carries no tokenizer");
  }
  return *tokenizer_;
}

}  // namespace lynxsim::llm
