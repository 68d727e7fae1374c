#pragma once
// Measured CacheGen sizes: how many bytes the real codec (sim/quant/cachegen_codec) produces per
// token and layer at each quality level, for one model geometry, on synthetic or captured KV.
//
// Method. For each sampled layer l the KV of every KV head is produced (the synthetic generator of
// synthetic_kv.hpp, or the first num_chunks * chunk_tokens tokens of a KV file) and laid out as the
// layer tensor [tokens][kv_heads * head_dim] the codec expects (keys after RoPE, values). The tokens
// are cut into num_chunks chunks of chunk_tokens tokens and every chunk is encoded with
// cachegen_encode at every level; the chunk's EncodedChunk::bytes() (tables, fp16 scales, coded
// streams, header) summed over chunks and divided by the tokens gives
//   b(level, l) = encoded bytes per token of layer l (K and V together).
// Unsampled layers: the codec's bins schedule splits the layers into classes of equal (key bins,
// value bins) at a level; the sampled set always holds the first layer of every class (plus
// `sampled_layers` evenly spaced ones). An unsampled layer takes the linear interpolation of the two
// nearest sampled layers of its class around it, or the nearest sampled layer of its class when it
// lies beyond them. Then
//   bytes_per_token(level) = sum_l b(level, l),
//   ratio_to_bf16(level)   = bytes_per_token / (2 * 2 * kv_heads * head_dim * num_layers).
// The synthetic KV is generated from position 0, so the first chunk holds the attention sink.
//
// Validity. The ratio is per full-model-width layer (every KV head in one absmax per token, as
// CacheGen quantizes a layer); a tensor-parallel rank holding fewer heads codes a narrower tensor
// whose per-token scales weigh a little more. A chunk shorter than chunk_tokens amortises its
// tables over fewer tokens and is a little larger per token than measured here.
//
// Precision of the accuracy table's `cachegen` rows (method_codec.cpp) is computed with the
// CacheGen quantizer per sampled head and dequantized directly. Decoding the entropy-coded chunk
// returns exactly the quantizer's codes (coding is lossless: cachegen_decode == dequantize(quantize),
// checked by tests/accuracy/test_cachegen_sizes.cpp), so running the range coder there would cost
// time and change no number; the one difference is that the accuracy path takes the absmax over the
// sampled head's channels instead of the whole layer, which is slightly optimistic.
//
// Cache: the store layer keeps measured sizes like accuracy results (sim/store/cachegen_sizes_cache.hpp);
// its key lists every input and kCacheGenSizesVersion.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/accuracy/kv/head_kv.hpp"
#include "sim/accuracy/kv/kv_profile.hpp"
#include "sim/accuracy/kv/kv_tensors.hpp"
#include "sim/quant/cachegen_levels.hpp"

namespace lynxsim::accuracy {

inline constexpr int kCacheGenSizesVersion = 1;

struct CacheGenSizeRequest {
  KvGeometry geometry;
  int chunk_tokens = 1500;
  int num_chunks = 1;
  int sampled_layers = 4;  // evenly spaced, on top of the first layer of every bins class
  std::uint64_t seed = 1;
  KvProfile profile = default_kv_profile();
  std::shared_ptr<const KvTensors> kv_file;  // null = synthetic
  std::vector<quant::CacheGenLevel> levels;  // empty = quant::cachegen_default_levels()
  bool delta = false;
  int threads = 2;
};

struct CacheGenLevelSize {
  std::string name;
  std::vector<double> bytes_per_token_per_layer;  // index = layer, K and V together
  double bytes_per_token = 0.0;                   // all layers
  double ratio_to_bf16 = 0.0;
};

struct CacheGenSizes {
  KvGeometry geometry;
  int chunk_tokens = 0;
  std::vector<int> sampled_layers;
  std::vector<CacheGenLevelSize> levels;  // index 0 = highest quality
  bool from_cache = false;

  std::vector<double> ratios() const;  // ratio_to_bf16 of every level
};

// Layers to encode: the first layer of every bins class of every level plus `count` evenly spaced.
std::vector<int> cachegen_sampled_layers(const KvGeometry& geometry,
                                         const std::vector<quant::CacheGenLevel>& levels, int count);

// The levels a request encodes: its own, or quant::cachegen_default_levels().
const std::vector<quant::CacheGenLevel>& cachegen_levels_of(const CacheGenSizeRequest& request);
// Encodes; throws std::invalid_argument on a bad request.
CacheGenSizes measure_cachegen_sizes(const CacheGenSizeRequest& request);

}  // namespace lynxsim::accuracy
