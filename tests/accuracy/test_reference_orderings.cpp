#include <doctest/doctest.h>

#include <vector>

#include "accuracy_test_util.hpp"
#include "sim/accuracy/metrics/attention_math.hpp"
#include "sim/accuracy/methods/method_codec.hpp"
#include "sim/accuracy/metrics/precision_metrics.hpp"
#include "sim/accuracy/kv/synthetic_kv.hpp"
#include "sim/quant/half_precision.hpp"
#include "sim/quant/quantize.hpp"

// The published ablation orderings (KIVI, KVQuant, QuantSpec) that the synthetic generator must
// reproduce, checked on the real sim/quant kernels over a few generated heads.

using namespace lynxsim::accuracy;
namespace quant = lynxsim::quant;

namespace {

constexpr int kTokens = 4096;

struct Scores {
  double snr_db = 0.0;
  double kl = 0.0;
  double output_error = 0.0;
};

std::vector<HeadKv> heads() {
  std::vector<HeadKv> out;
  const std::vector<int> positions{2500, 3000, 3500, 4000, 4095};
  for (const int layer : {0, 2}) {
    for (const int head : {0, 1}) {
      out.push_back(generate_synthetic_head(testing::small_geometry(), default_kv_profile(), layer, head, kTokens, positions, 11));
    }
  }
  return out;
}

const std::vector<HeadKv>& cached_heads() {
  static const std::vector<HeadKv> h = heads();
  return h;
}

std::vector<float> quantized(const std::vector<float>& x, int bits, quant::GroupAxis axis, int group) {
  const quant::BlockView view(x, kTokens, 128);
  return quant::dequantize(quant::quantize_fast(view, quant::QuantConfig{bits, axis, group, false}));
}

std::vector<float> bf16(const std::vector<float>& x) {
  std::vector<float> out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) out[i] = quant::round_to_bf16(x[i]);
  return out;
}

template <typename KeyFn, typename ValueFn>
Scores score(KeyFn key_fn, ValueFn value_fn, bool keys_snr) {
  ErrorAccumulator err;
  Scores s;
  int n = 0;
  for (const HeadKv& b : cached_heads()) {
    const std::vector<float> k = key_fn(b.keys);
    const std::vector<float> v = value_fn(b.values);
    err.add(keys_snr ? b.keys : b.values, keys_snr ? k : v);
    for (int i = 0; i < b.num_queries(); ++i, ++n) {
      const int len = b.query_positions[static_cast<std::size_t>(i)] + 1;
      std::vector<float> ref;
      std::vector<float> approx;
      attention_logits(b.keys.data(), 128, len, b.query(i), ref);
      attention_logits(k.data(), 128, len, b.query(i), approx);
      s.kl += kl_divergence_from_logits(ref, approx);
      s.output_error += relative_error(attention_output(b.values.data(), 128, softmax(ref)),
                                       attention_output(v.data(), 128, softmax(approx)));
    }
  }
  s.snr_db = err.snr_db();
  s.kl /= n;
  s.output_error /= n;
  return s;
}

const auto identity = [](const std::vector<float>& x) { return x; };

}  // namespace

TEST_CASE("per-token INT4 keys are clearly worse than per-channel INT4 keys") {
  const Scores per_token = score([](const auto& x) { return quantized(x, 4, quant::GroupAxis::per_token, 128); }, identity, true);
  const Scores per_channel = score([](const auto& x) { return quantized(x, 4, quant::GroupAxis::per_channel, 128); }, identity, true);
  CHECK(per_channel.snr_db > per_token.snr_db + 6.0);
  CHECK(per_token.kl > 4.0 * per_channel.kl);
}

TEST_CASE("per-channel INT4 values are worse than per-token INT4 values") {
  const Scores per_token = score(identity, [](const auto& x) { return quantized(x, 4, quant::GroupAxis::per_token, 128); }, false);
  const Scores per_channel = score(identity, [](const auto& x) { return quantized(x, 4, quant::GroupAxis::per_channel, 128); }, false);
  CHECK(per_token.snr_db > per_channel.snr_db + 2.0);
  CHECK(per_channel.output_error > 1.3 * per_token.output_error);
}

TEST_CASE("INT8 is indistinguishable from BF16 on attention while INT4 is not") {
  const Scores b16 = score([](const auto& x) { return bf16(x); }, [](const auto& x) { return bf16(x); }, true);
  const auto int8 = [](const auto& x) { return quantized(x, 8, quant::GroupAxis::per_token, 128); };
  const auto int4 = [](const auto& x) { return quantized(x, 4, quant::GroupAxis::per_token, 128); };
  const Scores i8 = score(int8, int8, true);
  const Scores i4 = score(int4, int4, true);
  CHECK(i8.kl < 1e-3);
  CHECK(b16.kl < 1e-3);
  CHECK(i4.kl > 30.0 * i8.kl);
  CHECK(i4.output_error > 5.0 * i8.output_error);
}

TEST_CASE("KIVI keeps the recent window in 16 bits and quantizes whole key groups") {
  const MethodSpec kivi = method_from_name("kivi2");
  const HeadKv& b = cached_heads().front();
  const quant::BlockView view(b.keys, kTokens, 128);
  const auto k = reconstruct_block(kivi, CodecTarget{TensorKind::key, false, 0, 4}, view);
  const std::size_t last = static_cast<std::size_t>(kTokens - 1) * 128;
  CHECK(k[last] == quant::round_to_bf16(b.keys[last]));
  CHECK(group_rows(kivi, TensorKind::key, kTokens, 100) == std::pair<int, int>{96, 128});
  CHECK(group_rows(kivi, TensorKind::key, kTokens, kTokens - 1) == std::pair<int, int>{kTokens - 1, kTokens});
  CHECK(group_rows(kivi, TensorKind::value, kTokens, 100) == std::pair<int, int>{100, 101});
}
