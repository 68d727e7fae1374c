#pragma once
// Throughput of the CUDA FP4 kernels against a device-to-device copy, for `lynxsim bench kernels`.
//
// Workload: the CPU benchmark's synthetic KV (bench_kernels.hpp) as one [rows][channels] float32
// tensor, rows = layers · kv_heads · tokens, uploaded once. For nvfp4 with the tensor amax measured
// on the device (amax kernel + encode kernel), nvfp4 with it given, and mxfp4: encode, decode and
// cudaMemcpy device-to-device of the float32 input, each the best of config.rounds passes timed with
// CUDA events (cuda_backend::fp4_time_kernels). Unit: GB/s of float32 KV bytes, counted once, as in
// the CPU benchmark. Goal (issue 36): >= 0.7x of the device copy. Before timing, one block of
// tokens × channels is coded on the device and by the CPU oracle and the bytes and values compared.

#include <string>

#include "sim/quant/bench_kernels.hpp"

namespace lynxsim::quant {

// The table; throws std::runtime_error without a CUDA device.
std::string bench_fp4_kernels_cuda(const KernelBenchConfig& config);

}  // namespace lynxsim::quant
