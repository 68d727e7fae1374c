#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "serving_fixture.hpp"
#include "sim/serving/kv_bytes.hpp"
#include "sim/serving/kv_head_map.hpp"
#include "sim/serving/serving_run.hpp"

using namespace lynxsim;
using namespace lynxsim::serving;

namespace {

const KvGeometry kLlama8b{"llama-3.1-8b", 32, 8, 32, 128, 500000.0};
constexpr int kTokens = 1000;
// bf16 KV of one head, every layer, kTokens tokens: 2 (K, V) * 128 * 2 bytes * 32 layers per token.
constexpr std::int64_t kHeadBytes = 2LL * 128 * 2 * 32 * kTokens;

struct Case {
  int src_tp;
  int dst_tp;
  std::vector<HeadFlow> flows;
};

bool same(const std::vector<HeadFlow>& a, const std::vector<HeadFlow>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].src_rank != b[i].src_rank || a[i].dst_rank != b[i].dst_rank || a[i].heads != b[i].heads) {
      return false;
    }
  }
  return true;
}

std::vector<HeadFlow> diagonal(int ranks) {
  std::vector<HeadFlow> out;
  for (int r = 0; r < ranks; ++r) out.push_back({r, r, 1});
  return out;
}

}  // namespace

TEST_CASE("ranks hold contiguous heads up to the head count and one replicated head beyond") {
  CHECK(rank_kv_heads(8, 2, 1) == std::vector<int>{4, 5, 6, 7});
  CHECK(rank_kv_heads(8, 8, 3) == std::vector<int>{3});
  CHECK(rank_kv_heads(8, 16, 6) == std::vector<int>{3});
  CHECK(rank_kv_heads(8, 16, 7) == std::vector<int>{3});
  CHECK(rank_kv_heads(8, 1, 0).size() == 8);
  CHECK_THROWS_AS(rank_kv_heads(8, 2, 2), std::invalid_argument);
  CHECK_THROWS_AS(kv_head_flows(8, 0, 1), std::invalid_argument);
}

TEST_CASE("each decode rank receives exactly the heads it serves, once") {
  const std::vector<Case> cases{
      {1, 8, {{0, 0, 1}, {0, 1, 1}, {0, 2, 1}, {0, 3, 1}, {0, 4, 1}, {0, 5, 1}, {0, 6, 1}, {0, 7, 1}}},
      {8, 1, {{0, 0, 1}, {1, 0, 1}, {2, 0, 1}, {3, 0, 1}, {4, 0, 1}, {5, 0, 1}, {6, 0, 1}, {7, 0, 1}}},
      {2, 4, {{0, 0, 2}, {0, 1, 2}, {1, 2, 2}, {1, 3, 2}}},
      {8, 8, diagonal(8)},
      {16, 16, diagonal(16)},
      {1, 1, {{0, 0, 8}}},
      {16, 8, {{0, 0, 1}, {2, 1, 1}, {4, 2, 1}, {6, 3, 1}, {8, 4, 1}, {10, 5, 1}, {12, 6, 1}, {14, 7, 1}}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.src_tp);
    CAPTURE(c.dst_tp);
    CHECK(same(kv_head_flows(8, c.src_tp, c.dst_tp), c.flows));
  }
}

TEST_CASE("bytes per flow are its heads' KV and the total grows only where decode replicates heads") {
  const quant::MethodSpec bf16 = quant::method_from_name("bf16");
  const quant::MethodSpec lynx = quant::method_from_name("lynx");
  struct Expect {
    int src_tp;
    int dst_tp;
    int flows;
    std::int64_t per_flow;
    std::int64_t total;
  };
  const std::vector<Expect> expects{
      {1, 8, 8, kHeadBytes, 8 * kHeadBytes},       {8, 1, 8, kHeadBytes, 8 * kHeadBytes},
      {2, 4, 4, 2 * kHeadBytes, 8 * kHeadBytes},   {8, 8, 8, kHeadBytes, 8 * kHeadBytes},
      {16, 16, 16, kHeadBytes, 16 * kHeadBytes},
  };
  for (const Expect& e : expects) {
    CAPTURE(e.src_tp);
    CAPTURE(e.dst_tp);
    const auto flows = kv_head_flows(8, e.src_tp, e.dst_tp);
    REQUIRE(static_cast<int>(flows.size()) == e.flows);
    for (const HeadFlow& f : flows) {
      CHECK(layer_plane_bytes(bf16, f.heads, 128, kTokens)[0].value * 32 == e.per_flow);
    }
    CHECK(transfer_plane_bytes(bf16, kLlama8b, e.src_tp, e.dst_tp, kTokens)[0].value == e.total);
    const auto planes = transfer_plane_bytes(lynx, kLlama8b, e.src_tp, e.dst_tp, kTokens);
    const auto one = total_plane_bytes(lynx, kLlama8b, 1, kTokens);
    const std::int64_t copies = e.total / (8 * kHeadBytes);
    CHECK(planes[0].value == one[0].value * copies);
    CHECK(planes[1].value == one[1].value * copies);
  }
}

TEST_CASE("a cluster run sends one flow per plane and sharing rank pair, with exact bytes") {
  ServingConfig c = test::quickstart_config(4096, 2);
  c.streaming = StreamingMode::after_prefill;
  c.prefill.tensor_parallel = 2;
  c.decode.tensor_parallel = 4;
  c.make_network = test::leaf_spine(2, 4, 100e9);
  std::vector<std::string> labels;
  std::vector<std::int64_t> sizes;
  const SimulatorHook hook = [&](Simulator& sim) {
    sim.bus().subscribe<net::FlowStarted>([&](const net::FlowStarted& e) {
      labels.push_back(e.record.spec.label);
      sizes.push_back(e.record.spec.size.value);
    });
  };
  const MethodResult r = run_serving(c, quant::method_from_name("lynx"), MethodQuality{}, hook);
  REQUIRE(r.requests.size() == 1);
  REQUIRE(labels.size() == 8);
  const auto per_head = layer_plane_bytes(quant::method_from_name("lynx"), 2, 128, 4096);
  for (std::size_t i = 0; i < labels.size(); ++i) {
    CAPTURE(labels[i]);
    const bool anchor = labels[i].find("plane0") != std::string::npos;
    CHECK(sizes[i] == per_head[anchor ? 0 : 1].value * 32);
  }
  const auto total = transfer_plane_bytes(quant::method_from_name("lynx"), kLlama8b, 2, 4, 4096);
  CHECK(r.requests[0].plane_bytes == total);
  CHECK(total[0] == total_plane_bytes(quant::method_from_name("lynx"), kLlama8b, 1, 4096)[0]);
}

namespace {

// The flow rule of kv_head_map.hpp, spelt out from rank_kv_heads: the holders of each head in rank
// order, the j-th needer served by the (j mod |holders|)-th holder, flows merged per rank pair.
std::vector<HeadFlow> flows_from_rank_heads(int n, int src_tp, int dst_tp) {
  const auto holders = [n](int tp) {
    std::vector<std::vector<int>> out(static_cast<std::size_t>(n));
    for (int r = 0; r < tp; ++r) {
      for (const int h : rank_kv_heads(n, tp, r)) out[static_cast<std::size_t>(h)].push_back(r);
    }
    return out;
  };
  const auto from = holders(src_tp);
  const auto to = holders(dst_tp);
  std::vector<HeadFlow> flows;
  for (int s = 0; s < src_tp; ++s) {
    for (int d = 0; d < dst_tp; ++d) {
      int heads = 0;
      for (std::size_t h = 0; h < from.size(); ++h) {
        for (std::size_t j = 0; j < to[h].size(); ++j) {
          heads += from[h][j % from[h].size()] == s && to[h][j] == d ? 1 : 0;
        }
      }
      if (heads > 0) flows.push_back({s, d, heads});
    }
  }
  return flows;
}

}  // namespace

TEST_CASE("kv_head_flows follows the per-head rule for every small layout") {
  for (int n = 1; n <= 12; ++n) {
    for (int src = 1; src <= 18; ++src) {
      for (int dst = 1; dst <= 18; ++dst) {
        CAPTURE(n);
        CAPTURE(src);
        CAPTURE(dst);
        CHECK(same(kv_head_flows(n, src, dst), flows_from_rank_heads(n, src, dst)));
      }
    }
  }
}
