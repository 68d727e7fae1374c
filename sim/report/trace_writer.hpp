#pragma once
// A Chrome trace-event file (trace.json) that opens in Perfetto and chrome://tracing.
//
// The writer is generic: whoever observes the simulation calls it with spans and instants; it
// knows nothing of serving or networks. Format (the "JSON object format" of the trace-event spec):
//   {"displayTimeUnit": "ms", "traceEvents": [...]}
//   complete event  {"ph": "X", "name", "cat", "pid", "tid", "ts", "dur", "args"}
//   instant event   {"ph": "i", "s": "t", "name", "cat", "pid", "tid", "ts", "args"}
//   counter event   {"ph": "C", "name", "pid", "ts", "args": {series: value}}
//   metadata        {"ph": "M", "name": "process_name" | "thread_name", "pid", "tid",
//                    "args": {"name": ...}} and "process_sort_index" / "thread_sort_index"
// ts and dur are microseconds with three decimals: the simulator's picoseconds rounded down to whole
// nanoseconds (Perfetto's resolution), and dur = floor(end) - floor(start), so spans that do not
// overlap in the simulation do not overlap in the file either. Events are written in the order
// they were recorded (deterministic for a deterministic run), metadata first. The lynxsim layout of
// processes and threads (one per GPU instance and stream) is described in docs/scenario.md,
// section "Trace", and in sim/app/trace_observer.hpp.
//
// Bounded size: events are kept as their compact JSON text (80 to 200 bytes each, in one buffer),
// and at most `event_limit` events (metadata aside) are kept. Later events are counted, not kept; the file then
// ends with an instant "trace truncated" (global scope, pid 0, at the time of the first event
// dropped, args: event_limit, dropped_events) and carries
// "otherData": {"truncated": true, "event_limit": N, "dropped_events": D}, so a truncated trace
// always says so.

#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/core/time.hpp"

namespace lynxsim::report {

struct TraceSpan {
  std::string name;
  std::string category;
  int pid = 0;
  int tid = 0;
  Time start_at;
  Time duration;
  nlohmann::json args = nlohmann::json::object();
};

class TraceWriter {
public:
  explicit TraceWriter(std::size_t event_limit = std::numeric_limits<std::size_t>::max())
      : event_limit_(event_limit) {}

  void complete_event(std::string name, std::string category, int pid, int tid, Time start_at,
                      Time duration, nlohmann::json args = nlohmann::json::object());
  void complete_event(const TraceSpan& span);
  void instant(std::string name, std::string category, int pid, int tid, Time at,
               nlohmann::json args = nlohmann::json::object());
  void counter(std::string name, int pid, Time at, const std::map<std::string, double>& series);
  void set_process_name(int pid, const std::string& name, int sort_index = -1);
  void set_thread_name(int pid, int tid, const std::string& name, int sort_index = -1);
  // A new named thread of process `pid`, with a thread id no other thread of the trace has
  // (Perfetto's JSON importer finds the thread a name belongs to by its tid alone).
  int add_thread(int pid, const std::string& name, int sort_index = -1);

  std::size_t num_events() const { return kept_; }
  std::size_t event_limit() const { return event_limit_; }
  std::size_t dropped_events() const { return dropped_; }
  // The file's text in three parts (the kept events in the middle, not copied).
  struct Text {
    std::string head;
    std::string_view events;
    std::string tail;
  };
  Text text() const;
  nlohmann::json to_json() const;
  std::string to_string() const;
  // Atomic write (see atomic_write.hpp).
  void write(const std::filesystem::path& file) const;

private:
  void record(const nlohmann::json& event);

  std::size_t event_limit_;
  int next_tid_ = 1;
  std::size_t kept_ = 0;
  std::size_t dropped_ = 0;
  double first_dropped_ts_ = 0.0;
  std::vector<std::string> metadata_;
  std::string events_;  // the kept events' texts, comma-separated
};

// Microseconds of a Time, as the trace format wants them.
double trace_microseconds(Time t);

}  // namespace lynxsim::report
