#include "sim/core/thread_start.hpp"

#include <system_error>
#include <utility>

namespace lynxsim {

ThreadStarter default_thread_starter() {
  return [](std::function<void()> body) { return std::thread(std::move(body)); };
}

int start_threads(std::vector<std::thread>& workers, int count, const std::function<void(int)>& body,
                  const ThreadStarter& starter) {
  const ThreadStarter& start = starter ? starter : default_thread_starter();
  workers.reserve(workers.size() + static_cast<std::size_t>(count > 0 ? count : 0));
  int started = 0;
  for (int w = 1; w <= count; ++w) {
    try {
      workers.push_back(start([body, w] { body(w); }));
    } catch (const std::system_error&) {
      break;
    }
    ++started;
  }
  return started;
}

}  // namespace lynxsim
