#include "sim/quant/cachegen_adapt.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace lynxsim::quant {
namespace {

double transfer_time_s(std::uint64_t bytes, double bandwidth_bytes_per_s) {
  if (bytes == 0) return 0.0;
  if (bandwidth_bytes_per_s <= 0.0) return std::numeric_limits<double>::infinity();
  return static_cast<double>(bytes) / bandwidth_bytes_per_s;
}

}  // namespace

ChunkChoice cachegen_choose_level(const ChunkChoiceInput& input) {
  if (input.level_bytes.empty()) throw std::invalid_argument("CacheGen: no quality levels given");
  if (std::isnan(input.bandwidth_bytes_per_s) || input.bandwidth_bytes_per_s < 0.0) {
    throw std::invalid_argument("CacheGen: bandwidth must be a number >= 0");
  }
  if (std::isnan(input.time_budget_s)) throw std::invalid_argument("CacheGen: budget is NaN");
  for (std::size_t level = 0; level < input.level_bytes.size(); ++level) {
    const std::uint64_t bytes = input.level_bytes[level];
    const double time_s = transfer_time_s(bytes, input.bandwidth_bytes_per_s);
    if (time_s <= input.time_budget_s || bytes == 0) {
      return ChunkChoice{false, static_cast<int>(level), bytes, time_s};
    }
  }
  return ChunkChoice{true, -1, input.text_bytes,
                     transfer_time_s(input.text_bytes, input.bandwidth_bytes_per_s)};
}

double cachegen_chunk_budget_s(double slo_s, double elapsed_s, std::size_t chunks_left) {
  if (chunks_left == 0) throw std::invalid_argument("CacheGen: no chunks left to budget");
  return std::max(0.0, slo_s - elapsed_s) / static_cast<double>(chunks_left);
}

CacheGenAdapter::CacheGenAdapter(double slo_s, std::size_t num_chunks,
                                 double initial_bandwidth_bytes_per_s)
    : slo_s_(slo_s), num_chunks_(num_chunks), bandwidth_bytes_per_s_(initial_bandwidth_bytes_per_s) {
  if (!(slo_s > 0.0)) throw std::invalid_argument("CacheGen: SLO must be > 0 s");
  if (num_chunks == 0) throw std::invalid_argument("CacheGen: need at least one chunk");
  if (!(initial_bandwidth_bytes_per_s >= 0.0)) {
    throw std::invalid_argument("CacheGen: initial bandwidth must be >= 0");
  }
}

ChunkChoice CacheGenAdapter::choose_next(std::span<const std::uint64_t> level_bytes,
                                         std::uint64_t text_bytes) const {
  if (chunks_left() == 0) throw std::runtime_error("CacheGen: every chunk was already sent");
  return cachegen_choose_level(ChunkChoiceInput{
      level_bytes, bandwidth_bytes_per_s_, cachegen_chunk_budget_s(slo_s_, elapsed_s_, chunks_left()),
      text_bytes});
}

void CacheGenAdapter::record_sent(std::uint64_t bytes, double transfer_time_s) {
  if (chunks_left() == 0) throw std::runtime_error("CacheGen: every chunk was already sent");
  if (!(transfer_time_s >= 0.0)) throw std::invalid_argument("CacheGen: transfer time must be >= 0");
  ++chunks_sent_;
  elapsed_s_ += transfer_time_s;
  if (transfer_time_s > 0.0 && bytes > 0) {
    bandwidth_bytes_per_s_ = static_cast<double>(bytes) / transfer_time_s;
  }
}

}  // namespace lynxsim::quant
