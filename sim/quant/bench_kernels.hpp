#pragma once
// Throughput benchmark of the KV codec kernels on this machine.
//
// Workload: `layers × kv_heads` blocks of [tokens][channels] float32 drawn from Gaussian channels with
// a few outlier channels (splitmix64 + Box-Muller, fixed seed), quantized with `quant` (default: 8-bit,
// per-token groups of 128 channels). Three kernels:
//   quantize+pack = quantize into one plane of all the bits (the plain b-bit wire format),
//   encode = quantize + split into `split` (default 4+4) + pack,
//   decode = unpack + merge of every plane + dequantize,
// each for the scalar oracle (single thread), the optimized kernels on one thread and on `threads`
// threads (0 = all hardware threads), and std::memcpy of the same float32 bytes into a second buffer
// (one thread, and spread over the same threads). Each figure is the best of several timed passes
// over all blocks: `repeats` for the oracle; `rounds` for memcpy and the optimized kernels, which run
// interleaved (one pass of each per round) so that a change of load on a shared machine reaches a
// kernel and the memcpy it is compared with alike; before each of those passes `evict_bytes` of
// scratch memory are written (untimed; default 64 MiB, twice a 32 MiB last-level cache), so
// every pass reads its input from memory, not from what the previous pass left in the cache. Besides
// the best-of ratios the single-thread kernels report the median over rounds of the ratio within a
// round (memcpy and kernel timed moments apart), the steadier figure on a shared machine.
// Single-thread figures are timed in process CPU time (std::clock), so other programs competing for
// the cores do not distort them; multi-thread figures are wall time. The optimized rows use the
// config's kernel ISA (kernel_isa.hpp: by default AVX2 where the CPU has it, else the portable loops).
// Unit: GB/s = float32 KV bytes (tokens·channels·4 per block, 10^9 bytes per GB) per second, for
// every kernel alike: the bytes an encoder reads, the bytes a decoder writes. The memcpy rate counts
// the same bytes once (it reads and writes them), so a ratio to memcpy compares the time to turn
// float32 KV into wire bytes (or back) with the time to copy that float32 KV once. A codec moves
// fewer bytes than the copy (its wire side is b/32 of its float32 side), which is why it can beat
// it; a single-thread copy is the yardstick, not the memory bus's peak.
// Goals (issue 18), single thread vs single-thread memcpy: >= 1.25x for 8-bit quantize+pack,
// >= 1.0x for the 4+4 encode and for the decode; >= 4x the scalar oracle.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/quant/bench_formats.hpp"
#include "sim/quant/fp4_bench_result.hpp"
#include "sim/quant/kernel_isa.hpp"
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
  int repeats = 3;  // passes of the scalar oracle
  int rounds = 30;  // interleaved passes of memcpy and the optimized kernels
  std::size_t evict_bytes = std::size_t{64} << 20;  // written before each of those passes
  std::uint64_t seed = 1;
  KernelIsa isa = best_kernel_isa();
};

struct CodecThroughput {
  double quantize_pack_gbps = 0.0;  // one plane of quant.bits
  double encode_gbps = 0.0;         // planes of `split`
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
  CodecThroughput median_vs_memcpy;  // one thread: median over rounds of memcpy time / kernel time
  double memcpy_gbps = 0.0;          // one thread
  double memcpy_threads_gbps = 0.0;  // threads_used threads
  std::vector<FormatKernelRates> formats;  // the KV format kernels (bench_formats.hpp)
  Fp4KernelBenchResult fp4;

  double quantize_pack_vs_memcpy() const { return fast_single.quantize_pack_gbps / memcpy_gbps; }
  double encode_vs_memcpy() const { return fast_single.encode_gbps / memcpy_gbps; }
  double decode_vs_memcpy() const { return fast_single.decode_gbps / memcpy_gbps; }
  double quantize_pack_vs_reference() const {
    return fast_single.quantize_pack_gbps / reference.quantize_pack_gbps;
  }
  double encode_vs_reference() const { return fast_single.encode_gbps / reference.encode_gbps; }
  double decode_vs_reference() const { return fast_single.decode_gbps / reference.decode_gbps; }
};

KernelBenchResult bench_kernels(const KernelBenchConfig& config);

// The benchmark's [tokens][channels] float32 block: unit Gaussians, channels 0 and 2 of every row
// (even channel count) ten times wider as outliers; draws continue from `state` (splitmix64 +
// Box-Muller).
std::vector<float> synthetic_block(int tokens, int channels, std::uint64_t& state);

// A small fixed-width text table of the result with the ratios and the goals.
std::string format_kernel_bench(const KernelBenchResult& result);

}  // namespace lynxsim::quant
