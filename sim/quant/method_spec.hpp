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
//   cachegen  CacheGen's layer-wise bins and arithmetic coding; bytes per token measured by encoding
//             real tensors; sent chunk by chunk with a per-chunk quality level. `cachegen_level` is
//             the highest-quality level the sender may pick (cachegen = level 1, the paper's
//             configuration; cachegen-<L>, L = 0..3); CacheGenParams hold the adaptation and coder
//             parameters.
// Every quantized group carries a 16-bit scale and a 16-bit zero point, sent with plane 0.
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

namespace lynxsim::quant {

enum class MethodFamily { bf16, int_n, kivi, lynx, cachegen };
enum class AnchorScheme { midpoint, quantspec };

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
// least two plane widths summing to 8), lynx-qs, cachegen (level 1), cachegen-L (L = 0..3).
// Throws std::invalid_argument naming the accepted forms.
MethodSpec method_from_name(std::string_view name);
// The names `lynxsim list` shows.
std::vector<std::string> method_preset_names();
std::string_view family_name(MethodFamily family);
// Checks internal consistency (plane bits sum to `bits`, 1 <= decode_after_planes <= planes, ...);
// returns the problems found, empty when the method is valid.
std::vector<std::string> validate_method(const MethodSpec& method);

}  // namespace lynxsim::quant
