#include <doctest/doctest.h>

#include <cstdlib>
#include <iostream>

#include "sim/net/network_bench.hpp"

using namespace lynxsim::net;

TEST_CASE("the network benchmark runs a small fat-tree and conserves bytes") {
  NetworkBenchConfig config;
  config.fat_tree_k = 4;
  config.concurrent = 50;
  config.arrivals = 500;
  const auto r = run_network_bench(config);
  CHECK(r.hosts == 16);
  CHECK(r.flows_finished == 500);
  CHECK(r.bytes_conserved);
  CHECK(format_network_bench(r).find("500 arrivals") != std::string::npos);
}

TEST_CASE("full-size network benchmark" * doctest::skip(std::getenv("LYNXSIM_NET_BENCH") == nullptr)) {
  const auto r = run_network_bench({});
  std::cout << format_network_bench(r);
  CHECK(r.bytes_conserved);
}
