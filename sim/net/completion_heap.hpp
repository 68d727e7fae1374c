#pragma once
// An indexed binary min-heap of flow slots keyed by (projected send-completion time, flow id).
//
// The network keeps one simulator event for the earliest key; a rate change updates one slot's key in
// O(log n) without searching, and ties at the same picosecond break by flow id so that runs are
// reproducible.

#include <cstdint>
#include <utility>
#include <vector>

#include "sim/core/time.hpp"

namespace lynxsim::net {

class CompletionHeap {
public:
  static constexpr std::uint32_t kAbsent = UINT32_MAX;

  bool empty() const { return heap_.empty(); }
  std::uint32_t top() const { return heap_.front().slot; }
  Time top_time() const { return heap_.front().at; }
  bool contains(std::uint32_t slot) const { return slot < pos_.size() && pos_[slot] != kAbsent; }

  void set(std::uint32_t slot, Time at, std::uint64_t tie) {
    if (slot >= pos_.size()) pos_.resize(slot + 1, kAbsent);
    if (pos_[slot] == kAbsent) {
      pos_[slot] = static_cast<std::uint32_t>(heap_.size());
      heap_.push_back({at, tie, slot});
      sift_up(heap_.size() - 1);
      return;
    }
    const std::size_t p = pos_[slot];
    heap_[p].at = at;
    heap_[p].tie = tie;
    sift_up(p);
    sift_down(pos_[slot]);
  }

  void erase(std::uint32_t slot) {
    if (!contains(slot)) return;
    const std::size_t p = pos_[slot];
    pos_[slot] = kAbsent;
    if (p + 1 == heap_.size()) {
      heap_.pop_back();
      return;
    }
    heap_[p] = heap_.back();
    heap_.pop_back();
    const std::uint32_t moved = heap_[p].slot;
    pos_[moved] = static_cast<std::uint32_t>(p);
    sift_up(p);
    sift_down(pos_[moved]);
  }

private:
  struct Entry {
    Time at;
    std::uint64_t tie;
    std::uint32_t slot;
  };
  static bool before(const Entry& a, const Entry& b) {
    return a.at != b.at ? a.at < b.at : a.tie < b.tie;
  }
  void swap_at(std::size_t a, std::size_t b) {
    std::swap(heap_[a], heap_[b]);
    pos_[heap_[a].slot] = static_cast<std::uint32_t>(a);
    pos_[heap_[b].slot] = static_cast<std::uint32_t>(b);
  }
  void sift_up(std::size_t p) {
    while (p > 0 && before(heap_[p], heap_[(p - 1) / 2])) {
      swap_at(p, (p - 1) / 2);
      p = (p - 1) / 2;
    }
  }
  void sift_down(std::size_t p) {
    for (;;) {
      std::size_t best = p;
      for (std::size_t c = 2 * p + 1; c <= 2 * p + 2 && c < heap_.size(); ++c) {
        if (before(heap_[c], heap_[best])) best = c;
      }
      if (best == p) return;
      swap_at(p, best);
      p = best;
    }
  }

  std::vector<Entry> heap_;
  std::vector<std::uint32_t> pos_;
};

}  // namespace lynxsim::net
