#include <doctest/doctest.h>

#include <string>

#include "sim/app/input_errors.hpp"
#include "sim/app/trace_filter.hpp"

using namespace lynxsim;
using app::parse_trace_filter;
using app::TraceFilterText;

namespace {

std::string refusal(const TraceFilterText& text) {
  try {
    (void)parse_trace_filter(text);
  } catch (const app::InputError& e) {
    return e.what();
  }
  return "accepted";
}

}  // namespace

TEST_CASE("no filter keeps everything") {
  const app::TraceFilter f = parse_trace_filter({});
  CHECK(f.keeps_span(Time::zero(), Time::from_seconds(1e5)));
  CHECK(f.keeps_time(Time::from_seconds(1e5)));
  CHECK(f.keeps_request(123456789));
  CHECK(f.keeps_method("lynx"));
  CHECK_FALSE(f.has_window());
  CHECK_FALSE(f.filters_requests());
}

TEST_CASE("a window keeps spans that overlap [START, END) and instants inside it") {
  TraceFilterText text;
  text.window = "1.5:3";
  const app::TraceFilter f = parse_trace_filter(text);
  const auto s = [](double x) { return Time::from_seconds(x); };
  CHECK(f.has_window());
  CHECK(f.keeps_span(s(1), s(2)));
  CHECK(f.keeps_span(s(2.9), s(10)));
  CHECK_FALSE(f.keeps_span(s(1), s(1.5)));
  CHECK_FALSE(f.keeps_span(s(3), s(4)));
  CHECK(f.keeps_span(s(1.5), s(1.5)));
  CHECK(f.keeps_time(s(1.5)));
  CHECK_FALSE(f.keeps_time(s(3)));
  CHECK(f.overlap(s(1), s(2)) == s(0.5));
  CHECK(f.overlap(s(3), s(4)) == Time::zero());
}

TEST_CASE("an open window runs to the end") {
  TraceFilterText text;
  text.window = "10:";
  const app::TraceFilter f = parse_trace_filter(text);
  CHECK(f.keeps_time(Time::from_seconds(1e6)));
  CHECK_FALSE(f.keeps_time(Time::from_seconds(9.999)));
}

TEST_CASE("request lists take ids and inclusive ranges") {
  TraceFilterText text;
  text.requests = "7,0-2,10-10";
  const app::TraceFilter f = parse_trace_filter(text);
  CHECK(f.filters_requests());
  for (const std::uint64_t id : {0, 1, 2, 7, 10}) CHECK(f.keeps_request(id));
  for (const std::uint64_t id : {3, 6, 8, 11}) CHECK_FALSE(f.keeps_request(id));
  CHECK(f.keeps_any({4, 5, 7}));
  CHECK_FALSE(f.keeps_any({4, 5}));
}

TEST_CASE("bad filter values are refused, naming the flag") {
  const auto window = [](const char* w) {
    TraceFilterText t;
    t.window = w;
    return refusal(t);
  };
  const auto requests = [](const char* r) {
    TraceFilterText t;
    t.requests = r;
    return refusal(t);
  };
  CHECK(window("5").find("--trace-window 5: expected START:END") == 0);
  CHECK(window("2:1").find("END must be after START") != std::string::npos);
  CHECK(window("1:1").find("END must be after START") != std::string::npos);
  CHECK(window("-1:2").find("is not a number of seconds") != std::string::npos);
  CHECK(window("1s:2s").find("\"1s\" is not a number of seconds") != std::string::npos);
  CHECK(window("0:1e9").find("between 0 and") != std::string::npos);
  CHECK(window(":").find("--trace-window") == 0);
  CHECK(requests("1-2-3").find("--trace-requests 1-2-3") == 0);
  CHECK(requests("5-2").find("range 5-2 ends before it starts") != std::string::npos);
  CHECK(requests("1,,2").find("\"\" is not a request id") != std::string::npos);
  CHECK(requests("-3").find("is not a request id") != std::string::npos);
  TraceFilterText methods;
  methods.methods = "int8,";
  CHECK(refusal(methods).find("--trace-methods int8,: empty method name") == 0);
}

TEST_CASE("trace methods must be the scenario's") {
  CHECK_NOTHROW(app::check_trace_methods({"lynx"}, {"int8", "lynx"}));
  CHECK_THROWS_WITH_AS(app::check_trace_methods({"lynx4"}, {"int8", "lynx"}),
                       "--trace-methods: the scenario has no method \"lynx4\" (its methods: int8, lynx)",
                       app::InputError);
}
