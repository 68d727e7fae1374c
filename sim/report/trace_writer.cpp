#include "sim/report/trace_writer.hpp"

#include "sim/report/atomic_write.hpp"

namespace lynxsim::report {
namespace {

nlohmann::json metadata_event(const char* name, int pid, int tid, nlohmann::json args) {
  return {{"ph", "M"}, {"name", name}, {"pid", pid}, {"tid", tid}, {"args", std::move(args)}};
}

}  // namespace

double trace_microseconds(Time t) { return static_cast<double>(t.ps()) / 1e6; }

void TraceWriter::complete_event(std::string name, std::string category, int pid, int tid,
                                 Time start_at, Time duration, nlohmann::json args) {
  events_.push_back({{"ph", "X"},
                     {"name", std::move(name)},
                     {"cat", std::move(category)},
                     {"pid", pid},
                     {"tid", tid},
                     {"ts", trace_microseconds(start_at)},
                     {"dur", trace_microseconds(duration)},
                     {"args", std::move(args)}});
}

void TraceWriter::complete_event(const TraceSpan& span) {
  complete_event(span.name, span.category, span.pid, span.tid, span.start_at, span.duration,
                 span.args);
}

void TraceWriter::instant(std::string name, std::string category, int pid, int tid, Time at,
                          nlohmann::json args) {
  events_.push_back({{"ph", "i"},
                     {"s", "t"},
                     {"name", std::move(name)},
                     {"cat", std::move(category)},
                     {"pid", pid},
                     {"tid", tid},
                     {"ts", trace_microseconds(at)},
                     {"args", std::move(args)}});
}

void TraceWriter::counter(std::string name, int pid, Time at,
                          const std::map<std::string, double>& series) {
  nlohmann::json args = nlohmann::json::object();
  for (const auto& [key, value] : series) args[key] = value;
  events_.push_back({{"ph", "C"},
                     {"name", std::move(name)},
                     {"pid", pid},
                     {"ts", trace_microseconds(at)},
                     {"args", std::move(args)}});
}

void TraceWriter::set_process_name(int pid, const std::string& name, int sort_index) {
  metadata_.push_back(metadata_event("process_name", pid, 0, {{"name", name}}));
  if (sort_index >= 0) {
    metadata_.push_back(metadata_event("process_sort_index", pid, 0, {{"sort_index", sort_index}}));
  }
}

void TraceWriter::set_thread_name(int pid, int tid, const std::string& name, int sort_index) {
  metadata_.push_back(metadata_event("thread_name", pid, tid, {{"name", name}}));
  if (sort_index >= 0) {
    metadata_.push_back(metadata_event("thread_sort_index", pid, tid, {{"sort_index", sort_index}}));
  }
}

nlohmann::json TraceWriter::to_json() const {
  nlohmann::json events = nlohmann::json::array();
  for (const auto& e : metadata_) events.push_back(e);
  for (const auto& e : events_) events.push_back(e);
  return {{"displayTimeUnit", "ms"}, {"traceEvents", std::move(events)}};
}

std::string TraceWriter::to_string() const { return to_json().dump() + "\n"; }

void TraceWriter::write(const std::filesystem::path& file) const {
  write_file_atomic(file, to_string());
}

}  // namespace lynxsim::report
