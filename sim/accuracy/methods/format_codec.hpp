#pragma once
// What the decode side reconstructs of a KV block sent in one of the formats of
// sim/quant/kv_format.hpp (family `scaled`), or in a Lynx split of such a format's code: the
// format's own codec runs on the real block.
//
// A per-tensor scale is the method's fixed tensor_scale, or calibrated from the absolute maximum
// of the whole block the rows belong to (one layer and KV head here, where vLLM calibrates one
// scale per layer across its heads: a per-layer maximum is at least the head's, so the measured
// scale is never coarser than the engine's). Per-token-head and per-block scales depend only on the
// row, so any row range can be rebuilt alone.
//
// A Lynx anchor (anchor_only of a speculative method) keeps the first decode_after_planes planes of
// the code and decodes at the middle of the dropped mantissa interval (scaled_codec.hpp).

#include <string>

#include "sim/quant/method_spec.hpp"
#include "sim/quant/tensor_view.hpp"

namespace lynxsim::accuracy {

// Rows [begin, end) of `block` (the whole context) into out ((end − begin)·channels floats).
void format_rows(const quant::MethodSpec& method, bool anchor_only, quant::BlockView block, int begin, int end,
                 float* out);

// Bits per element of the format's codes and scales (the anchor's codes when anchor_only).
double format_bits_per_element(const quant::MethodSpec& method, bool anchor_only, int tokens, int head_dim);

// The reconstruction id of a format method: the full code of every Lynx split of a format equals
// the format itself.
std::string format_reconstruction_id(const quant::MethodSpec& method, bool anchor_only);

}  // namespace lynxsim::accuracy
