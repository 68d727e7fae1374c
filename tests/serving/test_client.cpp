#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "serving_fixture.hpp"
#include "sim/serving/closed_loop_workload.hpp"
#include "sim/serving/serving_run.hpp"

using namespace lynxsim;
using namespace lynxsim::serving;

namespace {

// One prefill and one decode H100 (TP1) of Llama-3.1-8B on a 4-host leaf-spine, `count` requests
// of 1024 to 2048 prompt tokens and 1 to 32 output tokens, all ready at 0.
ServingConfig client_config(int count, int concurrency, Time think = Time::zero()) {
  ServingConfig c;
  c.model = test::model_card("llama-3.1-8b");
  c.prefill.gpu = test::gpu_profile("h100-sxm");
  c.decode = c.prefill;
  c.make_network = test::leaf_spine(2, 2, 100e9);
  c.layers_per_flow = 8;
  c.requests = sample_requests(count, {LengthKind::uniform, 1, 1024, 2048},
                               {LengthKind::uniform, 1, 1, 32}, 5);
  c.client = ClientSpec{concurrency, think};
  return c;
}

MethodResult run(const ServingConfig& c, const char* method = "int8") {
  return run_serving(c, quant::method_from_name(method), MethodQuality{0.8, "test", {}, 0.0});
}

// Request ids in send order (their arrived_at, ties by id).
std::vector<RequestMetrics> by_send(std::vector<RequestMetrics> requests) {
  std::stable_sort(requests.begin(), requests.end(), [](const auto& a, const auto& b) {
    return a.arrived_at < b.arrived_at;
  });
  return requests;
}

}  // namespace

TEST_CASE("a client of concurrency 1 sends each request when the one before finishes") {
  for (const Time think : {Time::zero(), Time::from_seconds(0.25)}) {
    CAPTURE(think.seconds());
    const MethodResult r = run(client_config(20, 1, think));
    REQUIRE(r.requests.size() == 20);
    CHECK(r.requests[0].arrived_at == Time::zero());
    for (std::size_t i = 1; i < r.requests.size(); ++i) {
      CHECK(r.requests[i].arrived_at == r.requests[i - 1].last_token_at + think);
    }
    CHECK(r.cluster.client_concurrency == 1);
    CHECK(r.cluster.achieved_concurrency <= 1.0 + 1e-12);
    if (think == Time::zero()) CHECK(r.cluster.achieved_concurrency == doctest::Approx(1.0));
  }
}

TEST_CASE("a client of concurrency >= N sends every request at time zero") {
  const MethodResult r = run(client_config(30, 64));
  for (const auto& m : r.requests) CHECK(m.arrived_at == Time::zero());
  const ServingConfig open = [] {
    ServingConfig c = client_config(30, 64);
    c.client.reset();
    return c;
  }();
  const MethodResult o = run(open);
  for (std::size_t i = 0; i < r.requests.size(); ++i) {
    CHECK(r.requests[i].last_token_at == o.requests[i].last_token_at);
  }
}

TEST_CASE("a capped client never has more than C requests in flight and keeps C busy") {
  const int c = 4;
  const MethodResult r = run(client_config(60, c), "lynx");
  const auto sent = by_send(r.requests);
  // Request i (send order) waits for a slot: it is sent when the (i - C)-th finish frees one.
  std::vector<Time> finishes;
  for (const auto& m : r.requests) finishes.push_back(m.last_token_at);
  std::sort(finishes.begin(), finishes.end());
  for (std::size_t i = 0; i < sent.size(); ++i) {
    const Time expected = i < static_cast<std::size_t>(c) ? Time::zero() : finishes[i - c];
    CHECK(sent[i].arrived_at == expected);
  }
  CHECK(r.cluster.achieved_concurrency <= c + 1e-9);
  CHECK(r.cluster.achieved_concurrency > c - 1.0);
}

TEST_CASE("with a rate and a large cap the client is the open-loop rate process") {
  ServingConfig capped = client_config(200, 1'000'000);
  set_ready_times(capped.requests, 8.0, 1.0, 11);
  ServingConfig open = capped;
  open.client.reset();
  const MethodResult a = run(capped, "lynx");
  const MethodResult b = run(open, "lynx");
  for (std::size_t i = 0; i < a.requests.size(); ++i) {
    CHECK(a.requests[i].arrived_at == b.requests[i].arrived_at);
    CHECK(a.requests[i].last_token_at == b.requests[i].last_token_at);
  }
}

TEST_CASE("ready times follow vLLM's gamma process, the last at N / R") {
  std::vector<RequestSpec> requests(20000);
  for (const double b : {1.0, 0.25, 4.0}) {
    CAPTURE(b);
    set_ready_times(requests, 50.0, b, 3);
    CHECK(requests.back().arrival_at.seconds() == doctest::Approx(20000 / 50.0).epsilon(1e-9));
    CHECK(requests.front().arrival_at > Time::zero());
    double sum = 0.0;
    double sum2 = 0.0;
    Time previous = Time::zero();
    for (const RequestSpec& r : requests) {
      const double gap = (r.arrival_at - previous).seconds();
      CHECK(gap >= 0.0);
      sum += gap;
      sum2 += gap * gap;
      previous = r.arrival_at;
    }
    const double n = static_cast<double>(requests.size());
    const double mean = sum / n;
    const double cv2 = (sum2 / n - mean * mean) / (mean * mean);
    CHECK(mean == doctest::Approx(1.0 / 50.0).epsilon(1e-6));
    CHECK(cv2 == doctest::Approx(1.0 / b).epsilon(0.08));  // shape b: squared CV 1 / b
  }
  set_ready_times(requests, std::nullopt, 1.0, 3);
  CHECK(std::all_of(requests.begin(), requests.end(),
                    [](const RequestSpec& r) { return r.arrival_at == Time::zero(); }));
  CHECK_THROWS_AS(set_ready_times(requests, 0.0, 1.0, 3), std::invalid_argument);
  CHECK_THROWS_AS(set_ready_times(requests, 1.0, 0.0, 3), std::invalid_argument);
}

TEST_CASE("a client refuses a concurrency below one or a negative think time") {
  ServingConfig c = client_config(2, 0);
  CHECK_THROWS_AS(run(c), std::invalid_argument);
  c.client = ClientSpec{1, Time::from_seconds(-1.0)};
  CHECK_THROWS_AS(run(c), std::invalid_argument);
}
