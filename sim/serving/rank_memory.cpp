#include "sim/serving/rank_memory.hpp"

#include <stdexcept>

namespace lynxsim::serving {

RankMemory::RankMemory(int ranks, std::int64_t capacity, std::int64_t weights)
    : capacity_(capacity), used_(static_cast<std::size_t>(ranks), weights),
      total_(weights * ranks), peak_(weights), clocks_(static_cast<std::size_t>(ranks)) {
  if (ranks < 1) throw std::invalid_argument("decode memory: at least one data-parallel rank");
}

int dp_rank_of(std::uint64_t request_id, int ranks) {
  return static_cast<int>(request_id % static_cast<std::uint64_t>(ranks));
}

int RankMemory::rank_of(std::uint64_t request_id) const { return dp_rank_of(request_id, ranks()); }

void RankMemory::reserve(int rank, std::int64_t bytes) {
  std::int64_t& used = used_[index(rank)];
  used += bytes;
  total_ += bytes;
  if (used > peak_) peak_ = used;
}

void RankMemory::release(int rank, std::int64_t bytes) {
  used_[index(rank)] -= bytes;
  total_ -= bytes;
}

void RankMemory::set_blocked(int rank, bool blocked, Time now) {
  Clock& c = clocks_[index(rank)];
  if (blocked == c.blocked) return;
  if (blocked) c.since = now;
  else c.total += now - c.since;
  c.blocked = blocked;
}

Time RankMemory::blocked_clock(int rank, Time now) const {
  const Clock& c = clocks_[index(rank)];
  return c.total + (c.blocked ? now - c.since : Time::zero());
}

}  // namespace lynxsim::serving
