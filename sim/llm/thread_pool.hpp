#pragma once
// A fixed pool of worker threads that runs indexed tasks and waits for all of them.
//
// run(n, fn) calls fn(0) ... fn(n - 1), each exactly once, on the workers and the calling thread,
// and returns when all are done; the first exception a task throws is rethrown by run(). Which
// thread runs a task is not fixed, so callers make each task's result independent of the thread
// (fixed task boundaries, no shared accumulators): results are then identical for every pool size.

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace lynxsim::llm {

class ThreadPool {
public:
  // n_threads >= 1 counts the calling thread: n_threads - 1 workers are started.
  explicit ThreadPool(int n_threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return static_cast<int>(workers_.size()) + 1; }
  void run(int n_tasks, const std::function<void(int)>& task);

private:
  void worker_loop();
  void drain();

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
