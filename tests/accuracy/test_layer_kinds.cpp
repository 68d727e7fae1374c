#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include <nlohmann/json.hpp>

#include "accuracy_test_util.hpp"
#include "sim/accuracy/kv/delta_state.hpp"
#include "sim/accuracy/kv/head_source.hpp"
#include "sim/accuracy/kv/synthetic_latent.hpp"
#include "sim/accuracy/methods/method_codec.hpp"
#include "sim/accuracy/metrics/attention_math.hpp"
#include "sim/accuracy/metrics/precision_metrics.hpp"
#include "sim/accuracy/metrics/state_measurement.hpp"
#include "sim/store/accuracy_cache.hpp"
#include "sim/store/accuracy_json.hpp"

using namespace lynxsim::accuracy;

namespace {

KvGeometry mla_geometry() {
  KvGeometry g{"mla-test", 4, 1, 8, 576, 10000.0};
  g.kv_tensors = 1;
  g.latent_rope_dim = 64;
  return g;
}

KvGeometry hybrid_geometry() {
  KvGeometry g{"hybrid-test", 4, 2, 8, 64, 1e6};
  g.layer_pattern = "LLLF";
  g.linear_layers = 3;
  g.linear_value_heads = 4;
  g.linear_key_head_dim = 32;
  g.linear_value_head_dim = 32;
  g.linear_state_values = 4 * 32 * 32;
  return g;
}

AccuracyRequest quick_request(const KvGeometry& g, int context) {
  AccuracyRequest r;
  r.geometry = g;
  r.context = context;
  r.seed = 5;
  r.sampling.layers = 2;
  r.sampling.kv_heads = 2;
  r.methods = {method_from_name("int8"), method_from_name("lynx-4+4")};
  r.layer_profiles.state.continue_steps = {1, 16, 64};
  r.layer_profiles.state.readout_queries = 4;
  return r;
}

double snr_of(const std::vector<float>& x, const std::vector<float>& y) {
  ErrorAccumulator e;
  e.add(x, y);
  return e.snr_db();
}

}  // namespace

TEST_CASE("an MLA latent's c_kv has unit RMS per token before the gain") {
  LatentProfile latent;
  latent.gain_spread = 0.0;
  const int rank = 512;
  const std::vector<float> ckv = synthetic_ckv(default_kv_profile().keys, latent, rank, 64, 11);
  for (int t = 0; t < 64; ++t) {
    double sum = 0.0;
    for (int c = 0; c < rank; ++c) sum += std::pow(ckv[static_cast<std::size_t>(t * rank + c)], 2);
    CHECK(std::sqrt(sum / rank) == doctest::Approx(1.0).epsilon(1e-5));
  }
}

TEST_CASE("a latent block's values are its keys with the RoPE part zeroed") {
  const KvGeometry g = mla_geometry();
  const HeadKv b = generate_synthetic_latent(g, default_kv_profile(), default_layer_profiles().latent, 1, 256, {200, 255}, 3);
  REQUIRE(b.head_dim == 576);
  CHECK(b.num_queries() == 2);
  int mismatches = 0;
  for (int t = 0; t < b.tokens; ++t) {
    for (int c = 0; c < 576; ++c) {
      const float v = b.values[static_cast<std::size_t>(t * 576 + c)];
      mismatches += v == (c < 512 ? b.key(t)[c] : 0.0F) ? 0 : 1;
    }
  }
  CHECK(mismatches == 0);
}

TEST_CASE("int8 on a uniform row reaches the closed-form SNR 20 log10(255) dB") {
  std::vector<float> x;
  AccuracyRng rng(7);
  for (int i = 0; i < 16384; ++i) x.push_back(static_cast<float>(rng.uniform(-1.0, 1.0)));
  const CodecTarget target{TensorKind::value, false, 0, 1};
  const std::vector<float> y = reconstruct_block(method_from_name("int8"), target, lynxsim::quant::BlockView(x, 1, 16384));
  CHECK(snr_of(x, y) == doctest::Approx(20.0 * std::log10(255.0)).epsilon(0.01));
}

TEST_CASE("the delta rule with alpha 1, beta 1 and orthonormal keys stores each value exactly") {
  const int d = 8;
  std::vector<float> state(static_cast<std::size_t>(d * d), 0.0F);
  std::vector<std::vector<float>> values;
  for (int i = 0; i < d; ++i) {
    DeltaToken t{1.0, 1.0, std::vector<float>(d, 0.0F), {}};
    t.k[static_cast<std::size_t>(i)] = 1.0F;
    for (int j = 0; j < d; ++j) t.v.push_back(static_cast<float>(i * d + j) * 0.1F);
    values.push_back(t.v);
    delta_step(state.data(), d, d, t);
  }
  for (int i = 0; i < d; ++i) {
    std::vector<float> q(d, 0.0F);
    q[static_cast<std::size_t>(i)] = 1.0F;
    const std::vector<double> o = state_readout(state.data(), d, d, q);
    for (int j = 0; j < d; ++j) CHECK(o[static_cast<std::size_t>(j)] == doctest::Approx(values[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)]));
    CHECK(relative_error(o, o) == 0.0);
  }
}

TEST_CASE("a state error evolves as E' = alpha (I - beta k k^T) E") {
  const int d = 16;
  DeltaInputs inputs(default_layer_profiles().state, d, d, 21);
  std::vector<float> s = run_delta_rule(inputs, d, d, 40);
  AccuracyRng rng(4);
  std::vector<float> e(s.size());
  for (float& x : e) x = static_cast<float>(1e-2 * rng.normal());
  std::vector<float> s_hat = s;
  for (std::size_t i = 0; i < s.size(); ++i) s_hat[i] += e[i];
  const DeltaToken t = inputs.next();
  delta_step(s.data(), d, d, t);
  delta_step(s_hat.data(), d, d, t);
  for (int j = 0; j < d; ++j) {
    double ke = 0.0;
    for (int i = 0; i < d; ++i) ke += t.k[static_cast<std::size_t>(i)] * e[static_cast<std::size_t>(i * d + j)];
    for (int i = 0; i < d; ++i) {
      const auto at = static_cast<std::size_t>(i * d + j);
      const double expected = t.alpha * (e[at] - t.beta * t.k[static_cast<std::size_t>(i)] * ke);
      CHECK(s_hat[at] - s[at] == doctest::Approx(expected).epsilon(1e-3).scale(1e-2));
    }
  }
}

TEST_CASE("MLA measurement: latent rows, int8 beats the 4-bit anchor on latent SNR") {
  const AccuracyResult r = measure_accuracy(quick_request(mla_geometry(), 1024));
  REQUIRE(r.layer_kinds.size() == 1);
  CHECK(r.layer_kinds[0].tensor == "latent");
  CHECK(r.layer_kinds[0].layers == 4);
  CHECK(r.state_rows.empty());
  CHECK(r.row("int8").key_snr_db > r.row("lynx-4+4", "anchor").key_snr_db + 15.0);
  CHECK(r.row("int8").value_snr_db > r.row("lynx-4+4", "anchor").value_snr_db + 15.0);
  CHECK(r.row("int8").key_snr_db == doctest::Approx(r.row("lynx-4+4").key_snr_db));
}

TEST_CASE("hybrid measurement: attention layers as KV, linear layers as states whose anchored error shrinks") {
  const AccuracyRequest request = quick_request(hybrid_geometry(), 512);
  const AccuracyResult r = measure_accuracy(request);
  CHECK(r.sampled_layers == std::vector<int>{3});
  CHECK(r.sampled_state_layers == std::vector<int>{0, 2});
  REQUIRE(r.layer_kinds.size() == 2);
  CHECK(r.layer_kinds[1].tensor == "state");
  REQUIRE(r.state_rows.size() == 3);
  const StatePrecision& anchor = r.state_rows[1];
  CHECK(anchor.variant == "anchor");
  CHECK(r.state_rows[0].state_snr_db > anchor.state_snr_db + 15.0);
  REQUIRE(anchor.continued.size() == 3);
  CHECK(anchor.continued[0].state_rel_l2 < anchor.state_rel_l2);
  CHECK(anchor.continued[2].state_rel_l2 < 0.5 * anchor.continued[0].state_rel_l2);
  CHECK(anchor.continued[2].readout_rel_error < 0.5 * anchor.readout_rel_error);
  REQUIRE(r.acceptance.size() == 1);
  CHECK(r.acceptance[0].samples == 1 * 2 * request.sampling.queries_per_head + 2 * 2 * 2 * 4);
  const AccuracyResult back = lynxsim::store::result_from_json(lynxsim::store::result_to_json(r));
  CHECK(back.state_rows.size() == 3);
  CHECK(back.state_rows[1].continued[2].state_rel_l2 == anchor.continued[2].state_rel_l2);
  CHECK(back.layer_kinds[1].layer_kind == "linear");
  AccuracyRequest dense = request;
  dense.geometry = testing::small_geometry();
  CHECK(lynxsim::store::accuracy_cache_key(dense).find("layer_kinds") == std::string::npos);
  CHECK(lynxsim::store::accuracy_cache_key(request).find("layer_kinds") != std::string::npos);
}

TEST_CASE("sliding-window layers attend their last W tokens and have no needle trials") {
  KvGeometry g = testing::small_geometry();
  g.layer_pattern = "SF";
  g.sliding_layers = 2;
  g.sliding_window = 256;
  AccuracyRequest request = quick_request(g, 1024);
  const HeadSource source(request);
  CHECK(source.tokens(0) == 256);
  CHECK(source.tokens(1) == 1024);
  const HeadKv sliding = source.head(0, 0);
  CHECK(sliding.tokens == 256);
  CHECK(sliding.num_queries() == request.sampling.queries_per_head);
  CHECK(source.head(1, 0).num_queries() == request.sampling.queries_per_head + request.sampling.needle_probes);
  const AccuracyResult r = measure_accuracy(request);
  CHECK(r.layer_kinds[1].tokens == 256);
}

TEST_CASE("a hybrid model's acceptance weighs the attention and state agreement by their layers") {
  CHECK(pooled_acceptance(0.8, 0.4, 0, 48) == doctest::Approx(0.8));
  CHECK(pooled_acceptance(0.8, 0.4, 36, 48) == doctest::Approx(0.25 * 0.8 + 0.75 * 0.4));
  CHECK(pooled_acceptance(0.8, 0.4, 48, 48) == doctest::Approx(0.4));
}
