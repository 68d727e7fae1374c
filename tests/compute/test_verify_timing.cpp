#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

#include "compute_fixtures.hpp"
#include "sim/compute/timing_model.hpp"

namespace lynxsim {
namespace {

using test::round_device;
using test::tiny_model;

Time pass_time(const TimingModel& tm, std::vector<SequenceChunk> chunks, int rows) {
  return tm.pass(chunks, rows).time;
}

}  // namespace

TEST_CASE("verifying k drafts is a forward over k + 1 positions after the committed KV") {
  const TimingModel tm(test::shipped_model("llama-3.1-8b"), test::shipped_hardware("h100-sxm"), 1);
  const int c = 8192;
  for (const int k : {1, 4, 16}) {
    CAPTURE(k);
    const std::vector<int> kv{c + k};
    const std::vector<int> drafts{k};
    const Time expected = tm.decode_step(kv).time + pass_time(tm, {{k + 1, c}}, k + 1) -
                          pass_time(tm, {{1, c + k}}, 1);
    CHECK(tm.verify_step(kv, drafts).time == expected);
    CHECK(tm.verify(k, c).time == pass_time(tm, {{k + 1, c}}, k + 1));
  }
}

TEST_CASE("one draft costs more than a plain step: two positions and two logit rows") {
  const TimingModel tm(tiny_model(), round_device(), 1);
  const std::vector<int> kv{1001};
  const std::vector<int> one{1};
  const std::vector<int> none{0};
  CHECK(tm.verify_step(kv, none).time == tm.decode_step(kv).time);
  CHECK(tm.verify_step(kv, one).time > tm.decode_step(kv).time);
  const double linear = 2.0 * 2 * 36864;
  const double attention = 4.0 * 16 * 4 * 2 * (1000 + 1.0);
  const double head = 2.0 * 2 * 100 * 64;
  CHECK(tm.verify(1, 1000).flops == doctest::Approx(2 * (linear + attention) + head));
}

TEST_CASE("a verification inside a batch adds its extra positions to the batch's one weight stream") {
  const TimingModel tm(test::shipped_model("llama-3.1-8b"), test::shipped_hardware("h100-sxm"), 1);
  const std::vector<int> kv{4000, 8000, 12008, 2000};
  const std::vector<int> drafts{0, 0, 8, 0};
  const std::vector<SequenceChunk> verifying{{1, 4000}, {1, 8000}, {9, 12000}, {1, 2000}};
  const std::vector<SequenceChunk> plain{{1, 4000}, {1, 8000}, {1, 12008}, {1, 2000}};
  const Time step = tm.decode_step(kv).time;
  const Time with = tm.verify_step(kv, drafts).time;
  CHECK(with == step + tm.pass(verifying, 12).time - tm.pass(plain, 4).time);
  CHECK(with > step);
  CHECK(with - step < tm.verify(8, 12000).time);
}

TEST_CASE("verify_step rejects mismatched or impossible draft counts") {
  const TimingModel tm(tiny_model(), round_device(), 1);
  const std::vector<int> kv{10, 20};
  const std::vector<int> short_list{1};
  const std::vector<int> too_many{0, 21};
  const std::vector<int> negative{-1, 0};
  CHECK_THROWS_AS(tm.verify_step(kv, short_list), std::invalid_argument);
  CHECK_THROWS_AS(tm.verify_step(kv, too_many), std::invalid_argument);
  CHECK_THROWS_AS(tm.verify_step(kv, negative), std::invalid_argument);
}

TEST_CASE("step times from chunk totals equal the full timing, bit for bit") {
  const TimingModel tm(test::shipped_model("llama-3.1-8b"), test::shipped_hardware("h100-sxm"), 2);
  const std::vector<int> kv{4000, 8000, 12008, 2000, 17, 1};
  for (const std::vector<int>& drafts : {std::vector<int>{0, 0, 0, 0, 0, 0}, std::vector<int>{0, 3, 8, 0, 5, 1},
                                         std::vector<int>{1, 1, 1, 1, 1, 1}}) {
    PassTotals plain;
    PassTotals verifying;
    std::vector<SequenceChunk> chunks;
    int rows = 0;
    for (std::size_t i = 0; i < kv.size(); ++i) {
      plain.add({1, kv[i]});
      verifying.add({drafts[i] + 1, kv[i] - drafts[i]});
      chunks.push_back({drafts[i] + 1, kv[i] - drafts[i]});
      rows += drafts[i] + 1;
    }
    const OpTiming full = tm.verify_step(kv, drafts);
    CHECK(tm.verify_step(plain, verifying, rows).time == full.time);
    CHECK(tm.verify_step(plain, verifying, rows).flops == full.flops);
    CHECK(tm.verify_step_time(plain, verifying, rows) == full.time);
    CHECK(tm.pass_time(verifying, rows) == tm.pass(chunks, rows).time);
    CHECK(tm.pass(verifying, rows).bytes == tm.pass(chunks, rows).bytes);
  }
  PassTotals with_empty;
  with_empty.add({0, 500});
  with_empty.add({3, 10});
  CHECK(with_empty.sequences == 2);
  CHECK(tm.pass_time(with_empty, 1) == tm.pass(std::vector<SequenceChunk>{{0, 500}, {3, 10}}, 1).time);
}

}  // namespace lynxsim
