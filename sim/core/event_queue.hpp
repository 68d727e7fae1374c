#pragma once
// The pending-event set of a discrete-event simulation.
//
// Events are ordered by (time, sequence number); the sequence number is assigned at insertion, so
// two events at the same picosecond fire in the order they were scheduled and a run is reproducible
// bit for bit. The queue is an indexed 4-ary heap (half the depth of a binary one, and the four
// children of a node share a cache line): push, pop and cancel are O(log n), and each event's
// heap position is tracked in a slot table so that cancellation needs no search. Since (time,
// sequence) is a strict total order, the firing order does not depend on the heap's shape. An EventId
// stays valid until its event fires or is cancelled; slots are reused, and a generation counter makes
// a stale id harmless (cancel returns false). A queue holds at most 2^26 pending events and hands
// out at most 2^38 sequence numbers (std::length_error beyond).
//
// A model that knows many future events up front (request arrivals) need not keep them all in the
// heap: reserve_sequences(n) sets aside n consecutive sequence numbers, and push_reserved() inserts
// one of them later. Pushed in time order, each when the previous one fires, they fire exactly as
// if all had been pushed at reservation time, while the heap stays small.
//
// An event is pushed weak or not: weak events (periodic sources such as a bandwidth trace or a
// background sender) fire like the others, but only strong ones count in strong_size(), which the
// Simulator uses to tell when a run's own work is over.

#include <cstdint>
#include <functional>
#include <vector>

#include "sim/core/time.hpp"

namespace lynxsim {

struct EventId {
  std::uint32_t slot = UINT32_MAX;
  std::uint32_t generation = 0;
  bool valid() const { return slot != UINT32_MAX; }
};

class EventQueue {
public:
  using Action = std::function<void()>;

  struct Fired {
    Time at;
    std::uint64_t sequence;
    Action action;
  };

  EventId push(Time at, Action action, bool weak = false);
  // The first of n sequence numbers set aside for push_reserved().
  std::uint64_t reserve_sequences(std::uint64_t n);
  EventId push_reserved(Time at, std::uint64_t sequence, Action action, bool weak = false);
  bool cancel(EventId id);
  bool pending(EventId id) const;
  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  // Pending events that are not weak.
  std::size_t strong_size() const { return strong_; }
  Time next_time() const;
  Fired pop();

private:
  // The sequence number above the slot index in one word: 16 bytes an entry, four children of a
  // node in one cache line; since sequence numbers are unique, comparing the words compares them.
  struct Entry {
    Time at;
    std::uint64_t key;
    std::uint64_t sequence() const { return key >> kSlotBits; }
    std::uint32_t slot() const { return static_cast<std::uint32_t>(key & kSlotMask); }
  };
  struct Slot {
    Action action;
    std::uint32_t heap_pos = UINT32_MAX;
    std::uint32_t generation = 0;
    bool weak = false;
  };

  static constexpr std::size_t kArity = 4;
  static constexpr int kSlotBits = 26;
  static constexpr std::uint64_t kSlotMask = (std::uint64_t{1} << kSlotBits) - 1;
  static constexpr std::uint64_t kSequenceLimit = std::uint64_t{1} << (64 - kSlotBits);
  static bool before(const Entry& a, const Entry& b) {
    const std::int64_t x = a.at.ps();
    const std::int64_t y = b.at.ps();
    return (x < y) | ((x == y) & (a.key < b.key));
  }
  void place(std::size_t pos, const Entry& e);
  void sift_up(std::size_t pos);
  void sift_down(std::size_t pos);
  void remove_at(std::size_t pos);
  std::uint32_t take_slot();

  std::vector<Entry> heap_;
  std::vector<Slot> slots_;
  std::vector<std::uint32_t> free_slots_;
  std::uint64_t next_sequence_ = 0;
  std::size_t strong_ = 0;
};

}  // namespace lynxsim
