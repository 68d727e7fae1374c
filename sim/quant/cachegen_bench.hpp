#pragma once
// Throughput of the CacheGen codec on one CPU thread, for `lynxsim bench kernels`.
//
// The benchmark encodes and decodes one layer's chunk of synthetic KV (per-channel Gaussian
// AR(1) keys with outlier channels, per-token-scaled Gaussian values; a fixed seed) with
// cachegen_encode / cachegen_decode, repeats, and keeps the fastest run of each, timed with the
// calling thread's CPU clock (CLOCK_THREAD_CPUTIME_ID) so that other processes sharing the machine
// do not count against the coder. Throughput is
//   MB/s = (bytes of the chunk's K and V in 16-bit form, 2 * 2 * tokens * channels) / 1e6 / seconds,
// i.e. how fast a BF16 KV cache goes through the whole codec (quantization, table building and
// range coding on the encode side; table parsing, range decoding and dequantization on the other).
//
// GPU default. CacheGen runs its coder as a CUDA kernel in which every thread codes an independent
// stream (one channel over a block of tokens), so thousands of coders run at once; each is far
// slower than a CPU core (lower clock, no out-of-order execution, divergent branches). We model the
// GPU coder's throughput as
//   gpu_mb_per_s = kCacheGenGpuSpeedupOverCpuThread * cpu_mb_per_s, with the factor 200,
// an assumption (about 130 SMs of an H100-class GPU, each worth about 1.5 CPU threads of range
// coding), not a measurement. With the 75-160 MB/s per thread this coder measures (1500 tokens x
// 1024 channels, 16-32 bins, x86-64 at -O3; decoding is the slower side) it puts the GPU coder at
// 15-30 GB/s of BF16 KV, fast enough to hide behind a multi-Gb/s link, as CacheGen reports.
// Calibrate against a GPU coder when one exists.

#include <cstddef>
#include <cstdint>

namespace lynxsim::quant {

inline constexpr double kCacheGenGpuSpeedupOverCpuThread = 200.0;

struct CacheGenBenchOptions {
  std::size_t num_tokens = 1500;
  std::size_t num_channels = 1024;  // 8 KV heads x 128
  int layer = 16;
  int num_layers = 32;
  int level = 1;
  bool delta = false;
  int repeats = 3;
  std::uint64_t seed = 1;
};

struct CacheGenThroughput {
  double encode_mb_per_s = 0.0;
  double decode_mb_per_s = 0.0;
  std::uint64_t input_bytes = 0;  // 16-bit K and V bytes coded per run
  std::uint64_t coded_bytes = 0;  // EncodedChunk::bytes() of the run
};

CacheGenThroughput cachegen_benchmark(const CacheGenBenchOptions& options = {});

// kCacheGenGpuSpeedupOverCpuThread * cpu_mb_per_s.
double cachegen_default_gpu_mb_per_s(double cpu_mb_per_s);

}  // namespace lynxsim::quant
