#include "sim/app/run_progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>

#include "sim/serving/serving_events.hpp"

namespace lynxsim::app {
namespace {

// A terminal rewrites the line in place; a log gets one line per redraw.
void print_line(std::FILE* out, bool interactive, const std::string& line) {
  if (interactive) {
    fmt::print(out, "\r{}\x1b[K", line);
  } else {
    fmt::print(out, "{}\n", line);
  }
  std::fflush(out);
}

void erase_line(std::FILE* out, bool interactive) {
  if (!interactive) return;
  fmt::print(out, "\r\x1b[K");
  std::fflush(out);
}

}  // namespace

std::string format_wall_duration(double seconds) {
  const auto total = static_cast<long long>(std::llround(std::max(0.0, seconds)));
  const long long hours = total / 3600;
  const long long minutes = total % 3600 / 60;
  const long long secs = total % 60;
  if (hours > 0) return fmt::format("{}:{:02}:{:02}", hours, minutes, secs);
  return fmt::format("{:02}:{:02}", minutes, secs);
}

std::string format_progress(const ProgressState& s) {
  const std::size_t total = s.methods * s.requests_per_method;
  const std::size_t done = s.method_index * s.requests_per_method + s.done_in_method;
  const std::string left =
      done == 0 ? std::string("--:--")
                : format_wall_duration(s.elapsed_s * static_cast<double>(total - done) /
                                       static_cast<double>(done));
  return fmt::format("{} ({}/{})  {}/{} requests  sim {:.1f} s  {} elapsed, {} left", s.method,
                     s.method_index + 1, s.methods, s.done_in_method, s.requests_per_method,
                     s.simulated_s, format_wall_duration(s.elapsed_s), left);
}

bool progress_wanted(bool forced, bool quiet) {
  return forced || (!quiet && isatty(STDERR_FILENO) == 1);
}

RunProgress::RunProgress(bool enabled, std::size_t methods, std::size_t requests_per_method,
                         std::FILE* out, Clock::duration interval)
    : enabled_(enabled),
      interactive_(enabled && isatty(fileno(out)) == 1),
      out_(out),
      interval_(interval),
      started_(Clock::now()),
      last_drawn_(started_) {
  state_.methods = methods;
  state_.requests_per_method = requests_per_method;
}

RunProgress::~RunProgress() { finish(); }

void RunProgress::attach(Simulator& sim, std::size_t method_index, const std::string& method_name) {
  if (!enabled_) return;
  state_.method = method_name;
  state_.method_index = method_index;
  state_.done_in_method = 0;
  sim.bus().subscribe<serving::RequestDone>(
      [this, &sim](const serving::RequestDone&) { on_request_done(sim); });
}

void RunProgress::on_request_done(const Simulator& sim) {
  ++state_.done_in_method;
  const Clock::time_point now = Clock::now();
  if (now - last_drawn_ < interval_) return;
  state_.simulated_s = sim.now().seconds();
  draw(now);
}

void RunProgress::draw(Clock::time_point now) {
  last_drawn_ = now;
  state_.elapsed_s = std::chrono::duration<double>(now - started_).count();
  print_line(out_, interactive_, format_progress(state_));
  drawn_ = true;
}

void RunProgress::finish() {
  if (drawn_) erase_line(out_, interactive_);
  drawn_ = false;
}

CountProgress::CountProgress(bool enabled, std::string what, std::FILE* out, Clock::duration interval)
    : enabled_(enabled),
      interactive_(enabled && isatty(fileno(out)) == 1),
      what_(std::move(what)),
      out_(out),
      interval_(interval),
      started_(Clock::now()),
      last_drawn_(started_) {}

CountProgress::~CountProgress() { finish(); }

void CountProgress::update(std::size_t done, std::size_t total) {
  const Clock::time_point now = Clock::now();
  if (!enabled_ || (now - last_drawn_ < interval_ && done < total)) return;
  last_drawn_ = now;
  const double elapsed = std::chrono::duration<double>(now - started_).count();
  const std::string left =
      done == 0 ? "--:--" : format_wall_duration(elapsed * static_cast<double>(total - done) / static_cast<double>(done));
  print_line(out_, interactive_, fmt::format("{} {}/{}  {} elapsed, {} left", what_, done, total,
                                             format_wall_duration(elapsed), left));
  drawn_ = true;
}

void CountProgress::finish() {
  if (drawn_) erase_line(out_, interactive_);
  drawn_ = false;
}

}  // namespace lynxsim::app
