#include <doctest/doctest.h>

#include "sim/quant/fp4_bench.hpp"

using namespace lynxsim::quant;

TEST_CASE("FP4 kernel benchmark runs on a small workload and prints every format against memcpy") {
  KernelBenchConfig config;
  config.layers = 1;
  config.kv_heads = 2;
  config.tokens = 64;
  config.repeats = 1;
  config.rounds = 2;
  config.evict_bytes = 1 << 16;
  const Fp4KernelBenchResult result = bench_fp4_kernels(config);
  CHECK(result.input_gigabytes == doctest::Approx(2 * 64 * 128 * 4 / 1e9));
  CHECK(result.memcpy_gbps > 0.0);
  for (const Fp4FormatRates& f : result.formats) {
    CHECK(f.encode_gbps > 0.0);
    CHECK(f.decode_gbps > 0.0);
    CHECK(f.oracle_encode_gbps > 0.0);
    CHECK(f.oracle_decode_gbps > 0.0);
  }
  const std::string table = format_fp4_kernel_bench(result);
  CHECK(table.find("nvfp4 (own amax)") != std::string::npos);
  CHECK(table.find("nvfp4 (given amax)") != std::string::npos);
  CHECK(table.find("mxfp4") != std::string::npos);
  CHECK(table.find("lynx-nvfp4 (given amax)") != std::string::npos);
}
