// read_model_card (card_reader.hpp): the model-card, model-attention, model-attention-linear and
// model-moe tables of card_fields.cpp.

#include <optional>
#include <string>

#include <fmt/format.h>

#include "sim/scenario/card_fields.hpp"
#include "sim/scenario/card_reader.hpp"
#include "sim/scenario/card_values.hpp"

namespace lynxsim::scenario {
namespace {

const FieldSection& table(std::string_view id) { return field_section(id); }

int count_of(ObjectReader& r, const FieldSection& t, std::string_view key) {
  return r.count(t[key]).value_or(0);
}

MlaSpec read_mla(ObjectReader& r) {
  const FieldSection& t = table("model-attention");
  auto required = [&](std::string_view key) {
    Field f = t[key];
    f.required = true;
    return r.count(f).value_or(0);
  };
  MlaSpec a;
  a.kv_lora_rank = required("kv_lora_rank");
  a.qk_rope_head_dim = required("qk_rope_head_dim");
  a.qk_nope_head_dim = required("qk_nope_head_dim");
  a.v_head_dim = required("v_head_dim");
  a.q_lora_rank = required("q_lora_rank");
  return a;
}

LinearAttentionSpec read_linear(const nlohmann::json& value, const std::string& path,
                                IssueList& issues) {
  const FieldSection& t = table("model-attention-linear");
  ObjectReader r(value, path, issues);
  LinearAttentionSpec l;
  l.key_heads = count_of(r, t, "key_heads");
  l.value_heads = count_of(r, t, "value_heads");
  l.key_head_dim = count_of(r, t, "key_head_dim");
  l.value_head_dim = count_of(r, t, "value_head_dim");
  l.conv_kernel = count_of(r, t, "conv_kernel");
  r.string(t["comment"]);
  r.finish();
  return l;
}

void check_layer_pattern(ObjectReader& r, const AttentionLayout& a) {
  const std::string& p = a.layer_pattern;
  if (p.find_first_not_of("FSL") != std::string::npos) {
    r.issues().add(r.child("layer_pattern"),
                   "expected letters F (full), S (sliding window) and L (linear) only");
  }
  if ((p.find('S') != std::string::npos) != (a.sliding_window > 0)) {
    r.issues().add(r.child("sliding_window"), "expected exactly when layer_pattern has S layers");
  }
  if ((p.find('L') != std::string::npos) != a.linear.has_value()) {
    r.issues().add(r.child("linear"), "expected exactly when layer_pattern has L layers");
  }
}

AttentionLayout read_attention(const nlohmann::json& value, const std::string& path,
                               IssueList& issues) {
  const FieldSection& t = table("model-attention");
  ObjectReader r(value, path, issues);
  AttentionLayout a;
  if (!r.valid()) return a;
  if (r.string(t["kind"]) == "mla") a.mla = read_mla(r);
  a.sliding_window = r.count(t["sliding_window"]).value_or(0);
  a.layer_pattern = r.string(t["layer_pattern"]).value_or("");
  if (const nlohmann::json* linear = r.get("linear")) {
    a.linear = read_linear(*linear, r.child("linear"), issues);
  }
  check_layer_pattern(r, a);
  r.string(t["comment"]);
  r.finish();
  return a;
}

MoeSpec read_moe(const nlohmann::json& value, const std::string& path, int num_layers,
                 IssueList& issues) {
  const FieldSection& t = table("model-moe");
  ObjectReader r(value, path, issues);
  MoeSpec e;
  e.experts = count_of(r, t, "experts");
  e.top_k = count_of(r, t, "top_k");
  e.shared_experts = count_of(r, t, "shared_experts");
  e.expert_ffn_dim = count_of(r, t, "expert_ffn_dim");
  e.first_dense_layers = count_of(r, t, "first_dense_layers");
  if (e.top_k > e.experts) r.issues().add(r.child("top_k"), "expected at most the number of experts");
  if (num_layers > 0 && e.first_dense_layers >= num_layers) {
    r.issues().add(r.child("first_dense_layers"), "expected fewer than num_layers");
  }
  r.string(t["comment"]);
  r.finish();
  return e;
}

void read_shape(ObjectReader& r, const FieldSection& t, ModelSpec& m) {
  m.num_layers = count_of(r, t, "num_layers");
  m.hidden_size = count_of(r, t, "hidden_size");
  m.num_heads = count_of(r, t, "num_heads");
  m.num_kv_heads = count_of(r, t, "num_kv_heads");
  m.head_dim = count_of(r, t, "head_dim");
  m.ffn_dim = count_of(r, t, "ffn_dim");
  m.vocab_size = count_of(r, t, "vocab_size");
  m.num_params = r.number(t["num_params"]).value_or(0.0);
  m.rope_theta = r.number(t["rope_theta"]).value_or(0.0);
  m.max_context = count_of(r, t, "max_context");
}

std::optional<WeightFormat> format_of(ObjectReader& r, const FieldSection& t, std::string_view key) {
  const auto name = r.string(t[key]);
  return name ? weight_format_named(*name) : std::nullopt;
}

// weight_bits and weight_format name one another's default; the part keys default to weight_format.
void read_weights(ObjectReader& r, const FieldSection& t, ModelSpec& m) {
  const auto bits = r.count(t["weight_bits"]);
  if (bits && *bits != 4 && *bits != 8 && *bits != 16) r.issues().add(r.child("weight_bits"), "expected 4, 8 or 16");
  auto format = format_of(r, t, "weight_format");
  if (!format && bits == 4) {
    r.issues().add(r.child("weight_format"), "missing field: weight_bits 4 needs the 4-bit format named "
                                             "(mxfp4, nvfp4 or int4-g128)");
  }
  if (!format) format = bits == 8 ? WeightFormat::fp8 : WeightFormat::bf16;
  if (bits && (*bits == 4 || *bits == 8 || *bits == 16) && *bits != value_bits(*format) &&
      r.get("weight_format")) {
    r.issues().add(r.child("weight_bits"), fmt::format("expected {}, the value bits of weight_format {}",
                                                       value_bits(*format), to_string(*format)));
  }
  m.weight_bits = value_bits(*format);
  m.weights.attention = format_of(r, t, "attention_weight_format").value_or(*format);
  m.weights.ffn = format_of(r, t, "ffn_weight_format").value_or(*format);
  m.weights.experts = format_of(r, t, "expert_weight_format").value_or(*format);
  if (r.get("expert_weight_format") && !r.get("moe")) {
    r.issues().add(r.child("expert_weight_format"), "expected only on a card with a moe section");
  }
  m.gemm_precision = gemm_demand_named(r.string(t["gemm_precision"]).value_or("auto")).value_or(GemmDemand::automatic);
  if (const std::string conflict = demand_conflict(m.weights, m.gemm_precision); !conflict.empty()) {
    r.issues().add(r.child("gemm_precision"), "expected a precision the weights can run in: " + conflict);
  }
}

}  // namespace

ModelSpec read_model_card(const nlohmann::json& card, const std::string& path, IssueList& issues) {
  const FieldSection& t = table("model-card");
  ObjectReader r(card, path, issues);
  ModelSpec m;
  if (!r.valid()) return m;
  r.integer(t["schema_version"]);
  r.string(t["preset"]);
  m.name = nonempty_text(r, t["name"]).value_or("");
  m.description = nonempty_text(r, t["description"]).value_or("");
  read_shape(r, t, m);
  read_weights(r, t, m);
  if (const nlohmann::json* attention = r.get("attention")) {
    m.attention = read_attention(*attention, r.child("attention"), issues);
  }
  if (const nlohmann::json* moe = r.get("moe")) {
    m.moe = read_moe(*moe, r.child("moe"), m.num_layers, issues);
  }
  nonempty_text(r, t["source"]);
  r.string(t["comment"]);
  r.finish();
  return m;
}

}  // namespace lynxsim::scenario
