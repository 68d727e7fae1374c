#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "net_test_util.hpp"
#include "sim/scenario/flow_list_file.hpp"
#include "sim/net/flow_list_run.hpp"
#include "sim/scenario/scenario_error.hpp"

using namespace lynxsim;
using namespace lynxsim::net;
using namespace lynxsim::scenario;
using lynxsim::net::test::single_link;

namespace {

std::string message_of(const auto& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("flow list CSV: columns by name, units in cells or in the header") {
  const auto flows = parse_flow_list_csv(
      "start_s,src,dst,size_B,class,label\n"
      "0.5,prefill,decode,1000,1,a\n"
      "\n"
      "1e-3,decode,prefill,250,0,b\r\n",
      "f.csv");
  REQUIRE(flows.size() == 2);
  CHECK(flows[0].start == Time::from_ms(500));
  CHECK(flows[0].size.value == 1000);
  CHECK(flows[0].priority_class == 1);
  CHECK(flows[0].label == "a");
  CHECK(flows[1].src == "decode");
  CHECK(flows[1].start == Time::from_ms(1));
  CHECK(flows[1].where == "f.csv:4");
  const auto units = parse_flow_list_csv("src,dst,size,start\nprefill,decode,1MB,2ms\n", "u.csv");
  CHECK(units[0].size.value == 1'000'000);
  CHECK(units[0].start == Time::from_ms(2));
  CHECK(units[0].weight == 1.0);
}

TEST_CASE("flow list CSV errors name the file and line") {
  CHECK(message_of([] { parse_flow_list_csv("src,dst,size,start\nprefill,decode,1000,0s\n", "f.csv"); })
            .starts_with("f.csv:2: "));
  CHECK(message_of([] { parse_flow_list_csv("src,dst,size\n", "f.csv"); }) ==
        "f.csv:1: missing column \"start\"");
  CHECK(message_of([] { parse_flow_list_csv("src,dst,size,start,prio\n", "f.csv"); })
            .starts_with("f.csv:1: unknown column \"prio\""));
  CHECK(message_of([] { parse_flow_list_csv("src,dst,size,start\np,d,1B\n", "f.csv"); }) ==
        "f.csv:2: expected 4 cells, found 3");
  CHECK(message_of([] {
          parse_flow_list_csv("src,dst,size,start,class\np,d,1B,0s,x\n", "f.csv");
        }).starts_with("f.csv:2: class \"x\" is not a number"));
  CHECK(message_of([] { parse_flow_list_csv("", "f.csv"); }) == "f.csv: expected a header line");
}

TEST_CASE("flow list JSON: every error with its path") {
  const auto flows = parse_flow_list_json(
      nlohmann::json::parse(R"({"flows": [{"src": "prefill", "dst": "decode", "size": "2kB",
                                           "start": "1us", "class": 2, "weight": 0.5}]})"),
      "f.json");
  REQUIRE(flows.size() == 1);
  CHECK(flows[0].size.value == 2000);
  CHECK(flows[0].start == Time::from_us(1));
  CHECK(flows[0].priority_class == 2);
  CHECK(flows[0].weight == 0.5);
  CHECK(flows[0].where == "f.json: /flows/0");
  const std::string m = message_of([] {
    parse_flow_list_json(nlohmann::json::parse(R"({"flows": [{"src": "prefill", "size": 5,
                                                              "start": "1us", "colour": 1}]})"),
                         "f.json");
  });
  CHECK(m == "f.json: /flows/0/dst: missing field\n"
             "f.json: /flows/0/size: expected a size like \"64GiB\", got 5\n"
             "f.json: /flows/0/colour: unknown key");
  CHECK(message_of([] { parse_flow_list_json(nlohmann::json::parse("[]"), "f.json"); }) ==
        "f.json: /: expected an object, got an array");
  CHECK(message_of([] {
          parse_flow_list_json(nlohmann::json::parse(R"({"flows": {}, "x": 1})"), "f.json");
        }) == "f.json: /flows: expected an array of flows, got an object\nf.json: /x: unknown key");
  CHECK_THROWS_AS(parse_flow_list_json(nlohmann::json::parse("[]"), "f.json"), ScenarioError);
}

TEST_CASE("run_flow_list: completion = start + setup + bytes / goodput + latency, in list order") {
  const NetworkSpec spec = single_link(8, 5, 0.5, Time::from_us(10));  // 0.5 GB/s goodput
  auto flows = parse_flow_list_csv("src,dst,size_B,start_s\n"
                                   "prefill,decode,1000000,0.01\n"
                                   "prefill,decode,500000,0\n",
                                   "f.csv");
  const auto results = run_flow_list(spec, flows, 1, "f.csv");
  REQUIRE(results.size() == 2);
  CHECK(results[1].record.finished_at.seconds() == doctest::Approx(10e-6 + 1e-3 + 5e-6).epsilon(1e-12));
  CHECK(results[0].record.started_at == Time::from_ms(10));
  CHECK(results[0].record.finished_at.seconds() ==
        doctest::Approx(0.01 + 10e-6 + 2e-3 + 5e-6).epsilon(1e-12));
  CHECK(results[0].route.size() == 1);
  flows[0].dst = "nowhere";
  CHECK(message_of([&] { run_flow_list(spec, flows, 1, "f.csv"); }).starts_with("f.csv:2: "));
  flows[0].dst = "prefill";
  CHECK(message_of([&] { run_flow_list(spec, flows, 1, "f.csv"); }) ==
        "f.csv:2: source and destination are the same host");
}

TEST_CASE("flow list files: syntax errors and unreadable files name the file") {
  const std::filesystem::path dir = std::filesystem::path(LYNXSIM_BINARY_DIR) / "test_flow_list";
  std::filesystem::create_directories(dir);
  const std::string bad = (dir / "bad.json").string();
  std::ofstream(bad) << "{\"flows\": [\n  {\"src\": \"a\", \"src\": \"b\"}\n]}";
  CHECK(message_of([&] { load_flow_list(bad); }).starts_with(bad + ": /flows/0/src: duplicate key \"src\""));
  const std::string broken = (dir / "broken.json").string();
  std::ofstream(broken) << "{\"flows\": [\n  {\"src\": }\n]}";
  CHECK(message_of([&] { load_flow_list(broken); }).starts_with(broken + ": /: JSON syntax error at line 2"));
  const std::string absent = (dir / "absent.json").string();
  CHECK(message_of([&] { load_flow_list(absent); }).find(absent) != std::string::npos);
}
