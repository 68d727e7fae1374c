#pragma once
// CacheGen's per-chunk adaptation: which quality level (or plain text) to send for the next chunk.
//
// The context is cut into chunks (kCacheGenDefaultChunkTokens tokens by default), each encoded at
// every quality level ahead of time. Before sending chunk i the sender knows the bandwidth it
// measured while sending chunk i - 1, bw (bytes per second), and the time it may still spend on
// this chunk, budget (seconds). It sends the highest-quality level l (lowest index) with
//   bytes_l <= bw * budget,
// and, when no level fits, falls back to the chunk's text (token ids, text_bytes), which the
// receiver turns back into KV by recomputing the chunk's prefill. Text is chosen even if it does
// not fit the budget itself: it is the smallest thing that can be sent, and the recompute time is
// the receiver's cost, not part of this choice. A bandwidth of zero or a budget of zero or less
// therefore always yields text (unless a level codes to zero bytes).
//
// The budget of one chunk: CacheGen keeps the whole transfer inside the SLO, so the time left is
// shared evenly by the chunks left,
//   budget_i = max(0, slo - elapsed) / chunks_left,
// which is what cachegen_chunk_budget_s computes and CacheGenAdapter applies chunk after chunk,
// measuring bw = bytes_sent / transfer_time on each chunk it sends.
//
// Units: bytes, seconds, bytes per second (doubles; no simulator types, sim/quant links nothing).

#include <cstddef>
#include <cstdint>
#include <span>

namespace lynxsim::quant {

inline constexpr std::size_t kCacheGenDefaultChunkTokens = 1500;

struct ChunkChoice {
  bool text = false;             // true: send the text and recompute the chunk on the receiver
  int level = -1;                // chosen level when !text
  std::uint64_t bytes = 0;       // bytes to send for the choice
  double transfer_time_s = 0.0;  // bytes / bw (infinity when bw is 0)
};

struct ChunkChoiceInput {
  std::span<const std::uint64_t> level_bytes;  // index = level, 0 = highest quality
  double bandwidth_bytes_per_s = 0.0;          // measured on the previous chunk
  double time_budget_s = 0.0;                  // time this chunk may take
  std::uint64_t text_bytes = 0;                // size of the text fallback
};

// Throws std::invalid_argument when level_bytes is empty or the bandwidth or budget is NaN, or the
// bandwidth is negative.
ChunkChoice cachegen_choose_level(const ChunkChoiceInput& input);

// max(0, slo_s - elapsed_s) / chunks_left; throws when chunks_left is 0.
double cachegen_chunk_budget_s(double slo_s, double elapsed_s, std::size_t chunks_left);

// The sender's loop: choose with the last measured bandwidth and the even share of the SLO left,
// then record what the send really took.
class CacheGenAdapter {
public:
  CacheGenAdapter(double slo_s, std::size_t num_chunks, double initial_bandwidth_bytes_per_s);

  ChunkChoice choose_next(std::span<const std::uint64_t> level_bytes, std::uint64_t text_bytes) const;
  // Records one sent chunk; its measured bandwidth drives the next choice.
  void record_sent(std::uint64_t bytes, double transfer_time_s);

  std::size_t chunks_left() const { return num_chunks_ - chunks_sent_; }
  double elapsed_s() const { return elapsed_s_; }
  double bandwidth_bytes_per_s() const { return bandwidth_bytes_per_s_; }

private:
  double slo_s_;
  std::size_t num_chunks_;
  std::size_t chunks_sent_ = 0;
  double elapsed_s_ = 0.0;
  double bandwidth_bytes_per_s_;
};

}  // namespace lynxsim::quant
