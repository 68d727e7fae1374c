#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <vector>

#include "sim/core/parallel_for.hpp"
#include "sim/core/thread_start.hpp"

using namespace lynxsim;

namespace {

// Starts the first `allowed` threads, then refuses every other as pthread_create does under
// RLIMIT_NPROC (EAGAIN); counts the attempts.
struct RefusingStarter {
  int allowed = 0;
  std::atomic<int>* attempts = nullptr;
  std::thread operator()(std::function<void()> body) const {
    if (attempts->fetch_add(1) >= allowed) {
      throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again));
    }
    return std::thread(std::move(body));
  }
};

}  // namespace

TEST_CASE("start_threads keeps the threads it got and stops at the first refusal") {
  for (const int allowed : {0, 1, 3}) {
    std::atomic<int> attempts{0};
    std::atomic<int> ran{0};
    std::vector<std::thread> workers;
    const int started = start_threads(workers, 8, [&ran](int) { ran.fetch_add(1); },
                                      RefusingStarter{allowed, &attempts});
    CHECK(started == allowed);
    CHECK(workers.size() == static_cast<std::size_t>(allowed));
    CHECK(attempts.load() == allowed + 1);
    for (auto& t : workers) t.join();
    CHECK(ran.load() == allowed);
  }
}

TEST_CASE("parallel_for runs every job once when the system refuses some threads") {
  for (const int allowed : {0, 1, 2, 7}) {
    std::atomic<int> attempts{0};
    std::vector<int> hits(100, 0);
    parallel_for(hits.size(), 8, [&hits](std::size_t i) { hits[i] += 1; }, RefusingStarter{allowed, &attempts});
    CHECK(std::count(hits.begin(), hits.end(), 1) == 100);
  }
}

TEST_CASE("parallel_for rethrows a job's exception when threads were refused") {
  std::atomic<int> attempts{0};
  CHECK_THROWS_AS(parallel_for(
                      16, 4,
                      [](std::size_t i) {
                        if (i == 15) throw std::runtime_error("job 15");
                      },
                      RefusingStarter{1, &attempts}),
                  std::runtime_error);
}
