#pragma once
// Throughput of the FP4 codec kernels (fp4_codec.hpp) against memcpy, for `lynxsim bench kernels`.
//
// Workload: the kernel benchmark's synthetic KV (bench_kernels.hpp: `layers × kv_heads` blocks of
// [tokens][channels] float32, Gaussian channels with outliers), each block one tensor. nvfp4 runs
// twice: with its tensor scale from the block's amax measured in the same call (the encode reads
// the block twice: amax, then the blocks) and with the amax given, as deployments run it with a
// calibrated per-tensor scale (one read); lynx-nvfp4 (lynx_nvfp4.hpp) encodes and decodes both of its
// planes, with the amax given.
// For each format: encode (float32 -> scales + packed nibbles) and decode (back to float32), on
// one thread, with the optimized kernels of config.isa and with the scalar oracle. The optimized
// kernels and a std::memcpy of the same float32 bytes run interleaved for config.rounds rounds,
// each pass after writing config.evict_bytes of scratch memory (so no pass finds its input in the
// cache), and each figure is the best pass in process CPU time; the oracle runs config.repeats
// passes. Unit: GB/s of float32 KV bytes (10^9), read by an encoder, written by a decoder, copied
// once by memcpy. Goal (issue 36): >= 1.0x memcpy for encode and decode of each format.

#include <string>

#include "sim/quant/bench_kernels.hpp"
#include "sim/quant/fp4_bench_result.hpp"

namespace lynxsim::quant {

Fp4KernelBenchResult bench_fp4_kernels(const KernelBenchConfig& config);

std::string format_fp4_kernel_bench(const Fp4KernelBenchResult& result);

}  // namespace lynxsim::quant
