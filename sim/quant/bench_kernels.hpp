#pragma once
// Throughput benchmark of the KV codec kernels on this machine.
//
// Workload: `layers × kv_heads` blocks of [tokens][channels] float32 drawn from Gaussian channels with
// a few outlier channels (splitmix64 + Box-Muller, fixed seed), encoded with `quant` split as `split`
// (default: 8-bit, per-token groups of 128 channels, planes 4+4) and decoded from every plane.
// Measured, each as the best of `repeats` timed passes over all blocks:
//   encode = quantize + split + pack,  decode = unpack + merge + dequantize,
// for the scalar oracle (single thread), the optimized kernel on one thread and on `threads`
// threads (0 = all hardware threads), and std::memcpy of the same float32 input bytes into a second
// buffer (one thread, and spread over the same threads).
// Single-thread figures are timed in process CPU time (std::clock), so other programs competing for
// the cores do not distort the ratios; multi-thread figures are wall time. The optimized rows use the
// active kernel ISA (kernel_isa.hpp: AVX2 where the CPU has it, else the portable loops).
// Unit: GB/s = float32 input bytes (tokens·channels·4 per block, 10^9 bytes per GB) per second, for
// encode and decode alike (decode writes those bytes). The memcpy rate counts the same bytes once.
// Goals the optimized kernel is held to: single thread >= 4x the oracle and >= 0.5x memcpy.

#include <cstdint>
#include <string>

#include "sim/quant/planes.hpp"
#include "sim/quant/quant_config.hpp"

namespace lynxsim::quant {

struct KernelBenchConfig {
  int layers = 2;
  int kv_heads = 8;
  int tokens = 4096;
  int channels = 128;
  QuantConfig quant{8, GroupAxis::per_token, 128, false};
  PlaneSplit split{{4, 4}};
  int threads = 0;
  int repeats = 3;
  std::uint64_t seed = 1;
};

struct CodecThroughput {
  double encode_gbps = 0.0;
  double decode_gbps = 0.0;
};

struct KernelBenchResult {
  KernelBenchConfig config;
  std::string kernel_isa;  // the optimized kernels' instruction set (kernel_isa.hpp)
  int threads_used = 1;
  double input_gigabytes = 0.0;  // float32 bytes of all blocks / 1e9
  CodecThroughput reference;
  CodecThroughput fast_single;
  CodecThroughput fast_threads;
  double memcpy_gbps = 0.0;          // one thread
  double memcpy_threads_gbps = 0.0;  // threads_used threads

  double encode_speedup_vs_reference() const { return fast_single.encode_gbps / reference.encode_gbps; }
  double decode_speedup_vs_reference() const { return fast_single.decode_gbps / reference.decode_gbps; }
  double encode_vs_memcpy() const { return fast_single.encode_gbps / memcpy_gbps; }
  double decode_vs_memcpy() const { return fast_single.decode_gbps / memcpy_gbps; }
};

KernelBenchResult bench_kernels(const KernelBenchConfig& config);

// A small fixed-width text table of the result with the ratios and the goals.
std::string format_kernel_bench(const KernelBenchResult& result);

}  // namespace lynxsim::quant
