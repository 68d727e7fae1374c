#pragma once
// Exact byte accounting of a method's KV transfer (docs/scenario.md, "methods").
//
// For one layer, one tensor-parallel rank and T tokens of context, with H = KV heads held by the
// rank, d = head dimension, g = channels per group (group_size, 0 meaning d):
//   bf16       2 (K and V) * H * T * d * 2 bytes
//   int<b>     codes: 2 * H * ceil(T * d * b / 8); metadata: 2 * H * T * ceil(d / g) * 4 bytes
//              (a 16-bit scale and a 16-bit zero point per group)
//   lynx       plane p: 2 * H * ceil(T * d * b_p / 8) of codes; all metadata travels in plane 0, so
//              the planes add up to exactly the int8 bytes
//   kivi<b>    Tq = floor(max(0, T - R) / G) * G tokens are quantized (R = recent window, G = group);
//              keys per-channel: Tq*d*b/8 codes + (Tq/G)*d*4 metadata; values per-token:
//              Tq*d*b/8 codes + Tq*ceil(d/G)*4 metadata; the other T - Tq tokens of K and V in bf16
//   cachegen   measured: bf16 bytes * measured_size_ratio (encoded size of real tensors)
//   scaled     a KV format (quant/kv_format.hpp) of code width b: codes 2 * H * ceil(T * d * b / 8);
//              scales with plane 0: per tensor 2 * 4 bytes (one float32 for K, one for V); per
//              token-head 2 * H * T * 4; per block of B values 2 * H * T * ceil(d / B) * s + the
//              per-tensor scales (s bytes per block scale). A Lynx split of a format's code sends
//              each plane's bits of the codes, the scales with plane 0: the planes add up to the
//              format's bytes.
// Codes are packed per (layer, head, K or V) block, hence the ceil per block. Heads per rank:
// ceil(kv_heads / tp) when tp <= kv_heads, else 1 (replicated: every rank holds a full head).
//
// Layer kinds (kv_geometry.hpp, docs/models.md): an MLA layer sends its latent, one tensor of
// head_dim = kv_lora_rank + qk_rope_head_dim values per token (the formulas above with the factor 2
// of K and V dropped; KIVI treats it as values), replicated on every rank; a sliding-window layer
// sends min(T, W) tokens; a linear-attention layer sends its state as one tensor of
// ceil(state_values * H / kv_heads) values and one "token", whatever T is. Each method quantizes
// what is sent: groups run along the latent or the flattened state. A piece of L of the model's
// layers carries L / layers of the bytes of all layers (rounded down) for such a model. Each
// piece's tokens are capped at W on its own, so a chunked prefill that sends several pieces sends
// up to W tokens of each chunk's sliding-window layers (an upper bound) and the state once per
// chunk. When tp exceeds kv_heads, KV heads are replicated and so is the state share that goes
// with them (an upper bound: a rank really holds 1/tp of the state's value heads).

#include <vector>

#include "sim/compute/model_spec.hpp"
#include "sim/core/units.hpp"
#include "sim/quant/kv_geometry.hpp"
#include "sim/quant/method_spec.hpp"

namespace lynxsim::serving {

using quant::KvGeometry;

// The KV geometry of a model card.
KvGeometry kv_geometry_of(const ModelSpec& model);

int kv_heads_per_rank(int num_kv_heads, int tensor_parallel);

// Bytes of each plane for one layer of one rank holding `heads` KV heads.
std::vector<Bytes> layer_plane_bytes(const quant::MethodSpec& method, int heads, int head_dim,
                                     int tokens, double measured_size_ratio = 0.0);

// Bytes of each plane of `layers` layers over `tokens` tokens for a rank holding `heads` KV heads;
// layer_plane_bytes * layers for a dense GQA geometry.
std::vector<Bytes> piece_plane_bytes(const quant::MethodSpec& method, const KvGeometry& geometry,
                                     int heads, int layers, int tokens,
                                     double measured_size_ratio = 0.0);
// The same in BF16 (what an encode kernel reads and a decode kernel writes).
Bytes piece_bf16_bytes(const KvGeometry& geometry, int heads, int layers, int tokens);

// Bytes of each plane for the whole KV cache of `tokens` tokens over all ranks.
std::vector<Bytes> total_plane_bytes(const quant::MethodSpec& method, const KvGeometry& geometry,
                                     int tensor_parallel, int tokens,
                                     double measured_size_ratio = 0.0);

// Bytes of each plane sent, summed over every flow, when the KV of `tokens` tokens (all layers)
// moves from a TP group of src_tp ranks to one of dst_tp ranks (kv_head_map.hpp): each flow
// carries layer_plane_bytes of its heads per layer.
std::vector<Bytes> transfer_plane_bytes(const quant::MethodSpec& method, const KvGeometry& geometry,
                                        int src_tp, int dst_tp, int tokens,
                                        double measured_size_ratio = 0.0);

}  // namespace lynxsim::serving
