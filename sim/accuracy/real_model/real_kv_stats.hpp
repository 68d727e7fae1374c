#pragma once
// Statistics of a real model's K/V beside the synthetic generator's (synthetic_kv.hpp), so that the
// generator's profile can be calibrated against them.
//
// Per (layer, KV head) block of T tokens, keys after RoPE as the cache holds them:
//   outlier_pairs        RoPE pairs whose RMS exceeds 5x the median pair RMS (a pair's RMS is
//                        unchanged by RoPE, so this counts pre-RoPE outlier channels in pairs)
//   max_pair_ratio       largest pair RMS / median pair RMS
//   key_range_ratio      largest per-channel range (max − min over tokens) / median channel range:
//                        what per-channel quantization of keys sees
//   key_kurtosis         mean over channels of the excess kurtosis over tokens (heavy tails)
//   key_locality         mean over channels of the lag-1 autocorrelation over tokens
//   value_locality       the same for values
//                        (these three average over the channels that vary: a channel constant over
//                        the block's tokens has no kurtosis or autocorrelation and is left out)
//   value_scale_sigma    standard deviation of ln norm(v_t) over tokens (profile:
//                        values.token_scale_sigma)
//   sink_attention       attention mass on token 0 of the query at position T − 1, mean over the query
//                        heads of the KV head (the synthetic block has one query per KV head)
//   sink_key_ratio       norm(k_0) / median norm(k_t);  sink_value_ratio the same for values
// Each statistic is summarized as mean, min and max over all blocks. The real rotary pairs are
// adjacent channels (Llama's GGUF order; Gemma's are (c, c + d/2)), the synthetic ones
// (c, c + d/2); the statistics are invariant to that permutation. For Gemma's sliding-window
// layers sink_attention is computed over the whole block as if the layer were global (the model
// itself sees only the last sliding_window tokens there). Scales are ratios, so the generator's unit median scale compares directly.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sim/accuracy/kv/kv_profile.hpp"
#include "sim/llm/model.hpp"

namespace lynxsim::accuracy {

struct KvStatRow {
  std::string name;
  double real_mean = 0.0;
  double real_min = 0.0;
  double real_max = 0.0;
  double synthetic_mean = 0.0;
  double synthetic_min = 0.0;
  double synthetic_max = 0.0;
};

struct KvStatistics {
  int tokens = 0;
  std::string profile;
  std::vector<KvStatRow> rows;
};

const std::vector<std::string>& kv_statistic_names();

struct KvBlockView {
  const float* keys = nullptr;    // [tokens][head_dim]
  const float* values = nullptr;  // [tokens][head_dim]
  int tokens = 0;
  int head_dim = 0;
  int pair_offset = 1;  // partner of channel c in its RoPE pair: c ^ 1 (1) or (c + d/2) mod d (d/2)
  std::vector<const float*> queries;  // each at position tokens − 1
};

// One value per kv_statistic_names() entry.
std::vector<double> block_kv_statistics(const KvBlockView& block);

// Prefills `tokens` (the whole prompt) and compares every block with synthetic blocks of the same
// geometry, length and `profile`.
KvStatistics real_kv_statistics(const llm::Model& model, std::span<const int> tokens, const KvProfile& profile,
                                int threads, std::uint64_t seed);

std::string render_kv_statistics(const KvStatistics& statistics);

}  // namespace lynxsim::accuracy
