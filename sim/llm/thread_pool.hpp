#pragma once
// A fixed pool of worker threads that runs indexed tasks and waits for all of them.
//
// run(n, fn) calls fn(0) ... fn(n - 1), each exactly once, on the workers and the calling thread,
// and returns when all are done; the first exception a task throws is rethrown by run(). Which
// thread runs a task is not fixed, so callers make each task's result independent of the thread
// (fixed task boundaries, no shared accumulators): results are then identical for every pool size.
// A worker the system refuses to start (core/thread_start.hpp) is not an error: the pool keeps the
// workers it got, and size() says how many threads it has.

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "sim/core/thread_start.hpp"

namespace lynxsim::llm {

class ThreadPool {
public:
  // n_threads >= 1 counts the calling thread: up to n_threads - 1 workers are started.
  explicit ThreadPool(int n_threads, const ThreadStarter& starter = {});
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return static_cast<int>(workers_.size()) + 1; }
  void run(int n_tasks, const std::function<void(int)>& task);

private:
  void worker_loop();
  void drain();
  void stop();

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  const std::function<void(int)>* task_ = nullptr;
  int n_tasks_ = 0;
  int next_task_ = 0;
  int unfinished_ = 0;
  std::uint64_t generation_ = 0;
  bool stopping_ = false;
  std::exception_ptr error_;
};

}  // namespace lynxsim::llm
