#pragma once
// Throughput of the CUDA codec kernels against a device-to-device copy on the same GPU.
//
// Workload: the CPU benchmark's synthetic KV (bench_kernels.hpp) as one [rows][channels] float32
// block, rows = layers · kv_heads · tokens, so that per-token groups are those of the separate
// blocks. Everything stays on the device: the input is uploaded once and each figure is the best
// of `rounds` passes timed with CUDA events (cuda_backend::time_kernels). Three kernels:
//   quantize+pack = group parameters, quantize and pack into one plane of quant.bits,
//   encode = the same with the planes of `split`,
//   decode = unpack + merge of every plane of `split` + dequantize,
// and cudaMemcpy device-to-device of the float32 input. Unit: GB/s of float32 KV bytes (10^9
// bytes), counted once for every kernel and for the copy, as in the CPU benchmark: a ratio to the
// copy compares turning float32 KV into wire bytes (or back) with copying it once on the device.
// Before timing, one block of the workload is encoded and decoded on the device and on the CPU's
// optimized kernels and the bytes and values compared (bit_exact).

#include <string>

#include "sim/quant/bench_kernels.hpp"

namespace lynxsim::quant {

struct CudaKernelBenchResult {
  KernelBenchConfig config;
  double input_gigabytes = 0.0;
  double quantize_pack_gbps = 0.0;
  double encode_gbps = 0.0;
  double decode_gbps = 0.0;
  double copy_gbps = 0.0;
  bool bit_exact = false;
};

// Throws std::runtime_error without a CUDA device (quant_cuda.hpp's cuda_available()).
CudaKernelBenchResult bench_kernels_cuda(const KernelBenchConfig& config);

std::string format_cuda_kernel_bench(const CudaKernelBenchResult& result);

}  // namespace lynxsim::quant
