#include "sim/core/event_queue.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace lynxsim {

std::uint32_t EventQueue::take_slot() {
  if (!free_slots_.empty()) {
    const std::uint32_t s = free_slots_.back();
    free_slots_.pop_back();
    return s;
  }
  if (slots_.size() > kSlotMask) throw std::length_error("event queue: more than 2^26 pending events");
  slots_.emplace_back();
  return static_cast<std::uint32_t>(slots_.size() - 1);
}

EventId EventQueue::push(Time at, Action action, bool weak) {
  return push_reserved(at, reserve_sequences(1), std::move(action), weak);
}

std::uint64_t EventQueue::reserve_sequences(std::uint64_t n) {
  if (n > kSequenceLimit - next_sequence_) throw std::length_error("event queue: more than 2^38 events");
  const std::uint64_t first = next_sequence_;
  next_sequence_ += n;
  return first;
}

EventId EventQueue::push_reserved(Time at, std::uint64_t sequence, Action action, bool weak) {
  if (sequence >= next_sequence_) throw std::logic_error("push_reserved() of an unreserved sequence");
  const std::uint32_t slot = take_slot();
  slots_[slot].action = std::move(action);
  slots_[slot].weak = weak;
  strong_ += weak ? 0 : 1;
  heap_.push_back(Entry{at, (sequence << kSlotBits) | slot});
  slots_[slot].heap_pos = static_cast<std::uint32_t>(heap_.size() - 1);
  sift_up(heap_.size() - 1);
  return EventId{slot, slots_[slot].generation};
}

bool EventQueue::pending(EventId id) const {
  return id.valid() && id.slot < slots_.size() && slots_[id.slot].generation == id.generation &&
         slots_[id.slot].heap_pos != UINT32_MAX;
}

bool EventQueue::cancel(EventId id) {
  if (!pending(id)) return false;
  remove_at(slots_[id.slot].heap_pos);
  return true;
}

Time EventQueue::next_time() const {
  if (heap_.empty()) throw std::logic_error("next_time() on an empty event queue");
  return heap_.front().at;
}

EventQueue::Fired EventQueue::pop() {
  if (heap_.empty()) throw std::logic_error("pop() on an empty event queue");
  const Entry top = heap_.front();
  Fired fired{top.at, top.sequence(), std::move(slots_[top.slot()].action)};
  remove_at(0);
  return fired;
}

void EventQueue::remove_at(std::size_t pos) {
  const std::uint32_t slot = heap_[pos].slot();
  Slot& s = slots_[slot];
  s.heap_pos = UINT32_MAX;
  s.action = nullptr;
  strong_ -= s.weak ? 0 : 1;
  ++s.generation;
  free_slots_.push_back(slot);
  const Entry last = heap_.back();
  heap_.pop_back();
  if (pos == heap_.size()) return;
  place(pos, last);
  if (pos > 0 && before(last, heap_[(pos - 1) / kArity])) {
    sift_up(pos);
  } else {
    sift_down(pos);
  }
}

void EventQueue::place(std::size_t pos, const Entry& e) {
  heap_[pos] = e;
  slots_[e.slot()].heap_pos = static_cast<std::uint32_t>(pos);
}

void EventQueue::sift_up(std::size_t pos) {
  const Entry e = heap_[pos];
  while (pos > 0) {
    const std::size_t parent = (pos - 1) / kArity;
    if (!before(e, heap_[parent])) break;
    place(pos, heap_[parent]);
    pos = parent;
  }
  place(pos, e);
}

void EventQueue::sift_down(std::size_t pos) {
  const Entry e = heap_[pos];
  const std::size_t n = heap_.size();
  while (true) {
    const std::size_t first = kArity * pos + 1;
    if (first >= n) break;
    const std::size_t end = std::min(first + kArity, n);
    std::size_t child = first;
    for (std::size_t c = first + 1; c < end; ++c) {
      child = before(heap_[c], heap_[child]) ? c : child;
    }
    if (!before(heap_[child], e)) break;
    place(pos, heap_[child]);
    pos = child;
  }
  place(pos, e);
}

}  // namespace lynxsim
