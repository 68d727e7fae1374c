#include <doctest/doctest.h>

#include "sim/quant/bench_kernels.hpp"

using namespace lynxsim::quant;

TEST_CASE("kernel benchmark runs on a small workload and reports positive rates") {
  KernelBenchConfig config;
  config.layers = 1;
  config.kv_heads = 2;
  config.tokens = 256;
  config.threads = 2;
  config.repeats = 1;
  config.rounds = 2;
  config.evict_bytes = 1 << 16;
  const KernelBenchResult result = bench_kernels(config);
  CHECK(result.input_gigabytes == doctest::Approx(2 * 256 * 128 * 4 / 1e9));
  CHECK(result.threads_used == 2);
  CHECK(result.reference.encode_gbps > 0.0);
  CHECK(result.reference.quantize_pack_gbps > 0.0);
  CHECK(result.fast_single.quantize_pack_gbps > 0.0);
  CHECK(result.fast_single.decode_gbps > 0.0);
  CHECK(result.fast_threads.encode_gbps > 0.0);
  CHECK(result.memcpy_gbps > 0.0);
  CHECK(result.memcpy_threads_gbps > 0.0);
  CHECK(result.median_vs_memcpy.quantize_pack_gbps > 0.0);
  CHECK(result.median_vs_memcpy.decode_gbps > 0.0);
  const std::string table = format_kernel_bench(result);
  CHECK(table.find("optimized (2 threads)") != std::string::npos);
  CHECK(table.find("8-bit q+pack") != std::string::npos);
  CHECK(table.find("1 thread / memcpy 1 thread") != std::string::npos);
  CHECK(table.find("1 thread / scalar oracle") != std::string::npos);
  CHECK(table.find("median of per-round ratios") != std::string::npos);
  CHECK(table.find("memcpy reads N bytes and writes N") != std::string::npos);
}

TEST_CASE("kernel benchmark times every KV format's kernels against memcpy, bit-exact") {
  KernelBenchConfig config;
  config.layers = 1;
  config.kv_heads = 2;
  config.tokens = 64;
  config.rounds = 2;
  config.evict_bytes = 1 << 16;
  const std::vector<FormatKernelRates> rates = bench_format_kernels(config);
  REQUIRE(rates.size() == 4);
  for (const FormatKernelRates& r : rates) {
    CAPTURE(r.name);
    CHECK(r.bit_exact);
    CHECK(r.encode_gbps > 0.0);
    CHECK(r.decode_gbps > 0.0);
    CHECK(r.memcpy_gbps > 0.0);
  }
  CHECK(format_format_kernels(rates).find("fp8-e4m3") != std::string::npos);
}
