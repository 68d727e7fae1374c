#include <doctest/doctest.h>

#include <functional>
#include <memory>
#include <new>
#include <system_error>
#include <thread>
#include <vector>

#include "sim/llm/thread_pool.hpp"

using lynxsim::ThreadStarter;
using lynxsim::llm::ThreadPool;

namespace {

// Starts the first `allowed` threads, then fails as pthread_create does under RLIMIT_NPROC or a
// full address space (EAGAIN), or, with `bad_alloc`, as a failed allocation would.
ThreadStarter refusing_after(int allowed, bool bad_alloc = false) {
  auto attempts = std::make_shared<int>(0);
  return [allowed, bad_alloc, attempts](std::function<void()> body) {
    if ((*attempts)++ >= allowed) {
      if (bad_alloc) throw std::bad_alloc();
      throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again));
    }
    return std::thread(std::move(body));
  };
}

std::vector<int> squares(ThreadPool& pool, int n) {
  std::vector<int> out(static_cast<std::size_t>(n), 0);
  pool.run(n, [&out](int i) { out[static_cast<std::size_t>(i)] = i * i; });
  return out;
}

}  // namespace

TEST_CASE("a pool whose workers the system refuses runs on the threads it got") {
  for (const int allowed : {0, 1, 5}) {
    ThreadPool pool(32, refusing_after(allowed));
    CHECK(pool.size() == allowed + 1);
    const std::vector<int> out = squares(pool, 1000);
    for (int i = 0; i < 1000; ++i) CHECK(out[static_cast<std::size_t>(i)] == i * i);
  }
}

TEST_CASE("a pool that fails to start otherwise stops the workers it started and rethrows") {
  CHECK_THROWS_AS(ThreadPool(8, refusing_after(3, true)), std::bad_alloc);
}

TEST_CASE("a full pool gets every thread it asks for") {
  ThreadPool pool(4);
  CHECK(pool.size() == 4);
  CHECK(squares(pool, 10)[9] == 81);
}
