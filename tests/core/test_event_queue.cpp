#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

#include "sim/core/event_queue.hpp"
#include "sim/core/rng.hpp"

using namespace lynxsim;

TEST_CASE("events pop in time order, ties in insertion order") {
  EventQueue q;
  std::vector<int> order;
  q.push(Time::from_ps(30), [&] { order.push_back(3); });
  q.push(Time::from_ps(10), [&] { order.push_back(1); });
  q.push(Time::from_ps(30), [&] { order.push_back(4); });
  q.push(Time::from_ps(20), [&] { order.push_back(2); });
  while (!q.empty()) q.pop().action();
  CHECK(order == std::vector<int>{1, 2, 3, 4});
}

TEST_CASE("a cancelled event never fires and a stale id cancels nothing") {
  EventQueue q;
  int fired = 0;
  const EventId a = q.push(Time::from_ps(5), [&] { fired += 1; });
  const EventId b = q.push(Time::from_ps(6), [&] { fired += 10; });
  CHECK(q.cancel(a));
  CHECK_FALSE(q.cancel(a));
  CHECK_FALSE(q.pending(a));
  CHECK(q.pending(b));
  q.pop().action();
  CHECK(fired == 10);
  const EventId c = q.push(Time::from_ps(7), [&] { fired += 100; });
  CHECK(c.slot == b.slot);
  CHECK_FALSE(q.cancel(b));
  CHECK(q.pending(c));
}

TEST_CASE("random insertions and cancellations keep heap order") {
  EventQueue q;
  RngStream rng(42);
  std::vector<EventId> ids;
  for (int i = 0; i < 5000; ++i) {
    ids.push_back(q.push(Time::from_ps(static_cast<std::int64_t>(rng.uniform_int(1000))), [] {}));
  }
  std::size_t cancelled = 0;
  for (std::size_t i = 0; i < ids.size(); i += 3) cancelled += q.cancel(ids[i]) ? 1 : 0;
  CHECK(q.size() == ids.size() - cancelled);
  Time last = Time::zero();
  std::uint64_t last_seq = 0;
  while (!q.empty()) {
    const auto f = q.pop();
    CHECK(f.at >= last);
    if (f.at == last) CHECK(f.sequence >= last_seq);
    last = f.at;
    last_seq = f.sequence;
  }
}

TEST_CASE("events pushed later with reserved sequence numbers fire as if pushed at reservation") {
  lynxsim::EventQueue q;
  std::vector<int> order;
  q.push(lynxsim::Time::from_us(5), [&order] { order.push_back(0); });
  const std::uint64_t first = q.reserve_sequences(2);
  q.push(lynxsim::Time::from_us(5), [&order] { order.push_back(3); });
  q.push_reserved(lynxsim::Time::from_us(5), first + 1, [&order] { order.push_back(2); });
  q.push_reserved(lynxsim::Time::from_us(5), first, [&order] { order.push_back(1); });
  while (!q.empty()) q.pop().action();
  CHECK(order == std::vector<int>{0, 1, 2, 3});
  CHECK_THROWS_AS(q.push_reserved(lynxsim::Time::from_us(1), first + 10, [] {}), std::logic_error);
}
