#include "sim/llm/thread_pool.hpp"

#include <stdexcept>

namespace lynxsim::llm {

ThreadPool::ThreadPool(int n_threads, const ThreadStarter& starter) {
  if (n_threads < 1) {
    throw std::invalid_argument("ThreadPool needs at least one thread");
  }
  try {
    start_threads(workers_, n_threads - 1, [this](int) { worker_loop(); }, starter);
  } catch (...) {
    stop();
    throw;
  }
}

ThreadPool::~ThreadPool() { stop(); }

void ThreadPool::stop() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& worker : workers_) {
    worker.join();
  }
  workers_.clear();
}

void ThreadPool::drain() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (next_task_ < n_tasks_) {
    const int index = next_task_++;
    lock.unlock();
    try {
      (*task_)(index);
    } catch (...) {
      const std::lock_guard<std::mutex> error_lock(mutex_);
      if (!error_) {
        error_ = std::current_exception();
      }
    }
    lock.lock();
    if (--unfinished_ == 0) {
      done_.notify_all();
    }
  }
}

void ThreadPool::worker_loop() {
  std::uint64_t seen = 0;
  while (true) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) {
        return;
      }
      seen = generation_;
    }
    drain();
  }
}

void ThreadPool::run(int n_tasks, const std::function<void(int)>& task) {
  if (n_tasks <= 0) {
    return;
  }
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    task_ = &task;
    n_tasks_ = n_tasks;
    next_task_ = 0;
    unfinished_ = n_tasks;
    error_ = nullptr;
    ++generation_;
  }
  wake_.notify_all();
  drain();
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [&] { return unfinished_ == 0; });
  task_ = nullptr;
  n_tasks_ = 0;
  if (error_) {
    std::rethrow_exception(error_);
  }
}

}  // namespace lynxsim::llm
