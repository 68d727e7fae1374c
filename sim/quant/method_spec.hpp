#pragma once
// KV transfer methods as data: one description shared by the serving model (bytes, planes,
// scheduling) and the precision measurement (which codec reconstructs the KV); docs/scenario.md,
// "methods".
//
// A method is a list of planes, each a number of bits of the quantized code, sent as its own flow
// in its own priority class (plane p in class p: the anchor first). Decoding may start once the
// first `decode_after_planes` planes of every layer have arrived; a method that needs fewer planes
// than it has is speculative (Lynx): it drafts on the anchor and verifies once all planes are in.
//   bf16      one 16-bit plane, every value rounded to bfloat16, no quantization
//   int<b>    one b-bit plane (b = 2..8), asymmetric min/max, per-token groups of `group_size`
//             channels (0 = the whole head, LMDeploy's "one group per head per token")
//   kivi<b>   keys per-channel (groups of `kivi_group` tokens), values per-token (groups of
//             `kivi_group` channels), the most recent `kivi_window` tokens kept in 16-bit
//   lynx      the 8-bit per-token code split by significance into planes (4+4, 2+2+4, 3+5,
//             1+1+2+4 ...), most significant first; the anchor is the first decode_after_planes
//             planes reconstructed at the bucket middle, all planes merged are bit-identical to
//             int8. Anchor scheme `quantspec` (lynx-qs) sends QuantSpec's hierarchical 4+4 code
//             instead: a 4-bit round-to-nearest anchor and a signed 4-bit residual at s/16, keys in
//             per-channel groups of group_size tokens, values in per-token groups of group_size
//             channels (128 by default, QuantSpec's configuration)
//   scaled    a KV cache format engines store as it is (kv_format.hpp: fp8-e4m3, fp8-e5m2 with a
//             per-tensor scale, int8-pth, fp8-pth with per-token-head scales): one plane of the
//             format's code, its scales with it. The per-tensor scale is `tensor_scale`: a fixed
//             value (1.0, vLLM's default) or calibrated from the tensor's absolute maximum.
//             A lynx method with a `format` (lynx-e4m3-5+3 ...) splits that code by significance
//             instead of the integer code: its anchor keeps sign and exponent (and the leading
//             mantissa bits) and is decoded at the middle of the dropped mantissa interval; all
//             planes merged are bit-identical to the format. nvfp4 and mxfp4 (fp4_codec.hpp) carry
//             their block scales (and nvfp4 its tensor scale, always amax/(6·448) as in NVIDIA's
//             recipe: tensor_scale does not apply) per block of 16 or 32 channels.
//             Anchor scheme `cell_residual` (lynx-nvfp4, lynx_nvfp4.hpp) sends the nvfp4 code as
//             the anchor plane and a 4-bit residual within each element's E2M1 rounding cell as
//             the second (planes 4+4, 8.5 bits with the scales).
//   cachegen  CacheGen's layer-wise bins and arithmetic coding; bytes per token measured by encoding
//             real tensors; sent chunk by chunk with a per-chunk quality level. `cachegen_level` is
//             the highest-quality level the sender may pick (cachegen = level 1, the paper's
//             configuration; cachegen-<L>, L = 0..3); CacheGenParams hold the adaptation and coder
//             parameters.
// Every quantized group of an integer code carries a 16-bit scale and a 16-bit zero point, sent with plane 0.
//
// CacheGen coder throughput defaults. The CPU coder (cachegen_bench.hpp, one thread, 1500 tokens x
// 1024 channels) measures about 150 MB/s of BF16 KV when encoding and 100 MB/s when decoding; the
// GPU coder is modelled as kCacheGenGpuSpeedupOverCpuThread = 200 times one thread (see that
// header), hence 30000 MB/s encode and 20000 MB/s decode. These are constants, not a benchmark run
// inside the simulation: a scenario may override them.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/quant/kv_format.hpp"

namespace lynxsim::quant {

enum class MethodFamily { bf16, int_n, kivi, lynx, cachegen, scaled };
enum class AnchorScheme { midpoint, quantspec, cell_residual };

inline constexpr double kCacheGenDefaultEncodeMbPerS = 150.0 * 200.0;
inline constexpr double kCacheGenDefaultDecodeMbPerS = 100.0 * 200.0;
inline constexpr int kQuantSpecDefaultGroup = 128;

struct CacheGenParams {
  int chunk_tokens = 1500;
  double slo_s = 1.0;                                     // time budget of the whole KV transfer
  double initial_bandwidth_bytes_per_s = 12.5e9;          // estimate for the first chunk (100 Gb/s)
  double encode_mb_per_s = kCacheGenDefaultEncodeMbPerS;  // BF16 MB/s coded per GPU (per level)
  double decode_mb_per_s = kCacheGenDefaultDecodeMbPerS;  // BF16 MB/s decoded per GPU
};

// The per-tensor scale of a per_tensor format: a fixed value, or amax / the format's largest value.
struct TensorScale {
  bool calibrated = false;
  double value = 1.0;  // when not calibrated: > 0 and finite
};

struct MethodSpec {
  std::string name;
  MethodFamily family = MethodFamily::bf16;
  int bits = 16;
  std::vector<int> planes{16};
  int decode_after_planes = 1;
  int group_size = 0;
  int kivi_window = 128;
  int kivi_group = 32;
  AnchorScheme anchor_scheme = AnchorScheme::midpoint;
  int cachegen_level = 1;
  CacheGenParams cachegen;
  std::optional<KvFormat> format;  // scaled methods, and Lynx over a format's code
  TensorScale tensor_scale;
  std::optional<double> acceptance;  // a fixed draft acceptance instead of the calibrated one
  std::string description;

  int num_planes() const { return static_cast<int>(planes.size()); }
  bool speculative() const { return decode_after_planes < num_planes(); }
  bool quantspec() const { return family == MethodFamily::lynx && anchor_scheme == AnchorScheme::quantspec; }
  // Bits per element of the code decode starts on (the anchor's for a speculative method).
  int anchor_bits() const;
  // Every field that changes a reconstruction, as text (a cache key).
  std::string canonical() const;
};

// Parses a method name: bf16, int2..int8, kivi2..kivi8, lynx (= lynx-4+4), lynx-A+B[+C...] (at
// least two plane widths summing to 8), lynx-qs, cachegen (level 1), cachegen-L (L = 0..3), the
// format names of kv_formats() and lynx-<format's lynx_name>-A+B[+C...] (widths summing to the
// format's code bits).
// Throws std::invalid_argument naming the accepted forms.
MethodSpec method_from_name(std::string_view name);
// The names `lynxsim list` shows.
std::vector<std::string> method_preset_names();
std::string_view family_name(MethodFamily family);
// Checks internal consistency (plane bits sum to `bits`, 1 <= decode_after_planes <= planes, ...);
// returns the problems found, empty when the method is valid.
std::vector<std::string> validate_method(const MethodSpec& method);
// A problem of the method with a model's head dimension (a format's scale block must divide it).
std::optional<std::string> head_dim_problem(const MethodSpec& method, int head_dim);

}  // namespace lynxsim::quant
