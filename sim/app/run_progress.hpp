#pragma once
// A progress line on stderr for a long run: which method, requests finished out of the run's
// total, the simulated time reached, wall time elapsed and an estimate of the time left.
//
// Fed by RequestDone events (serving_events.hpp) of each method's simulator. The estimate is linear
// in finished requests over all methods: left = elapsed * (total - done) / done, with total =
// methods * requests (every method serves the same workload); before the first request finishes
// it is unknown ("--:--"). The line is redrawn at most every `interval` of wall time, and only when
// enabled: stderr is a terminal (the line is rewritten in place and erased at the end) or
// --progress asked for it (one plain line per redraw, for logs). It never writes to stdout or
// into results, and reads nothing back into the simulation, so results are unchanged.

#include <chrono>
#include <cstdio>
#include <string>

#include "sim/core/simulator.hpp"

namespace lynxsim::app {

struct ProgressState {
  std::string method;
  std::size_t method_index = 0;  // 0-based
  std::size_t methods = 1;
  std::size_t requests_per_method = 0;
  std::size_t done_in_method = 0;
  double simulated_s = 0.0;
  double elapsed_s = 0.0;
};

// "lynx (2/4)  1200/5000 requests  sim 61.2 s  00:42 elapsed, 01:03 left"
std::string format_progress(const ProgressState& state);
std::string format_wall_duration(double seconds);  // "MM:SS" or "H:MM:SS"

// A progress line for a count of work items (`lynxsim accuracy`: measured KV blocks):
// "accuracy 12/48 blocks  00:42 elapsed, 02:06 left", redrawn like RunProgress's line.
class CountProgress {
 public:
  using Clock = std::chrono::steady_clock;

  CountProgress(bool enabled, std::string what, std::FILE* out = stderr,
                Clock::duration interval = std::chrono::milliseconds(250));
  CountProgress(const CountProgress&) = delete;
  CountProgress& operator=(const CountProgress&) = delete;
  ~CountProgress();

  void update(std::size_t done, std::size_t total);
  void finish();

 private:
  bool enabled_;
  bool interactive_;
  std::string what_;
  std::FILE* out_;
  Clock::duration interval_;
  Clock::time_point started_;
  Clock::time_point last_drawn_{};
  bool drawn_ = false;
};

// Whether a run shows progress: always with --progress, else when stderr is a terminal and the run
// is not --quiet.
bool progress_wanted(bool forced, bool quiet);

class RunProgress {
 public:
  using Clock = std::chrono::steady_clock;

  RunProgress(bool enabled, std::size_t methods, std::size_t requests_per_method,
              std::FILE* out = stderr, Clock::duration interval = std::chrono::milliseconds(250));
  RunProgress(const RunProgress&) = delete;
  RunProgress& operator=(const RunProgress&) = delete;
  ~RunProgress();

  void attach(Simulator& sim, std::size_t method_index, const std::string& method_name);
  void finish();

 private:
  void on_request_done(const Simulator& sim);
  void draw(Clock::time_point now);

  bool enabled_;
  bool interactive_;
  std::FILE* out_;
  Clock::duration interval_;
  Clock::time_point started_;
  Clock::time_point last_drawn_;
  ProgressState state_;
  bool drawn_ = false;
};

}  // namespace lynxsim::app
