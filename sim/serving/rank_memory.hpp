#pragma once
// HBM of a decode instance, one budget per data-parallel attention rank.
//
// With data-parallel attention (ExpertParallelLayout::attention_dp = D, expert_parallel.hpp) a
// decode instance of t GPUs runs D attention ranks of t / D GPUs, each with its own requests and
// its own KV: a request's KV sits on the GPUs of one rank only (KvTransferParams::kv_hosts sends it
// there: rank = request id mod D). Each GPU holds the weights of its shard, so rank r admits a
// request only while
//   weights_per_gpu + sum over rank r's resident requests of reserve <= capacity_per_gpu,
// where reserve is the request's KV per GPU of its rank (TimingModel::kv_bytes_per_rank). The
// ranks' HBM is not pooled: a request whose rank is full waits even if another rank has room, as
// in SGLang's data-parallel attention, where each rank runs its own scheduler and KV pool. With
// D = 1 this is the instance's single budget.
//
// Each rank also keeps a memory-blocked clock: the accumulated time during which a request of
// that rank could not join for want of its rank's memory (the batch having room), from which a
// request's memory_wait_time is the clock's advance between its decode-ready and join times.
// Units: bytes per GPU, simulated time.

#include <cstdint>
#include <vector>

#include "sim/core/time.hpp"

namespace lynxsim::serving {

// The data-parallel attention rank (of `ranks`) that holds a request: its KV is sent there
// (KvTransferParams::kv_hosts) and budgeted there (RankMemory).
int dp_rank_of(std::uint64_t request_id, int ranks);

class RankMemory {
public:
  RankMemory(int ranks, std::int64_t capacity, std::int64_t weights);

  int ranks() const { return static_cast<int>(used_.size()); }
  int rank_of(std::uint64_t request_id) const;
  bool fits(int rank, std::int64_t bytes) const { return used_[index(rank)] + bytes <= capacity_; }
  void reserve(int rank, std::int64_t bytes);
  void release(int rank, std::int64_t bytes);

  std::int64_t capacity() const { return capacity_; }
  std::int64_t used(int rank) const { return used_[index(rank)]; }
  std::int64_t total_used() const { return total_; }
  std::int64_t peak() const { return peak_; }  // the most any one rank has held (weights included)

  void set_blocked(int rank, bool blocked, Time now);
  Time blocked_clock(int rank, Time now) const;

private:
  std::size_t index(int rank) const { return static_cast<std::size_t>(rank); }

  std::int64_t capacity_ = 0;
  std::vector<std::int64_t> used_;
  std::int64_t total_ = 0;
  std::int64_t peak_ = 0;
  struct Clock {
    bool blocked = false;
    Time since;
    Time total;
  };
  std::vector<Clock> clocks_;
};

}  // namespace lynxsim::serving
