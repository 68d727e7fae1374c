#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "sim/scenario/network_fields.hpp"
#include "sim/scenario/topology_json.hpp"

using namespace lynxsim;
using namespace lynxsim::scenario;

namespace {

nlohmann::json resolved_of(const nlohmann::json& network) {
  nlohmann::json resolved;
  (void)parse_network(network, "/network", ".", {}, &resolved);
  return resolved;
}

}  // namespace

TEST_CASE("a network's resolved form holds every default of its tables and keeps written values") {
  const auto j = nlohmann::json::parse(R"({"topology": {"kind": "fat-tree", "k": 4,
    "link": {"rate": "9.3Gbps", "latency": "1us"}},
    "background": [{"src": "pod0.edge0.h0", "dst": "pod1.edge0.h0", "rate": "1Gbps", "stop_at": "1s"}]})");
  const nlohmann::json r = resolved_of(j);
  CHECK(r.at("rate_tolerance") == 1e-9);
  CHECK(r.at("rate_quantum") == "0s");
  CHECK(r.at("setup_time") == "0s");
  CHECK(r.at("topology").at("link").at("rate") == "9.3Gbps");
  CHECK(r.at("topology").at("link").at("efficiency") == 1.0);
  CHECK(r.at("scheduling").at("policy") == "request_order");
  CHECK(r.at("scheduling").at("classes") == 8);
  const auto& bg = r.at("background").at(0);
  CHECK(bg.at("priority_class") == 1000);
  CHECK(bg.at("label") == "background");
  CHECK(bg.at("off_time") == "0s");
  CHECK_FALSE(bg.contains("on_time"));
  const nlohmann::json again = resolved_of(r);
  CHECK(again == r);
}

TEST_CASE("every network table key is read: a full object of each kind resolves without issues") {
  for (const char* text : {
           R"({"kind": "single-link", "link": {"rate": "1Gbps", "latency": "0s", "efficiency": 0.5}})",
           R"({"kind": "leaf-spine", "leaves": 2, "hosts_per_leaf": 2, "spines": 1,
               "host_link": {"rate": "1Gbps", "latency": "1us"}, "oversubscription": 2,
               "uplink_latency": "1us", "uplink_efficiency": 0.9})",
           R"({"kind": "cross-dc", "hosts_per_site": 2, "host_link": {"rate": "1Gbps", "latency": "1us"},
               "wan": {"rate": "1Gbps", "rtt": "2ms", "efficiency": 0.9}})",
           R"({"kind": "nvlink-island", "gpus": 4, "nvlink": {"rate": "900GB/s", "latency": "1us"}})",
           R"({"kind": "graph", "hosts": ["a", "b"], "switches": ["s"], "links": [
               {"a": "a", "b": "s", "rate": "1Gbps", "latency": "1us", "name": "up"},
               {"a": "s", "b": "b", "rate": "1Gbps", "latency": "1us"}]})"}) {
    CAPTURE(text);
    nlohmann::json resolved;
    CHECK_NOTHROW(parse_topology(nlohmann::json::parse(text), "/t", {}, &resolved));
    CHECK(resolved.contains("kind"));
  }
}

TEST_CASE("a leaf-spine needs exactly one of uplink and oversubscription") {
  const auto base = nlohmann::json::parse(R"({"kind": "leaf-spine", "leaves": 2, "hosts_per_leaf": 2,
    "spines": 1, "host_link": {"rate": "1Gbps", "latency": "1us"}})");
  CHECK_THROWS_AS(parse_topology(base, "/t"), NetConfigError);
  nlohmann::json both = base;
  both["uplink"] = {{"rate", "1Gbps"}, {"latency", "1us"}};
  both["oversubscription"] = 2;
  both["uplink_latency"] = "1us";
  try {
    parse_topology(both, "/t");
    FAIL("expected an error");
  } catch (const NetConfigError& e) {
    REQUIRE(e.issues().size() == 1);
    CHECK(e.issues()[0].json_path == "/t/uplink");
  }
}
