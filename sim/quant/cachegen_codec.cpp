#include "sim/quant/cachegen_codec.hpp"

#include <stdexcept>
#include <string>

#include "sim/quant/range_coder.hpp"
#include "sim/quant/range_coder_table.hpp"

namespace lynxsim::quant {
namespace {

struct SymbolMap {
  int offset = 0;
  std::size_t alphabet = 0;
};

SymbolMap symbol_map(int half_levels, bool delta) {
  const int offset = delta ? 2 * half_levels : half_levels;
  return SymbolMap{offset, static_cast<std::size_t>(2 * offset + 1)};
}

std::vector<FrequencyTable> channel_tables(const CacheGenCodes& codes, const SymbolMap& map) {
  const std::size_t n = codes.num_channels;
  std::vector<std::uint64_t> counts(n * map.alphabet, 0);
  for (std::size_t t = 0; t < codes.num_tokens; ++t) {
    const std::int8_t* row = codes.codes.data() + t * n;
    for (std::size_t c = 0; c < n; ++c) {
      const int symbol = row[c] + map.offset;
      if (symbol < 0 || static_cast<std::size_t>(symbol) >= map.alphabet) {
        throw std::invalid_argument("CacheGen: code outside the alphabet of its bin count");
      }
      ++counts[c * map.alphabet + static_cast<std::size_t>(symbol)];
    }
  }
  std::vector<FrequencyTable> tables;
  tables.reserve(n);
  for (std::size_t c = 0; c < n; ++c) {
    tables.push_back(FrequencyTable::from_counts(
        std::span<const std::uint64_t>(counts).subspan(c * map.alphabet, map.alphabet)));
  }
  return tables;
}

CacheGenCodes quantize_tensor(std::span<const float> x, const KvChunkView& kv, int bins,
                              const CacheGenOptions& options) {
  CacheGenCodes codes = cachegen_quantize(x, kv.num_tokens, kv.num_channels, bins);
  if (options.delta) cachegen_delta_forward(codes, options.delta_group_tokens);
  return codes;
}

std::vector<float> decode_tensor(const EncodedTensor& tensor, const EncodedChunk& chunk) {
  CacheGenCodes codes =
      cachegen_entropy_decode(tensor, chunk.num_tokens, chunk.num_channels, chunk.delta);
  if (chunk.delta) cachegen_delta_inverse(codes, chunk.delta_group_tokens);
  return cachegen_dequantize(codes);
}

const CacheGenLevel& pick_level(const CacheGenOptions& options, int level) {
  const auto& levels = options.levels.empty() ? cachegen_default_levels() : options.levels;
  if (level < 0 || static_cast<std::size_t>(level) >= levels.size()) {
    throw std::invalid_argument("CacheGen: level " + std::to_string(level) + " outside [0, " +
                                std::to_string(levels.size()) + ")");
  }
  return levels[static_cast<std::size_t>(level)];
}

}  // namespace

EncodedTensor cachegen_entropy_encode(const CacheGenCodes& codes, int bins, bool delta) {
  if (cachegen_half_levels(bins) != codes.half_levels) {
    throw std::invalid_argument("CacheGen: bin count does not match the codes");
  }
  EncodedTensor out;
  out.bins = bins;
  out.scales_fp16 = codes.scales_fp16;
  if (codes.num_tokens == 0 || codes.num_channels == 0) return out;
  const SymbolMap map = symbol_map(codes.half_levels, delta);
  const std::vector<FrequencyTable> tables = channel_tables(codes, map);
  for (const FrequencyTable& table : tables) table.serialize(out.tables);
  RangeEncoder encoder;
  const std::size_t n = codes.num_channels;
  for (std::size_t t = 0; t < codes.num_tokens; ++t) {
    const std::int8_t* row = codes.codes.data() + t * n;
    for (std::size_t c = 0; c < n; ++c) {
      tables[c].encode(encoder, static_cast<std::size_t>(row[c] + map.offset));
    }
  }
  out.stream = encoder.finish();
  return out;
}

CacheGenCodes cachegen_entropy_decode(const EncodedTensor& tensor, std::size_t num_tokens,
                                      std::size_t num_channels, bool delta) {
  CacheGenCodes codes;
  codes.num_tokens = num_tokens;
  codes.num_channels = num_channels;
  codes.half_levels = cachegen_half_levels(tensor.bins);
  codes.scales_fp16 = tensor.scales_fp16;
  if (codes.scales_fp16.size() != num_tokens) {
    throw std::runtime_error("CacheGen: scale count does not match the token count");
  }
  codes.codes.resize(num_tokens * num_channels);
  if (num_tokens == 0 || num_channels == 0) return codes;
  const SymbolMap map = symbol_map(codes.half_levels, delta);
  std::vector<FrequencyTable> tables;
  tables.reserve(num_channels);
  std::size_t offset = 0;
  for (std::size_t c = 0; c < num_channels; ++c) {
    tables.push_back(FrequencyTable::deserialize(tensor.tables, offset, map.alphabet));
  }
  if (offset != tensor.tables.size()) throw std::runtime_error("CacheGen: trailing table bytes");
  RangeDecoder decoder(tensor.stream);
  for (std::size_t t = 0; t < num_tokens; ++t) {
    std::int8_t* row = codes.codes.data() + t * num_channels;
    for (std::size_t c = 0; c < num_channels; ++c) {
      row[c] = static_cast<std::int8_t>(static_cast<int>(tables[c].decode(decoder)) - map.offset);
    }
  }
  return codes;
}

EncodedChunk cachegen_encode(const KvChunkView& kv, int layer, int num_layers, int level,
                             const CacheGenOptions& options) {
  const CacheGenLevel& rule = pick_level(options, level);
  EncodedChunk chunk;
  chunk.num_tokens = kv.num_tokens;
  chunk.num_channels = kv.num_channels;
  chunk.layer = layer;
  chunk.num_layers = num_layers;
  chunk.level = level;
  chunk.delta = options.delta;
  chunk.delta_group_tokens = options.delta_group_tokens;
  const int key_bins = cachegen_bins(rule, KvKind::Key, layer, num_layers);
  const int value_bins = cachegen_bins(rule, KvKind::Value, layer, num_layers);
  chunk.keys = cachegen_entropy_encode(quantize_tensor(kv.keys, kv, key_bins, options), key_bins,
                                       options.delta);
  chunk.values = cachegen_entropy_encode(quantize_tensor(kv.values, kv, value_bins, options),
                                         value_bins, options.delta);
  return chunk;
}

DecodedChunk cachegen_decode(const EncodedChunk& chunk) {
  DecodedChunk out;
  out.num_tokens = chunk.num_tokens;
  out.num_channels = chunk.num_channels;
  out.keys = decode_tensor(chunk.keys, chunk);
  out.values = decode_tensor(chunk.values, chunk);
  return out;
}

}  // namespace lynxsim::quant
