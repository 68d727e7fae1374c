#include <doctest/doctest.h>

#include <numeric>

#include "serving_fixture.hpp"
#include "sim/serving/kv_bytes.hpp"
#include "sim/serving/kv_sender.hpp"

namespace lynxsim::serving {
namespace {

std::int64_t sum(const std::vector<Bytes>& planes) {
  return std::accumulate(planes.begin(), planes.end(), std::int64_t{0},
                         [](std::int64_t a, Bytes b) { return a + b.value; });
}

}  // namespace

TEST_CASE("MLA sends one 576-value latent per token and layer with every method") {
  const KvGeometry g = kv_geometry_of(test::model_card("deepseek-v3"));
  CHECK(g.kv_tensors == 1);
  CHECK(g.head_dim == 576);
  const int tokens = 1000;
  CHECK(sum(transfer_plane_bytes(quant::method_from_name("bf16"), g, 1, 1, tokens)) == 576LL * 2 * 61 * tokens);
  const std::int64_t int8 = (576LL + 4) * 61 * tokens;
  CHECK(sum(transfer_plane_bytes(quant::method_from_name("int8"), g, 1, 1, tokens)) == int8);
  CHECK(sum(transfer_plane_bytes(quant::method_from_name("lynx"), g, 1, 1, tokens)) == int8);
  CHECK(sum(transfer_plane_bytes(quant::method_from_name("bf16"), g, 2, 4, tokens)) == 4 * 576LL * 2 * 61 * tokens);
}

TEST_CASE("with DP attention a request's MLA latent goes once, to the DP rank that holds it") {
  const KvGeometry g = kv_geometry_of(test::model_card("deepseek-v3"));
  const auto bf16 = quant::method_from_name("bf16");
  const std::int64_t latent = 576LL * 2 * 61 * 32768;
  CHECK(static_cast<double>(latent) / (1LL << 30) == doctest::Approx(2.14).epsilon(0.005));
  CHECK(sum(transfer_plane_bytes(bf16, g, 16, 16, 32768)) == 16 * latent);
  KvTransferParams p;
  p.prefill_hosts = {{}};
  p.decode_hosts = {{}};
  for (net::HostId h = 0; h < 16; ++h) {
    p.prefill_hosts[0].push_back(h);
    p.decode_hosts[0].push_back(h + 16);
  }
  p.prefill_attention_dp = {16};
  p.decode_attention_dp = {16};
  RequestMetrics record;
  RequestState r(record);
  r.metrics.id = 5;
  CHECK(p.tp(r, false) == 1);
  CHECK(p.tp(r, true) == 1);
  CHECK(p.kv_hosts(r, true) == std::vector<net::HostId>{21});
  CHECK(sum(transfer_plane_bytes(bf16, g, p.tp(r, false), p.tp(r, true), 32768)) == latent);
  p.decode_attention_dp = {4};
  CHECK(p.tp(r, true) == 4);
  CHECK(p.kv_hosts(r, true) == std::vector<net::HostId>{20, 21, 22, 23});
  CHECK(sum(transfer_plane_bytes(bf16, g, p.tp(r, false), p.tp(r, true), 32768)) == 4 * latent);
  p.decode_attention_dp = {};
  CHECK(p.kv_hosts(r, true).size() == 16);
}

TEST_CASE("sliding-window layers send at most W tokens, linear layers their state") {
  const KvGeometry gemma = kv_geometry_of(test::model_card("gemma-3-27b"));
  const std::int64_t row = 2LL * 16 * 128 * 2;
  CHECK(sum(transfer_plane_bytes(quant::method_from_name("bf16"), gemma, 1, 1, 32768)) ==
        row * (10 * 32768 + 52 * 1024));
  const KvGeometry next = kv_geometry_of(test::model_card("qwen3-next-80b-a3b"));
  const std::int64_t state = 32 * 128 * 128 + (2 * 16 * 128 + 32 * 128) * 3;
  const std::int64_t full = 2LL * 2 * 256 * 2 * 12;
  CHECK(sum(transfer_plane_bytes(quant::method_from_name("bf16"), next, 1, 1, 32768)) == full * 32768 + state * 2 * 36);
  CHECK(sum(transfer_plane_bytes(quant::method_from_name("bf16"), next, 2, 2, 32768)) == full * 32768 + state * 2 * 36);
  CHECK(sum(transfer_plane_bytes(quant::method_from_name("int8"), next, 1, 1, 10)) ==
        12 * 2 * 2 * (256 + 4) * 10 + 36 * (state + 4));
}

TEST_CASE("a piece of some layers carries its share of every kind's bytes") {
  const KvGeometry gemma = kv_geometry_of(test::model_card("gemma-3-27b"));
  const auto all = piece_plane_bytes(quant::method_from_name("bf16"), gemma, 16, 62, 4096);
  const auto half = piece_plane_bytes(quant::method_from_name("bf16"), gemma, 16, 31, 4096);
  CHECK(half.front().value == all.front().value / 2);
  CHECK(piece_bf16_bytes(gemma, 16, 62, 4096) == all.front());
  const KvGeometry dense = kv_geometry_of(test::model_card("llama-3.1-8b"));
  CHECK(dense.dense());
  CHECK(piece_plane_bytes(quant::method_from_name("int4"), dense, 8, 3, 100) ==
        std::vector<Bytes>{layer_plane_bytes(quant::method_from_name("int4"), 8, 128, 100)[0] * 3});
}

}  // namespace lynxsim::serving
