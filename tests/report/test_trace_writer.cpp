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

TEST_CASE("picosecond steps survive in trace timestamps") {
  CHECK(trace_microseconds(Time::from_ps(1)) == doctest::Approx(1e-6));
  CHECK(trace_microseconds(Time::from_seconds(1.0)) == doctest::Approx(1e6));
}
