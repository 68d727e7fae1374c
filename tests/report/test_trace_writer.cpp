#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "sim/report/trace_writer.hpp"

using namespace lynxsim;
using namespace lynxsim::report;

TEST_CASE("trace events follow the Chrome trace-event format in microseconds") {
  TraceWriter trace;
  trace.set_process_name(1, "prefill", 0);
  trace.set_thread_name(1, 7, "request 7");
  trace.complete_event("layer 0", "prefill", 1, 7, Time::from_us(10.0), Time::from_ps(2'500'000),
                       {{"layer", 0}});
  trace.instant("first token", "decode", 3, 7, Time::from_ms(2.0));
  trace.counter("link load", 2, Time::from_us(5.0), {{"anchor", 1.5}});
  const auto j = nlohmann::json::parse(trace.to_string());
  CHECK(j.at("displayTimeUnit") == "ms");
  const auto& events = j.at("traceEvents");
  REQUIRE(events.size() == 6);
  CHECK(events[0].at("ph") == "M");
  CHECK(events[0].at("args").at("name") == "prefill");
  CHECK(events[1].at("name") == "process_sort_index");
  CHECK(events[2].at("name") == "thread_name");
  const auto& span = events[3];
  CHECK(span.at("ph") == "X");
  CHECK(span.at("ts").get<double>() == doctest::Approx(10.0));
  CHECK(span.at("dur").get<double>() == doctest::Approx(2.5));
  CHECK(span.at("tid") == 7);
  CHECK(span.at("args").at("layer") == 0);
  CHECK(events[4].at("ph") == "i");
  CHECK(events[4].at("ts").get<double>() == doctest::Approx(2000.0));
  CHECK(events[5].at("ph") == "C");
  CHECK(events[5].at("args").at("anchor").get<double>() == doctest::Approx(1.5));
}

TEST_CASE("trace timestamps are whole nanoseconds, rounded down") {
  CHECK(trace_microseconds(Time::from_ps(1)) == 0.0);
  CHECK(trace_microseconds(Time::from_ps(1999)) == 0.001);
  CHECK(trace_microseconds(Time::from_seconds(1.0)) == 1e6);
  CHECK(trace_microseconds(Time::from_ps(1'234'567'999)) == 1234.567);
}

TEST_CASE("back-to-back spans do not overlap after rounding") {
  TraceWriter trace;
  const Time a = Time::from_ps(1'000'900);
  const Time b = Time::from_ps(2'000'400);
  trace.complete_event("first", "x", 1, 0, a, b - a);
  trace.complete_event("second", "x", 1, 0, b, Time::from_ps(1'000'000));
  const auto events = trace.to_json().at("traceEvents");
  const double end = events[0].at("ts").get<double>() + events[0].at("dur").get<double>();
  CHECK(events[0].at("ts").get<double>() == 1.0);
  CHECK(events[0].at("dur").get<double>() == 1.0);
  CHECK(end <= events[1].at("ts").get<double>());
  CHECK(trace.to_string().find("\"dur\":1.0,") != std::string::npos);
}

TEST_CASE("the trace text is the JSON document's compact dump") {
  TraceWriter trace;
  trace.set_process_name(1, "prefill", 0);
  trace.complete_event("layer 0", "prefill", 1, 7, Time::from_us(10.0), Time::from_us(1.0),
                       {{"request", 7}});
  trace.counter("class 0 Gb/s", 2, Time::from_us(5.0), {{"rate", 2.5}});
  CHECK(trace.to_string() == nlohmann::json::parse(trace.to_string()).dump() + "\n");
  CHECK(nlohmann::json::parse(trace.to_string()).count("otherData") == 0);
}

TEST_CASE("a trace keeps its first event_limit events and says it was truncated") {
  TraceWriter trace(3);
  trace.set_process_name(1, "decode");
  for (int i = 0; i < 10; ++i) {
    trace.instant("tick", "test", 1, 0, Time::from_us(static_cast<double>(i)), {{"i", i}});
  }
  CHECK(trace.num_events() == 3);
  CHECK(trace.dropped_events() == 7);
  const auto j = nlohmann::json::parse(trace.to_string());
  CHECK(j.at("otherData").at("truncated") == true);
  CHECK(j.at("otherData").at("event_limit") == 3);
  CHECK(j.at("otherData").at("dropped_events") == 7);
  const auto& events = j.at("traceEvents");
  REQUIRE(events.size() == 1 + 3 + 1);
  CHECK(events[3].at("args").at("i") == 2);
  const auto& marker = events.back();
  CHECK(marker.at("name") == "trace truncated");
  CHECK(marker.at("ts").get<double>() == doctest::Approx(3.0));
  CHECK(marker.at("args").at("dropped_events") == 7);
}

TEST_CASE("added threads get thread ids unique over the trace, with their names") {
  TraceWriter trace;
  const int a = trace.add_thread(1, "compute", 0);
  const int b = trace.add_thread(2, "compute", 0);
  const int c = trace.add_thread(1, "anchor", 3000);
  CHECK(a != b);
  CHECK(b != c);
  CHECK(a != c);
  const auto events = trace.to_json().at("traceEvents");
  REQUIRE(events.size() == 6);
  CHECK(events[2].at("name") == "thread_name");
  CHECK(events[2].at("pid") == 2);
  CHECK(events[2].at("tid") == b);
  CHECK(events[2].at("args").at("name") == "compute");
  CHECK(events[5].at("args").at("sort_index") == 3000);
}
