#include <doctest/doctest.h>

#include <algorithm>
#include <stdexcept>
#include <tuple>
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

TEST_CASE("interleaved pushes, pops, cancellations and reserved pushes fire in the reference order") {
  EventQueue q;
  RngStream rng(2026);
  using Ref = std::tuple<std::int64_t, std::uint64_t, int>;  // (time, sequence, event)
  std::vector<Ref> pending;
  std::vector<std::pair<EventId, Ref>> ids;
  std::vector<int> fired;
  std::vector<int> expected;
  std::int64_t now = 0;
  for (int i = 0; i < 20000; ++i) {
    const auto op = rng.uniform_int(10);
    if (op < 5 || pending.empty()) {
      const std::int64_t at = now + static_cast<std::int64_t>(rng.uniform_int(op == 0 ? 3 : 500));
      const bool reserved = op == 1;
      const std::uint64_t seq = q.reserve_sequences(1);
      auto action = [&fired, i] { fired.push_back(i); };
      const EventId id = reserved ? q.push_reserved(Time::from_ps(at), seq, action)
                                  : q.push(Time::from_ps(at), action);
      const Ref ref{at, reserved ? seq : seq + 1, i};
      pending.push_back(ref);
      ids.emplace_back(id, ref);
    } else if (op < 8) {
      const auto next = std::min_element(pending.begin(), pending.end());
      expected.push_back(std::get<2>(*next));
      now = std::get<0>(*next);
      pending.erase(next);
      const auto f = q.pop();
      CHECK(f.at.ps() == now);
      f.action();
    } else {
      const auto& [id, ref] = ids[static_cast<std::size_t>(rng.uniform_int(ids.size()))];
      const auto it = std::find(pending.begin(), pending.end(), ref);
      CHECK(q.cancel(id) == (it != pending.end()));
      if (it != pending.end()) pending.erase(it);
    }
  }
  std::sort(pending.begin(), pending.end());
  for (const Ref& r : pending) expected.push_back(std::get<2>(r));
  while (!q.empty()) q.pop().action();
  CHECK(fired == expected);
}
