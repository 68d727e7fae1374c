#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <utility>

#include "serving_fixture.hpp"
#include "sim/compute/timing_model.hpp"
#include "sim/serving/serving_events.hpp"
#include "sim/serving/serving_run.hpp"

using namespace lynxsim;
using namespace lynxsim::serving;

namespace {

constexpr int kContext = 4096;
constexpr int kOutput = 256;

MethodQuality quality(double acceptance = 1.0) { return MethodQuality{acceptance, "test", {}, 0.0}; }

// n + 1 equal requests at time 0 on one H100 prefill and one H100 decode instance whose usable HBM
// holds the weights and n.5 requests' reservations.
ServingConfig room_for(int n, KvAdmissionPolicy policy) {
  ServingConfig c;
  c.model = test::model_card("llama-3.1-8b");
  c.prefill.gpu = test::gpu_profile("h100-sxm");
  c.decode.gpu = c.prefill.gpu;
  c.kv_admission.policy = policy;
  const TimingModel timing(c.model, c.decode.gpu, 1);
  const double reserve = static_cast<double>(timing.kv_bytes_per_rank(kContext + kOutput).value);
  const double fill = static_cast<double>(timing.weight_bytes_per_rank().value) + (n + 0.5) * reserve;
  c.decode.gpu.hbm_capacity = Bytes{static_cast<std::int64_t>(fill / c.decode_memory.usable_fraction)};
  for (int i = 0; i <= n; ++i) c.requests.push_back(RequestSpec{Time::zero(), kContext, kOutput});
  c.make_network = test::single_link({});
  return c;
}

// Every flow of a run, by request: (start, record) in start order.
struct Flows {
  std::map<std::uint64_t, std::vector<net::FlowRecord>> of;
  void watch(Simulator& sim) {
    sim.bus().subscribe<net::FlowFinished>([this](const net::FlowFinished& e) {
      of[static_cast<std::uint64_t>(e.record.spec.tag)].push_back(e.record);
    });
  }
  Time first_start(std::uint64_t id) const {
    Time first = Time::max();
    for (const auto& f : of.at(id)) first = std::min(first, f.started_at);
    return first;
  }
  Time first_data_start(std::uint64_t id) const {
    Time first = Time::max();
    for (const auto& f : of.at(id)) {
      if (f.spec.size.value > 0) first = std::min(first, f.started_at);
    }
    return first;
  }
};

const RequestMetrics& request(const MethodResult& r, std::uint64_t id) {
  return *std::find_if(r.requests.begin(), r.requests.end(), [id](const RequestMetrics& m) { return m.id == id; });
}

}  // namespace

TEST_CASE("reserve: with room for n requests' KV the (n+1)-th transfer starts when the first finishes") {
  for (const int n : {1, 3}) {
    CAPTURE(n);
    Flows flows;
    const MethodResult r = run_serving(room_for(n, KvAdmissionPolicy::reserve), quant::method_from_name("int8"),
                                       quality(), [&flows](Simulator& sim) { flows.watch(sim); });
    Time first_finish = Time::max();
    for (std::uint64_t id = 0; id < static_cast<std::uint64_t>(n); ++id) {
      CHECK(request(r, id).kv_admission_wait == Time::zero());
      first_finish = std::min(first_finish, request(r, id).last_token_at);
    }
    const auto last = static_cast<std::uint64_t>(n);
    CHECK(request(r, last).kv_admission_wait > Time::zero());
    CHECK(request(r, last).memory_wait_time == Time::zero());
    CHECK(flows.first_start(last) == first_finish);
    // Admitted after a wait, the decode rank tells the prefill instance where to write: one
    // control message, then the data.
    const auto& control = flows.of.at(last).front();
    CHECK(control.spec.size.value == 0);
    CHECK(flows.first_data_start(last) == control.finished_at);
    CHECK(control.finished_at - control.started_at == control.path_latency_time);
  }
}

TEST_CASE("staging: with buffers for one prompt the next transfer starts when the staged one joins") {
  // HBM for one request: request 1 is staged until request 0 finishes and it joins; request 2's
  // transfer waits for the buffers until then.
  ServingConfig c = room_for(2, KvAdmissionPolicy::staging);
  c.decode = room_for(1, KvAdmissionPolicy::staging).decode;
  const TimingModel timing(c.model, c.decode.gpu, 1);
  c.kv_admission.staging_capacity = Bytes{timing.kv_bytes_per_rank(kContext).value};
  Flows flows;
  const MethodResult r = run_serving(c, quant::method_from_name("int8"), quality(),
                                     [&flows](Simulator& sim) { flows.watch(sim); });
  CHECK(request(r, 0).kv_admission_wait == Time::zero());
  CHECK(request(r, 1).memory_wait_time > Time::zero());
  CHECK(request(r, 1).decode_joined_at == request(r, 0).last_token_at);
  CHECK(request(r, 2).kv_admission_wait > Time::zero());
  for (std::uint64_t id = 1; id < 3; ++id) {
    if (request(r, id).kv_admission_wait > Time::zero()) {
      CHECK(flows.first_start(id) == request(r, id - 1).decode_joined_at);
    }
  }
}

TEST_CASE("max_inflight_transfers 1: a transfer starts when the previous one has delivered its KV") {
  ServingConfig c = room_for(8, KvAdmissionPolicy::reserve);
  c.requests.resize(8);  // all fit in HBM: only the transfer slot holds them back
  c.kv_admission.max_inflight_transfers = 1;
  c.streaming = StreamingMode::after_prefill;
  c.kv_admission.initiator = TransferInitiator::decode;
  c.make_network = test::single_link({2.5e9});  // a transfer outlasts a prefill
  Flows flows;
  const MethodResult r = run_serving(c, quant::method_from_name("int8"), quality(),
                                     [&flows](Simulator& sim) { flows.watch(sim); });
  int waited = 0;
  for (std::uint64_t id = 1; id < r.requests.size(); ++id) {
    CAPTURE(id);
    const Time previous_done = request(r, id - 1).full_kv_at;
    CHECK(flows.first_data_start(id) > previous_done);
    if (request(r, id).kv_admission_wait > Time::zero()) {
      ++waited;
      // Pulled: the read request leaves the decode rank at admission.
      CHECK(flows.of.at(id)[1].started_at == previous_done);
    }
  }
  CHECK(waited > 0);
}

TEST_CASE("pulling costs a lone request one control round trip before its data") {
  ServingConfig c = test::quickstart_config(8192, 16);
  c.streaming = StreamingMode::after_prefill;
  const MethodResult push = run_serving(c, quant::method_from_name("int8"), quality());
  c.kv_admission.initiator = TransferInitiator::decode;
  Flows flows;
  const MethodResult pull = run_serving(c, quant::method_from_name("int8"), quality(),
                                        [&flows](Simulator& sim) { flows.watch(sim); });
  Time round_trip = Time::zero();
  int control = 0;
  for (const auto& f : flows.of.at(0)) {
    if (f.spec.size.value == 0) {
      round_trip += f.path_latency_time;
      ++control;
    }
  }
  CHECK(control == 2);
  CHECK(round_trip > Time::zero());
  CHECK(pull.requests[0].ttft() - push.requests[0].ttft() == round_trip);
  CHECK(pull.requests[0].kv_admission_wait == Time::zero());
}

TEST_CASE("every policy conserves bytes, reservations, staging and transfer slots") {
  const ServingConfig base = test::loaded_cluster(0.25);
  const TimingModel timing(base.model, base.decode.gpu, 1);
  const std::int64_t weights = timing.weight_bytes_per_rank().value;
  std::vector<std::pair<const char*, KvAdmissionSpec>> policies{
      {"reserve", {}},
      {"staging unlimited", {KvAdmissionPolicy::staging, Bytes{0}, 0, TransferInitiator::prefill}},
      {"staging bounded", {KvAdmissionPolicy::staging, Bytes{1'500'000'000}, 0, TransferInitiator::prefill}},
      {"reserve, 2 in flight, pull", {KvAdmissionPolicy::reserve, Bytes{0}, 2, TransferInitiator::decode}}};
  for (const auto& [name, spec] : policies) {
    for (const char* method : {"int8", "lynx"}) {
      CAPTURE(name);
      CAPTURE(method);
      ServingConfig c = base;
      c.kv_admission = spec;
      std::int64_t delivered = 0;
      std::map<std::pair<int, int>, std::int64_t> memory;
      std::map<int, KvAdmissionChanged> admission;
      int done = 0;
      const auto hook = [&](Simulator& sim) {
        sim.bus().subscribe<net::FlowFinished>([&](const net::FlowFinished& e) { delivered += e.record.spec.size.value; });
        sim.bus().subscribe<DecodeMemoryChanged>([&](const DecodeMemoryChanged& e) {
          CHECK(e.used_bytes <= e.capacity_bytes);
          memory[{e.instance, e.rank}] = e.used_bytes;
        });
        sim.bus().subscribe<KvAdmissionChanged>([&](const KvAdmissionChanged& e) {
          if (spec.max_inflight_transfers > 0) CHECK(e.in_flight <= spec.max_inflight_transfers);
          if (spec.staging_capacity.value > 0) CHECK(e.staged_bytes <= spec.staging_capacity.value);
          admission.insert_or_assign(e.instance, e);
        });
        sim.bus().subscribe<RequestDone>([&](const RequestDone&) { ++done; });
      };
      const MethodResult r = run_serving(c, quant::method_from_name(method), quality(0.7), hook);
      std::int64_t expected = 0;
      for (const auto& m : r.requests) {
        for (const Bytes b : m.plane_bytes) expected += b.value;
        CHECK(m.committed_tokens == m.output_tokens);
      }
      CHECK(done == static_cast<int>(r.requests.size()));
      CHECK(delivered == expected);
      CHECK(memory.size() == 2);
      for (const auto& [where, used] : memory) CHECK(used == weights);
      REQUIRE(admission.size() == 2);
      for (const auto& [instance, state] : admission) {
        CHECK(state.staged_bytes == 0);
        CHECK(state.in_flight == 0);
        CHECK(state.waiting == 0);
      }
      const bool any_wait = std::any_of(r.requests.begin(), r.requests.end(), [](const RequestMetrics& m) {
        return m.kv_admission_wait > Time::zero();
      });
      CHECK(any_wait == (std::string(name) != "staging unlimited"));
    }
  }
}
