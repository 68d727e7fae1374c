#pragma once
// What a trace keeps: a window of simulated time, a set of request ids and a set of methods
// (`--trace-window`, `--trace-requests`, `--trace-methods`; each absent = everything).
//
//   window START:END   seconds of simulated time, START < END, END optional ("300:" = from 300 s
//                      on); a span is kept when it overlaps [START, END), an instant or counter
//                      value when START <= t < END
//   requests LIST      comma-separated ids and inclusive ranges ("0-99,150,200-210"); an event of
//                      one request is kept when its id is listed, a batch step or prefill pass when
//                      it holds a listed request; counters (cluster state) are not filtered by it
//   methods LIST       comma-separated method names of the scenario
//   links N            link utilisation counters of the N busiest links only (mean utilisation
//                      inside the window; 0 = every link that carried traffic)
// parse_trace_filter throws InputError naming the flag and what is wrong with its value.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/time.hpp"

namespace lynxsim::app {

struct TraceFilterText {
  std::optional<std::string> window;
  std::optional<std::string> requests;
  std::optional<std::string> methods;
  std::int64_t links = 0;
};

class TraceFilter {
public:
  TraceFilter() = default;

  bool keeps_span(Time start, Time end) const;
  bool keeps_time(Time at) const { return at >= window_start_ && (!window_end_ || at < *window_end_); }
  bool keeps_request(std::uint64_t id) const;
  bool keeps_any(const std::vector<std::uint64_t>& ids) const;
  bool keeps_method(const std::string& name) const;
  bool has_window() const { return window_start_ > Time::zero() || window_end_.has_value(); }
  bool filters_requests() const { return !requests_.empty(); }
  Time window_start() const { return window_start_; }
  // The part of [from, to) inside the window.
  Time overlap(Time from, Time to) const;
  std::int64_t busiest_links() const { return links_; }
  const std::vector<std::string>& methods() const { return methods_; }

  friend TraceFilter parse_trace_filter(const TraceFilterText& text);

private:
  Time window_start_ = Time::zero();
  std::optional<Time> window_end_;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> requests_;
  std::vector<std::string> methods_;
  std::int64_t links_ = 0;
};

TraceFilter parse_trace_filter(const TraceFilterText& text);

// Throws InputError when a name in `traced` (--trace-methods) is not one of `methods`.
void check_trace_methods(const std::vector<std::string>& traced,
                         const std::vector<std::string>& methods);

}  // namespace lynxsim::app
