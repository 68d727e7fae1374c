#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

#include "sim/app/run_progress.hpp"
#include "sim/serving/serving_events.hpp"

namespace lynxsim::app {

TEST_CASE("wall durations print as MM:SS below an hour and H:MM:SS above") {
  CHECK(format_wall_duration(0.0) == "00:00");
  CHECK(format_wall_duration(61.4) == "01:01");
  CHECK(format_wall_duration(3599.0) == "59:59");
  CHECK(format_wall_duration(3600.0 + 120.0 + 5.0) == "1:02:05");
  CHECK(format_wall_duration(-3.0) == "00:00");
}

TEST_CASE("the estimate is linear in the requests finished over all methods") {
  ProgressState s;
  s.method = "lynx";
  s.method_index = 1;
  s.methods = 4;
  s.requests_per_method = 100;
  s.done_in_method = 60;
  s.simulated_s = 12.34;
  s.elapsed_s = 32.0;
  // 160 of 400 requests in 32 s: 240 left take 48 s.
  CHECK(format_progress(s) == "lynx (2/4)  60/100 requests  sim 12.3 s  00:32 elapsed, 00:48 left");
  s.method_index = 0;
  s.done_in_method = 0;
  s.elapsed_s = 5.0;
  CHECK(format_progress(s) == "lynx (1/4)  0/100 requests  sim 12.3 s  00:05 elapsed, --:-- left");
}

TEST_CASE("a disabled reporter writes nothing") {
  std::FILE* out = std::tmpfile();
  REQUIRE(out != nullptr);
  {
    RunProgress progress(false, 2, 10, out, std::chrono::milliseconds(0));
    Simulator sim(1);
    progress.attach(sim, 0, "int8");
    progress.finish();
  }
  CHECK(std::ftell(out) == 0);
  std::fclose(out);
}

std::string read_all(std::FILE* file) {
  std::rewind(file);
  std::string text;
  for (int c = std::fgetc(file); c != EOF; c = std::fgetc(file)) text.push_back(static_cast<char>(c));
  return text;
}

TEST_CASE("forced onto a file, the reporter writes one plain line per redraw") {
  std::FILE* out = std::tmpfile();
  REQUIRE(out != nullptr);
  {
    RunProgress progress(true, 1, 2, out, std::chrono::milliseconds(0));
    Simulator sim(1);
    progress.attach(sim, 0, "int8");
    sim.bus().publish(serving::RequestDone{0, Time::zero(), Time::zero(), Time::zero()});
    sim.bus().publish(serving::RequestDone{1, Time::zero(), Time::zero(), Time::zero()});
  }
  const std::string text = read_all(out);
  CHECK(text.find('\r') == std::string::npos);
  CHECK(text.find("int8 (1/1)  1/2 requests") != std::string::npos);
  CHECK(text.find("int8 (1/1)  2/2 requests") != std::string::npos);
  CHECK(text.find("00:00 left") != std::string::npos);
  std::fclose(out);
}

}  // namespace lynxsim::app

namespace lynxsim::app {

TEST_CASE("a count progress line names its work, the count and the time left; a log gets one line each") {
  std::FILE* out = std::tmpfile();
  REQUIRE(out != nullptr);
  {
    CountProgress progress(true, "accuracy: KV blocks", out, std::chrono::milliseconds(0));
    progress.update(1, 4);
    progress.update(4, 4);
  }
  const std::string text = read_all(out);
  std::fclose(out);
  CHECK(text.find("accuracy: KV blocks 1/4  00:00 elapsed, 00:00 left\n") == 0);
  CHECK(text.find("accuracy: KV blocks 4/4") != std::string::npos);
  CHECK(std::count(text.begin(), text.end(), '\n') == 2);
}

TEST_CASE("a disabled count progress prints nothing") {
  std::FILE* out = std::tmpfile();
  REQUIRE(out != nullptr);
  {
    CountProgress progress(false, "x", out, std::chrono::milliseconds(0));
    progress.update(1, 2);
  }
  CHECK(std::ftell(out) == 0);
  std::fclose(out);
}

}  // namespace lynxsim::app
