#pragma once
// What the decode side reconstructs of one [tokens][head_dim] block under a transfer method: the
// sim/quant kernels run on the real block (quantize, split into planes, reconstruct), so every
// precision number is measured, never assumed.
//
// A reconstruction is defined for a context of `tokens` tokens (KIVI's bf16 window is the last
// kivi_window tokens of that context). reconstruct_rows() rebuilds only rows [begin, end), which
// must not cut a quantization group (group_rows() gives the smallest such range around a token), so
// a planted needle can be re-quantized without redoing the block. Rows of a per-channel group depend
// on the group's other rows (shared min/max), which is why whole groups are rebuilt.
//
// Variant: anchor_only selects the speculative anchor (lynx: first decode_after_planes planes at the bucket
// middle; lynx-qs: the upper 4-bit code); it is ignored by non-speculative methods.

#include <string>
#include <utility>
#include <vector>

#include "sim/accuracy/methods/measured_methods.hpp"
#include "sim/quant/tensor_view.hpp"

namespace lynxsim::accuracy {

enum class TensorKind { key, value };

struct CodecTarget {
  TensorKind kind = TensorKind::key;
  bool anchor_only = false;
  int layer = 0;       // for per-layer bins (cachegen)
  int num_layers = 1;
};

// Rows [begin, end) of the reconstruction of `block` (block.tokens = the context) into out
// ((end − begin) · channels floats).
void reconstruct_rows(const MethodSpec& method, const CodecTarget& target, quant::BlockView block, int begin,
                      int end, float* out);

// The whole reconstruction.
std::vector<float> reconstruct_block(const MethodSpec& method, const CodecTarget& target, quant::BlockView block);

// Equal ids mean bit-identical reconstructions (e.g. every Lynx split's full variant and int8), so
// a measurement can reuse one variant's numbers for another.
std::string reconstruction_id(const MethodSpec& method, bool anchor_only);

// The smallest group-aligned row range [begin, end) containing `token` in a context of `tokens`.
std::pair<int, int> group_rows(const MethodSpec& method, TensorKind kind, int tokens, int token);

}  // namespace lynxsim::accuracy
