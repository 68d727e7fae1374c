#pragma once
// Starting worker threads when the system may refuse some of them.
//
// std::thread's constructor throws std::system_error when the kernel or the C library cannot make
// a thread (EAGAIN under RLIMIT_NPROC or a thread-count limit, ENOMEM when the address space of
// `ulimit -v` cannot hold another stack). start_threads starts workers 1..count, in order, and
// stops at the first refusal: the caller keeps the workers it got and runs the work of the others
// itself, so a refused thread costs speed, never a result, a hang or a crash. Callers split work
// into fixed tasks whose results do not depend on which thread runs them, so their results are the
// same with any number of started threads.
//
// The starter is injectable so that tests can refuse a chosen thread deterministically.

#include <functional>
#include <thread>
#include <vector>

namespace lynxsim {

// Makes a thread running `body`, or throws std::system_error.
using ThreadStarter = std::function<std::thread(std::function<void()> body)>;

// The starter of std::thread itself.
ThreadStarter default_thread_starter();

// Appends to `workers` a started thread running body(w) for w = 1, 2, ..., count, until the
// starter refuses one (std::system_error); returns how many were started. Any other exception
// propagates, leaving the started threads in `workers` for the caller to stop and join.
int start_threads(std::vector<std::thread>& workers, int count, const std::function<void(int)>& body,
                  const ThreadStarter& starter);

}  // namespace lynxsim
