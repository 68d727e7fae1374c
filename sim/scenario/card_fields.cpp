// The key tables of model cards, hardware profiles and serving-engine profiles (card_fields.hpp).
// A model card's doc lines name the Hugging Face config.json keys each value comes from.

#include "sim/scenario/card_fields.hpp"

#include <array>

// Designated initializers leave the other members at their defaults on purpose; GCC 12 still warns.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace lynxsim::scenario {
namespace {

using T = FieldType;
constexpr double kIntMax = 2147483647.0;
constexpr std::string_view kWeightFormats = "bf16|fp8|fp8-block128|mxfp4|nvfp4|int4-g128";

constexpr Field kSchema{.key = "schema_version", .type = T::integer,
                        .doc = "the version of this format", .min = 1, .max = 1, .required = true};
constexpr Field kPreset{.key = "preset", .type = T::name,
                        .doc = "the card file the values came from (written by the resolved scenario)",
                        .default_doc = "none"};
constexpr Field kComment{.key = "comment", .type = T::text, .doc = "free text",
                         .default_doc = "none"};

constexpr Field positive_int(std::string_view key, std::string_view doc) {
  return Field{.key = key, .type = T::integer, .doc = doc, .min = 1, .max = kIntMax,
               .required = true};
}

constexpr std::array kModelCard{
    kSchema,
    kPreset,
    Field{.key = "name", .type = T::text, .doc = "non-empty; the name scenarios use",
          .required = true},
    Field{.key = "description", .type = T::text, .doc = "non-empty free text", .required = true},
    positive_int("num_layers", "transformer layers (`num_hidden_layers`)"),
    positive_int("hidden_size", "model width (`hidden_size`)"),
    positive_int("num_heads", "query heads (`num_attention_heads`)"),
    positive_int("num_kv_heads", "KV heads (`num_key_value_heads`; MHA when equal to num_heads)"),
    positive_int("head_dim", "per-head width of query and key (`head_dim`)"),
    positive_int("ffn_dim", "FFN width of dense layers (`intermediate_size`)"),
    positive_int("vocab_size", "vocabulary (`vocab_size`)"),
    Field{.key = "num_params", .type = T::number,
          .doc = "published total parameters, embeddings included (informational)", .min = 0,
          .required = true, .open_min = true},
    Field{.key = "rope_theta", .type = T::number, .doc = "RoPE base (`rope_theta`)", .min = 0,
          .required = true, .open_min = true},
    positive_int("max_context", "longest context in tokens (`max_position_embeddings`)"),
    Field{.key = "weight_bits", .type = T::integer,
          .doc = "only 4, 8 or 16: the value bits of weight_format (scales not counted); 4 needs a "
                 "weight_format naming the 4-bit format",
          .default_doc = "the bits of weight_format", .min = 4, .max = 16},
    Field{.key = "weight_format", .type = T::choice,
          .doc = "storage of the layers' projection weights, scales included (bytes per weight: bf16 2, "
                 "fp8 1, fp8-block128 1 + 4/16384, mxfp4 0.5 + 1/32, nvfp4 0.5 + 1/16, int4-g128 "
                 "0.5 + 2.5/128; docs/models.md); the LM head stays BF16",
          .default_doc = "`bf16`, or `fp8` with weight_bits 8", .choices = kWeightFormats},
    Field{.key = "attention_weight_format", .type = T::choice,
          .doc = "the attention projections' format where it differs from weight_format",
          .default_doc = "weight_format", .choices = kWeightFormats},
    Field{.key = "ffn_weight_format", .type = T::choice,
          .doc = "the format of dense FFN layers, shared experts and routers where it differs from "
                 "weight_format",
          .default_doc = "weight_format", .choices = kWeightFormats},
    Field{.key = "expert_weight_format", .type = T::choice,
          .doc = "MoE cards: the routed experts' format where it differs from weight_format "
                 "(gpt-oss: mxfp4 experts, bf16 elsewhere)",
          .default_doc = "weight_format", .choices = kWeightFormats},
    Field{.key = "gemm_precision", .type = T::choice,
          .doc = "the precision quantized parts' GEMMs run in: `auto` FP8 weights on FP8 tensor cores "
                 "(W8A8) and FP4 weights on FP4 ones (W4A4) where the GPU has them, else weight-only at "
                 "BF16 (W8A16, W4A16; int4-g128 always); `bf16` weight-only everywhere; `fp8` every "
                 "quantized part on FP8 tensor cores (W8A8, W4A8); `fp4` FP4 weights on FP4 tensor cores. "
                 "A GPU without the demanded peak is refused",
          .default_json = "\"auto\"", .choices = "auto|bf16|fp8|fp4"},
    Field{.key = "attention", .doc = "the attention layout (below)",
          .default_doc = "all layers full GQA"},
    Field{.key = "moe", .doc = "a mixture-of-experts FFN (below)", .default_doc = "dense FFN"},
    Field{.key = "source", .type = T::text, .doc = "non-empty: the model's config.json and paper",
          .required = true},
    kComment,
};

constexpr std::array kAttention{
    Field{.key = "kind", .type = T::choice,
          .doc = "per-head K and V, or multi-head latent attention", .choices = "gqa|mla",
          .required = true},
    Field{.key = "kv_lora_rank", .type = T::integer,
          .doc = "MLA only: latent width d_c (`kv_lora_rank`)", .default_doc = "required for mla",
          .min = 1, .max = kIntMax},
    Field{.key = "qk_rope_head_dim", .type = T::integer,
          .doc = "MLA only: decoupled RoPE key width d_r (`qk_rope_head_dim`)",
          .default_doc = "required for mla", .min = 1, .max = kIntMax},
    Field{.key = "qk_nope_head_dim", .type = T::integer,
          .doc = "MLA only: per-head key width without RoPE (`qk_nope_head_dim`)",
          .default_doc = "required for mla", .min = 1, .max = kIntMax},
    Field{.key = "v_head_dim", .type = T::integer,
          .doc = "MLA only: per-head value width (`v_head_dim`)", .default_doc = "required for mla",
          .min = 1, .max = kIntMax},
    Field{.key = "q_lora_rank", .type = T::integer,
          .doc = "MLA only: query compression rank, 0 for none (`q_lora_rank`)",
          .default_doc = "required for mla", .min = 0, .max = kIntMax},
    Field{.key = "sliding_window", .type = T::integer,
          .doc = "W, tokens a sliding-window layer keeps; exactly when the pattern has `S` "
                 "(`sliding_window`)",
          .default_doc = "none", .min = 1, .max = kIntMax},
    Field{.key = "layer_pattern", .type = T::text,
          .doc = "letters `F` (full), `S` (sliding window), `L` (linear), repeated over the layers "
                 "from layer 0 (`layer_types`, `sliding_window_pattern`, `full_attention_interval`)",
          .default_doc = "all `F`"},
    Field{.key = "linear", .doc = "linear attention (gated DeltaNet, below); exactly when the "
                                  "pattern has `L`",
          .default_doc = "none"},
    kComment,
};

constexpr std::array kLinearAttention{
    positive_int("key_heads", "`linear_num_key_heads`"),
    positive_int("value_heads", "`linear_num_value_heads`"),
    positive_int("key_head_dim", "`linear_key_head_dim`"),
    positive_int("value_head_dim", "`linear_value_head_dim`"),
    positive_int("conv_kernel", "`linear_conv_kernel_dim`"),
    kComment,
};

constexpr std::array kMoe{
    positive_int("experts",
                 "routed experts E per MoE layer (`n_routed_experts`, `num_experts`, "
                 "`num_local_experts`)"),
    positive_int("top_k", "experts per token k, at most E (`num_experts_per_tok`, "
                          "`experts_per_token`)"),
    Field{.key = "shared_experts", .type = T::integer,
          .doc = "experts every token uses (`n_shared_experts`; 1 in Qwen3-Next)", .min = 0,
          .max = kIntMax, .required = true},
    positive_int("expert_ffn_dim", "FFN width of one expert (`moe_intermediate_size`)"),
    Field{.key = "first_dense_layers", .type = T::integer,
          .doc = "leading layers with a dense FFN of `ffn_dim`, fewer than num_layers "
                 "(`first_k_dense_replace`)",
          .min = 0, .max = kIntMax, .required = true},
    kComment,
};

constexpr Field fraction(std::string_view key, std::string_view doc) {
  return Field{.key = key, .type = T::number, .doc = doc, .min = 0, .max = 1, .required = true,
               .open_min = true};
}

constexpr Field duration(std::string_view key, std::string_view doc, double min) {
  return Field{.key = key, .type = T::duration, .doc = doc, .min = min, .required = true};
}

constexpr Field required(std::string_view key, FieldType type, std::string_view doc) {
  return Field{.key = key, .type = type, .doc = doc, .min = 0, .required = true, .open_min = true};
}

constexpr std::array kGpu{
    kSchema,
    kPreset,
    Field{.key = "name", .type = T::text, .doc = "non-empty; the name scenarios use",
          .required = true},
    Field{.key = "description", .type = T::text, .doc = "non-empty free text", .required = true},
    required("peak_bf16", T::flop_rate, "dense BF16 tensor-core peak"),
    required("peak_int8", T::flop_rate, "dense INT8 tensor-core peak"),
    Field{.key = "peak_fp8", .type = T::flop_rate,
          .doc = "dense FP8 tensor-core peak; the GEMMs of FP8 weights run at it (W8A8)",
          .default_doc = "none: FP8 weights run weight-only at the BF16 rate (W8A16)", .min = 0, .open_min = true},
    Field{.key = "peak_fp4", .type = T::flop_rate,
          .doc = "dense FP4 (MXFP4, NVFP4) tensor-core peak; the GEMMs of mxfp4 and nvfp4 weights run "
                 "at it (W4A4)",
          .default_doc = "none: FP4 weights run weight-only at the BF16 rate", .min = 0, .open_min = true},
    required("hbm_capacity", T::size, "HBM per GPU"),
    required("hbm_bandwidth", T::byte_rate, "HBM bandwidth per GPU"),
    fraction("compute_efficiency", "fraction of peak_bf16 that large GEMMs reach"),
    fraction("memory_efficiency", "fraction of hbm_bandwidth that weight and KV streaming reaches"),
    fraction("attention_efficiency", "fraction of peak_bf16 that fused attention reaches"),
    Field{.key = "causal_overhead_tokens", .type = T::number,
          .doc = "extra key positions per query a causal attention kernel computes (masked diagonal "
                 "tiles); attention_efficiency is then the non-causal rate",
          .default_doc = "0: attention_efficiency is a causal rate", .min = 0},
    fraction("kernel_memory_efficiency", "fraction of hbm_bandwidth that a quantize/dequantize kernel reaches"),
    Field{.key = "gemm_half_tokens", .type = T::number,
          .doc = "GEMM rows at which a GEMM reaches half of compute_efficiency", .min = 0, .required = true},
    fraction("elementwise_efficiency", "fraction of hbm_bandwidth that unfused norm, RoPE, activation and residual kernels reach"),
    fraction("kv_read_efficiency", "fraction of hbm_bandwidth that attention reaches streaming paged KV"),
    fraction("scale_up_efficiency", "fraction of scale_up_bandwidth a ring all-reduce reaches"),
    duration("kernel_floor", "fixed GPU time of every GEMM and elementwise kernel", kPositiveDuration),
    duration("attention_floor", "fixed GPU time of one attention kernel", kPositiveDuration),
    duration("attention_block_time", "time one SM takes to walk one KV block of split-KV decode attention", 0),
    Field{.key = "sm_count", .type = T::number, .doc = "streaming multiprocessors; 0: no split-KV decode kernel modelled",
          .min = 0, .required = true},
    duration("layer_overhead", "fixed cost per transformer layer per forward pass", kPositiveDuration),
    duration("step_overhead", "fixed cost per forward step (scheduling, sampling)", kPositiveDuration),
    duration("kernel_launch", "fixed cost per launched kernel", kPositiveDuration),
    required("scale_up_bandwidth", T::byte_rate, "per-direction bandwidth of the intra-node link of all-reduce"),
    duration("scale_up_latency", "fixed latency of one collective on that link", kPositiveDuration),
    duration("scale_up_step_latency", "latency of one ring step (2 (n - 1) steps per all-reduce)", 0),
    Field{.key = "scale_up_ll_latency", .type = T::duration,
          .doc = "fixed latency of a ring all-reduce in NCCL's LL protocol (half the bus bandwidth); "
                 "an all-reduce takes the faster of LL and the Simple ring",
          .default_doc = "0: the Simple ring only", .min = 0},
    required("nic_bandwidth", T::rate, "scale-out NIC line rate per accelerator"),
    kComment,
};

constexpr std::array kEngine{
    kSchema,
    kPreset,
    Field{.key = "name", .type = T::text, .doc = "non-empty; the name scenarios use",
          .required = true},
    Field{.key = "description", .type = T::text, .doc = "non-empty free text", .required = true},
    duration("arrival_to_prefill", "fixed time from arrival to the prefill scheduler taking the request", 0),
    duration("tokenize_per_token", "tokenization time per prompt token, before prefill", 0),
    duration("kv_connector_setup", "per KV transfer: connector handshake, block allocation, completion notice", 0),
    duration("first_decode_launch", "from the KV in place to the first decode step being scheduled", 0),
    Field{.key = "decode_tokenizes_prompt", .type = T::boolean,
          .doc = "the decode side gets the prompt after the prefill and tokenizes it again (tokenize_per_token per prompt token in the handover)",
          .required = true},
    duration("step_overhead", "fixed host cost per forward step, not overlapped with the GPU", 0),
    duration("step_overhead_per_sequence", "host cost per sequence of a forward step", 0),
    Field{.key = "step_overhead_per_context_token", .type = T::duration,
          .doc = "host cost of a forward step per token its sequences hold (prompt and output so far)",
          .default_doc = "0: the step's host cost does not grow with context", .min = 0},
    duration("tp_step_overhead", "host cost added to every forward step at tensor parallelism > 1", 0),
    Field{.key = "cuda_graphs", .type = T::boolean,
          .doc = "decode and verification steps run as CUDA graphs: no per-layer host launch time", .required = true},
    Field{.key = "prefill_cuda_graphs", .type = T::boolean,
          .doc = "passes with a prompt chunk run as (piecewise) CUDA graphs: no per-layer host launch time", .required = true},
    duration("layer_launch_overhead", "host time to issue one layer's kernels without CUDA graphs; a layer takes the longer of it and its GPU time", 0),
    Field{.key = "tp_comm_overlap", .type = T::number,
          .doc = "fraction of a layer's TP all-reduces that runs under its GEMM and elementwise kernels", .min = 0, .max = 1,
          .required = true},
    duration("small_allreduce_latency", "fixed cost of one all-reduce by the engine's own kernels (custom, symmetric memory)", 0),
    Field{.key = "small_allreduce_max_bytes", .type = T::size,
          .doc = "largest message those kernels take, 0 for none; larger ones use NCCL's ring", .required = true},
    kComment,
};

constexpr std::array kProfileValue{
    Field{.key = "value", .doc = "as the key's row above says", .required = true},
    Field{.key = "source", .type = T::text,
          .doc = "non-empty: where the value comes from (a datasheet, a fit, a paper)",
          .default_doc = "`comment` must be given"},
    Field{.key = "comment", .type = T::text, .doc = "non-empty; stands in for or adds to `source`",
          .default_doc = "none"},
};

}  // namespace

std::span<const FieldSection> card_field_sections() {
  static const std::array sections{
      FieldSection{"model-card", "", kModelCard},
      FieldSection{"model-attention", "/attention", kAttention},
      FieldSection{"model-attention-linear", "/attention/linear", kLinearAttention},
      FieldSection{"model-moe", "/moe", kMoe},
      FieldSection{"gpu-profile", "", kGpu},
      FieldSection{"engine-profile", "", kEngine},
      FieldSection{"profile-value", "/<key>", kProfileValue},
  };
  return sections;
}

}  // namespace lynxsim::scenario
