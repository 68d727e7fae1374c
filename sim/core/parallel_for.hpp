#pragma once
// The one parallel loop of lynxsim's batch work (kernels over many blocks, accuracy measurements
// over sampled heads and layers): job(i) for every i in [0, jobs), on `threads` threads, thread w
// taking the contiguous range [w * ceil(jobs / threads), ...). With one thread (or one job) the loop
// runs on the calling thread, which also runs the ranges of threads the system refused to start
// (core/thread_start.hpp). Every job runs even when another throws; after all threads have joined,
// the exception of the lowest-numbered failing range is rethrown. Jobs write only their own
// outputs, so results do not depend on the number of threads.

#include <algorithm>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

#include "sim/core/thread_start.hpp"

namespace lynxsim {

template <typename Job>
void parallel_for(std::size_t jobs, int threads, const Job& job, const ThreadStarter& starter = {}) {
  const auto workers = static_cast<std::size_t>(std::max(1, threads));
  if (workers <= 1 || jobs <= 1) {
    for (std::size_t i = 0; i < jobs; ++i) job(i);
    return;
  }
  std::vector<std::exception_ptr> errors(workers);
  const std::size_t per_thread = (jobs + workers - 1) / workers;
  const auto run_range = [&](std::size_t w) {
    try {
      for (std::size_t i = w * per_thread; i < std::min(jobs, (w + 1) * per_thread); ++i) job(i);
    } catch (...) {
      errors[w] = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  const auto join_all = [&pool] {
    for (auto& t : pool) t.join();
  };
  std::size_t started = 0;
  try {
    started = static_cast<std::size_t>(start_threads(
        pool, static_cast<int>(workers - 1), [&run_range](int w) { run_range(static_cast<std::size_t>(w)); },
        starter));
  } catch (...) {
    join_all();
    throw;
  }
  run_range(0);
  for (std::size_t w = started + 1; w < workers; ++w) run_range(w);
  join_all();
  for (const auto& e : errors) {
    if (e) std::rethrow_exception(e);
  }
}

}  // namespace lynxsim
