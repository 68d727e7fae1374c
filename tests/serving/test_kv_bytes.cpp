#include <doctest/doctest.h>

#include <stdexcept>

#include "sim/serving/kv_bytes.hpp"

using namespace lynxsim;
using namespace lynxsim::serving;

namespace {
const KvGeometry kLlama8b{"llama-3.1-8b", 32, 8, 32, 128, 500000.0};
constexpr std::int64_t kTokens = 1000;

std::int64_t sum(const std::vector<Bytes>& planes) {
  std::int64_t s = 0;
  for (const Bytes b : planes) s += b.value;
  return s;
}
}  // namespace

TEST_CASE("bf16 bytes are 2 * layers * kv_heads * head_dim * 2 per token") {
  const auto planes = total_plane_bytes(quant::method_from_name("bf16"), kLlama8b, 1, kTokens);
  REQUIRE(planes.size() == 1);
  CHECK(planes[0].value == kTokens * 128 * 1024);
}

TEST_CASE("int8 and int4 bytes are packed codes plus a 16-bit scale and zero per group") {
  const std::int64_t per_block_meta = kTokens * 4;
  const std::int64_t blocks = 2 * 8 * 32;
  CHECK(sum(total_plane_bytes(quant::method_from_name("int8"), kLlama8b, 1, kTokens)) ==
        blocks * (kTokens * 128 + per_block_meta));
  CHECK(sum(total_plane_bytes(quant::method_from_name("int4"), kLlama8b, 1, kTokens)) ==
        blocks * (kTokens * 64 + per_block_meta));
}

TEST_CASE("lynx planes add up to int8 and its anchor equals int4") {
  const auto int8 = total_plane_bytes(quant::method_from_name("int8"), kLlama8b, 1, kTokens);
  const auto int4 = total_plane_bytes(quant::method_from_name("int4"), kLlama8b, 1, kTokens);
  for (const char* name : {"lynx", "lynx-2+2+4", "lynx-3+5", "lynx-1+1+2+4"}) {
    CAPTURE(name);
    CHECK(sum(total_plane_bytes(quant::method_from_name(name), kLlama8b, 1, kTokens)) == int8[0].value);
  }
  const auto lynx = total_plane_bytes(quant::method_from_name("lynx"), kLlama8b, 1, kTokens);
  REQUIRE(lynx.size() == 2);
  CHECK(lynx[0] == int4[0]);
  CHECK(lynx[1].value == 2 * 8 * 32 * kTokens * 64);
}

TEST_CASE("kivi keeps the recent window in 16-bit and quantizes whole groups") {
  const quant::MethodSpec kivi2 = quant::method_from_name("kivi2");
  const std::int64_t t = 1000;
  const std::int64_t quantized = (t - 128) / 32 * 32;
  const std::int64_t key = quantized * 128 * 2 / 8 + quantized / 32 * 128 * 4;
  const std::int64_t value = quantized * 128 * 2 / 8 + quantized * 4 * 4;
  const std::int64_t recent = 2 * (t - quantized) * 128 * 2;
  CHECK(sum(total_plane_bytes(kivi2, kLlama8b, 1, t)) == 8 * 32 * (key + value + recent));
  CHECK(sum(total_plane_bytes(kivi2, kLlama8b, 1, 100)) ==
        sum(total_plane_bytes(quant::method_from_name("bf16"), kLlama8b, 1, 100)));
}

TEST_CASE("tensor parallelism beyond the KV heads replicates heads") {
  const auto bf16 = quant::method_from_name("bf16");
  const auto tp1 = total_plane_bytes(bf16, kLlama8b, 1, kTokens);
  CHECK(total_plane_bytes(bf16, kLlama8b, 8, kTokens)[0] == tp1[0]);
  CHECK(total_plane_bytes(bf16, kLlama8b, 16, kTokens)[0].value == 2 * tp1[0].value);
  CHECK(kv_heads_per_rank(8, 2) == 4);
  CHECK(kv_heads_per_rank(4, 8) == 1);
}

TEST_CASE("KV formats: one byte per element plus their float32 scales") {
  const std::int64_t blocks = 2 * 8 * 32;
  const std::int64_t codes = blocks * kTokens * 128;
  // One float32 scale per layer for K and for V, whatever the heads and tokens.
  for (const char* name : {"fp8-e4m3", "fp8-e5m2"}) {
    const auto planes = total_plane_bytes(quant::method_from_name(name), kLlama8b, 1, kTokens);
    REQUIRE(planes.size() == 1);
    CHECK(planes[0].value == codes + 2 * 32 * 4);
  }
  // One float32 scale per token and KV head.
  for (const char* name : {"int8-pth", "fp8-pth"}) {
    CHECK(sum(total_plane_bytes(quant::method_from_name(name), kLlama8b, 1, kTokens)) == codes + blocks * kTokens * 4);
  }
}

TEST_CASE("Lynx over FP8: the planes split the codes, the scales go with the anchor, the sum is the format") {
  const auto fp8 = total_plane_bytes(quant::method_from_name("fp8-e4m3"), kLlama8b, 1, kTokens);
  const auto split = total_plane_bytes(quant::method_from_name("lynx-e4m3-5+3"), kLlama8b, 1, kTokens);
  REQUIRE(split.size() == 2);
  const std::int64_t blocks = 2 * 8 * 32;
  CHECK(split[0].value == blocks * kTokens * 128 * 5 / 8 + 2 * 32 * 4);
  CHECK(split[1].value == blocks * kTokens * 128 * 3 / 8);
  CHECK(sum(split) == fp8[0].value);
}

TEST_CASE("FP4 formats: half a byte per element, a scale byte per block, nvfp4's float32 tensor scale") {
  const std::int64_t blocks = 2 * 8 * 32;
  const std::int64_t elements = blocks * kTokens * 128;
  const auto nv = total_plane_bytes(quant::method_from_name("nvfp4"), kLlama8b, 1, kTokens);
  REQUIRE(nv.size() == 1);
  CHECK(nv[0].value == elements / 2 + elements / 16 + 2 * 32 * 4);
  const auto mx = total_plane_bytes(quant::method_from_name("mxfp4"), kLlama8b, 1, kTokens);
  REQUIRE(mx.size() == 1);
  CHECK(mx[0].value == elements / 2 + elements / 32);
}

TEST_CASE("lynx-nvfp4: the nvfp4 bytes as the anchor plane, a 4-bit residual as the second") {
  const std::int64_t elements = 2 * 8 * 32 * kTokens * 128;
  const auto nv = total_plane_bytes(quant::method_from_name("nvfp4"), kLlama8b, 1, kTokens);
  const auto lynx = total_plane_bytes(quant::method_from_name("lynx-nvfp4"), kLlama8b, 1, kTokens);
  REQUIRE(lynx.size() == 2);
  CHECK(lynx[0].value == nv[0].value);
  CHECK(lynx[1].value == elements / 2);
  // The integer 4+4 split with groups of 64 has the same anchor and total bytes, but for nvfp4's
  // 4-byte tensor scales.
  quant::MethodSpec int44 = quant::method_from_name("lynx-4+4");
  int44.group_size = 64;
  const auto integer = total_plane_bytes(int44, kLlama8b, 1, kTokens);
  CHECK(lynx[0].value == integer[0].value + 2 * 32 * 4);
  CHECK(lynx[1].value == integer[1].value);
}
