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
  const std::string text = format_network_bench(r);
  CHECK(text.find("500 arrivals") != std::string::npos);
  CHECK(text.find("rate tolerance       0.01\n") != std::string::npos);
  CHECK(text.find("rate quantum         0 (every change)") != std::string::npos);
  CHECK(r.mean_fct_ms > 0.0);
}

TEST_CASE("full-size network benchmark" * doctest::skip(std::getenv("LYNXSIM_NET_BENCH") == nullptr)) {
  const auto r = run_network_bench({});
  std::cout << format_network_bench(r);
  CHECK(r.bytes_conserved);
}
