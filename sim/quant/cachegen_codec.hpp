#pragma once
// The CacheGen KV codec: one layer's K and V of one chunk of tokens in, coded bytes out, and back.
//
// Pipeline per tensor (K and V separately, C = kv_heads * head_dim channels, T tokens):
//   1. quantize each token symmetrically with the bins of (kind, layer, level) (cachegen_quantizer);
//   2. optionally replace codes by deltas against the first token of their group (lossless);
//   3. map codes to symbols s = q + h (alphabet 2h + 1) or deltas to s = d + 2h (alphabet 4h + 1);
//   4. count the symbols of every channel over the chunk's tokens and build one 2^16-total frequency
//      table per (layer, channel) for this chunk (range_coder_table);
//   5. range-code all symbols token by token, each with its channel's table, into one stream.
// Decoding parses the shipped tables, decodes the stream with them, undoes the delta and
// dequantizes: the decoded codes equal the encoder's codes exactly, so the decoded floats are the
// quantizer's x^ bit for bit.
//
// Byte accounting (EncodedChunk::bytes): everything a receiver needs, measured from real buffers:
//   - the frequency tables as shipped (2-byte window header + 16 bits per CDF entry in the window,
//     per channel, for K and for V; CacheGen ships 16-bit CDFs, here trimmed to the used window),
//   - the per-token scales at 16 bits each (fp16), for K and for V,
//   - the two coded streams,
//   - a fixed kCacheGenHeaderBytes header (shape, layer, level, bins, flags, stream lengths).
// An empty chunk (0 tokens) codes to the header alone.
//
// One stream per tensor is coded serially here; CacheGen's GPU coder runs independent streams per
// block of tokens and channels in parallel. Splitting a stream adds at most 4 flush bytes per split
// and does not change the tables, so the sizes here are a close lower bound of a parallel layout.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "sim/quant/cachegen_levels.hpp"
#include "sim/quant/cachegen_quantizer.hpp"

namespace lynxsim::quant {

inline constexpr std::uint64_t kCacheGenHeaderBytes = 16;
inline constexpr std::size_t kCacheGenDefaultDeltaGroup = 10;

struct CacheGenOptions {
  bool delta = false;
  std::size_t delta_group_tokens = kCacheGenDefaultDeltaGroup;
  // Quality ladder; empty means cachegen_default_levels().
  std::vector<CacheGenLevel> levels;
};

// One layer's K and V for a chunk of tokens, each [num_tokens][num_channels] row-major.
struct KvChunkView {
  std::span<const float> keys;
  std::span<const float> values;
  std::size_t num_tokens = 0;
  std::size_t num_channels = 0;
};

struct EncodedTensor {
  int bins = 0;
  std::vector<std::uint16_t> scales_fp16;  // per token
  std::vector<std::uint8_t> tables;        // per channel, serialized
  std::vector<std::uint8_t> stream;        // range-coded symbols
  std::uint64_t bytes() const { return scales_fp16.size() * 2 + tables.size() + stream.size(); }
};

struct EncodedChunk {
  std::size_t num_tokens = 0;
  std::size_t num_channels = 0;
  int layer = 0;
  int num_layers = 0;
  int level = 0;
  bool delta = false;
  std::size_t delta_group_tokens = kCacheGenDefaultDeltaGroup;
  EncodedTensor keys;
  EncodedTensor values;

  std::uint64_t bytes() const { return kCacheGenHeaderBytes + keys.bytes() + values.bytes(); }
  std::uint64_t table_bytes() const { return keys.tables.size() + values.tables.size(); }
  std::uint64_t scale_bytes() const { return 2 * (keys.scales_fp16.size() + values.scales_fp16.size()); }
  std::uint64_t stream_bytes() const { return keys.stream.size() + values.stream.size(); }
};

struct DecodedChunk {
  std::size_t num_tokens = 0;
  std::size_t num_channels = 0;
  std::vector<float> keys;
  std::vector<float> values;
};

// Encodes one layer's chunk at a quality level (index into the ladder, 0 = highest quality).
// Throws std::invalid_argument on shape mismatch, a bad layer or level, or non-finite values.
EncodedChunk cachegen_encode(const KvChunkView& kv, int layer, int num_layers, int level,
                             const CacheGenOptions& options = {});

// Reconstructs the floats; throws std::runtime_error on a corrupt chunk.
DecodedChunk cachegen_decode(const EncodedChunk& chunk);

// Entropy coding of one tensor's codes (steps 3-5 above) and its inverse, exposed for tests and
// benchmarks. The codes must be in delta form exactly when `delta` is true.
EncodedTensor cachegen_entropy_encode(const CacheGenCodes& codes, int bins, bool delta);
CacheGenCodes cachegen_entropy_decode(const EncodedTensor& tensor, std::size_t num_tokens,
                                      std::size_t num_channels, bool delta);

}  // namespace lynxsim::quant
