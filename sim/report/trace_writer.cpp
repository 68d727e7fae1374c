#include "sim/report/trace_writer.hpp"

#include "sim/report/atomic_write.hpp"

namespace lynxsim::report {
namespace {

std::string metadata_event(const char* name, int pid, int tid, nlohmann::json args) {
  return nlohmann::json{{"ph", "M"}, {"name", name}, {"pid", pid}, {"tid", tid}, {"args", std::move(args)}}
      .dump();
}

}  // namespace

namespace {

std::int64_t floor_ns(Time t) { return t.ps() >= 0 ? t.ps() / 1000 : -((-t.ps() + 999) / 1000); }

}  // namespace

double trace_microseconds(Time t) { return static_cast<double>(floor_ns(t)) / 1e3; }

void TraceWriter::record(const nlohmann::json& event) {
  if (kept_ < event_limit_) {
    if (kept_++ > 0) events_ += ',';
    events_ += event.dump();
    return;
  }
  if (dropped_++ == 0) first_dropped_ts_ = event.at("ts").get<double>();
}

void TraceWriter::complete_event(std::string name, std::string category, int pid, int tid,
                                 Time start_at, Time duration, nlohmann::json args) {
  record({{"ph", "X"},
          {"name", std::move(name)},
          {"cat", std::move(category)},
          {"pid", pid},
          {"tid", tid},
          {"ts", trace_microseconds(start_at)},
          {"dur", static_cast<double>(floor_ns(start_at + duration) - floor_ns(start_at)) / 1e3},
          {"args", std::move(args)}});
}

void TraceWriter::complete_event(const TraceSpan& span) {
  complete_event(span.name, span.category, span.pid, span.tid, span.start_at, span.duration,
                 span.args);
}

void TraceWriter::instant(std::string name, std::string category, int pid, int tid, Time at,
                          nlohmann::json args) {
  record({{"ph", "i"},
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
  record({{"ph", "C"},
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

int TraceWriter::add_thread(int pid, const std::string& name, int sort_index) {
  const int tid = next_tid_++;
  set_thread_name(pid, tid, name, sort_index);
  return tid;
}

nlohmann::json TraceWriter::to_json() const { return nlohmann::json::parse(to_string()); }

// The bytes of nlohmann's dump() of {"displayTimeUnit", ["otherData",] "traceEvents"} (keys
// sorted), assembled from the kept texts without building the whole document in memory.
TraceWriter::Text TraceWriter::text() const {
  Text t;
  t.head = R"({"displayTimeUnit":"ms",)";
  if (dropped_ > 0) {
    const nlohmann::json other = {{"truncated", true}, {"event_limit", event_limit_},
                                  {"dropped_events", dropped_}};
    t.head += R"("otherData":)" + other.dump() + ",";
  }
  t.head += R"("traceEvents":[)";
  for (std::size_t i = 0; i < metadata_.size(); ++i) t.head += (i > 0 ? "," : "") + metadata_[i];
  if (!metadata_.empty() && kept_ > 0) t.head += ',';
  t.events = events_;
  if (dropped_ > 0) {
    if (!metadata_.empty() || kept_ > 0) t.tail += ',';
    t.tail += nlohmann::json{{"ph", "i"}, {"s", "g"}, {"name", "trace truncated"}, {"cat", "lynxsim"},
                             {"pid", 0}, {"tid", 0}, {"ts", first_dropped_ts_},
                             {"args", {{"event_limit", event_limit_}, {"dropped_events", dropped_}}}}
                  .dump();
  }
  t.tail += "]}\n";
  return t;
}

std::string TraceWriter::to_string() const {
  const Text t = text();
  return t.head + std::string(t.events) + t.tail;
}

void TraceWriter::write(const std::filesystem::path& file) const {
  write_file_atomic(file, to_string());
}

}  // namespace lynxsim::report
