#pragma once
// The KV transfer methods whose precision is measured, as plain data (docs/scenario.md, "methods").
//
// Families and the layout each one uses on a [tokens][head_dim] block of one KV head:
//   bf16            every value rounded to bfloat16 (no quantization);
//   int_n           asymmetric b-bit, per-token groups of group_size channels (0 = the whole head,
//                   LMDeploy's "one group per head per token"), keys and values alike;
//   kivi            keys per-channel groups of kivi_group tokens, values per-token groups of
//                   kivi_group channels, the last kivi_window tokens (plus the ragged tail) in bf16;
//   lynx            the int8 per-token code split into bit planes `planes` (most significant
//                   first); the anchor is the first anchor_planes planes reconstructed at the bucket
//                   middle, the full variant merges every plane (bit-identical to int8);
//   lynx_quantspec  QuantSpec's hierarchical 4+4 code (round-to-nearest upper, signed lower at s/16),
//                   keys per-channel groups of group_size tokens, values per-token groups of
//                   group_size channels;
//   cachegen        CacheGen's symmetric absmax-per-token quantizer with the bins of quality level
//                   cachegen_level (shallow layers finer); the absmax runs over the channels of the
//                   sampled head only, not the whole layer, which is slightly optimistic.
// Speculative families (lynx, lynx_quantspec) are measured twice: "anchor" and "full".
//
// Bits per element count codes plus fp16 scale and minimum per group (and the bf16 window for KIVI);
// for cachegen it is the fixed-length code size before entropy coding (an upper bound).
//
// Names: bf16, int2..int8, kivi2, kivi4 (any kiviN, N in 2..8), lynx (= lynx-4+4), lynx-A+B[+C...]
// (widths summing to 8), lynx-qs, cachegen (level 1, the paper's configuration), cachegen-L.

#include <string>
#include <string_view>
#include <vector>

namespace lynxsim::accuracy {

enum class MethodFamily { bf16, int_n, kivi, lynx, lynx_quantspec, cachegen };

struct QuantMethodSpec {
  std::string name;
  MethodFamily family = MethodFamily::bf16;
  int bits = 16;
  std::vector<int> planes;  // lynx: widths from the most significant plane down
  int anchor_planes = 1;
  int group_size = 0;       // 0 = head_dim (int_n, lynx); tokens/channels for lynx_quantspec
  int kivi_window = 128;
  int kivi_group = 32;
  int cachegen_level = 1;

  bool speculative() const { return family == MethodFamily::lynx || family == MethodFamily::lynx_quantspec; }
  int anchor_bits() const;
  void validate() const;  // throws std::invalid_argument
  std::string canonical() const;
};

std::string to_string(MethodFamily family);

// Parses a method name (see above); throws std::invalid_argument listing the accepted forms.
QuantMethodSpec method_from_name(std::string_view name);
// bf16, int8, int4, kivi2, kivi4, lynx-4+4, lynx-2+2+4, lynx-3+5, lynx-qs, cachegen.
std::vector<QuantMethodSpec> default_methods();

// Average stored bits per element of one [tokens][head_dim] block (codes + metadata), for the anchor
// only when anchor_only (speculative families); cachegen averages its per-layer bins over num_layers.
double bits_per_element(const QuantMethodSpec& method, bool anchor_only, int tokens, int head_dim, int num_layers);

}  // namespace lynxsim::accuracy
