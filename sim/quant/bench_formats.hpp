#pragma once
// Throughput of the KV format kernels (kv_format.hpp) in `lynxsim bench kernels`, on the CPU
// benchmark's workload (bench_kernels.hpp: layers × kv_heads synthetic [tokens][channels] blocks).
//
// Each format is a FormatKernel: an encode of one block of the workload into storage of its own and
// a decode of that block back to float32. One thread, the config's kernel ISA; per round, every
// format's encode pass and decode pass over all blocks and a memcpy pass of the same float32 bytes,
// each after the caches were flushed (config.evict_bytes written, untimed), each timed in process
// CPU time; the best of config.rounds. Unit and ratio as in bench_kernels.hpp: GB/s of float32 KV
// bytes, against a single-thread memcpy of those bytes measured in the same rounds (goal >= 1.0x for
// encode and decode). Per-tensor formats use the scale calibrated from the workload's absolute
// maximum (calibration is once per layer in an engine, not part of the timed encode).
// Before timing, every format's kernels are checked against its scalar reference on the first block
// (bit_exact). A format with kernels elsewhere joins by appending its FormatKernels to
// format_kernels() (bench_formats.cpp).
//
// CUDA: the scaled formats' kernels on the device (scaled_backend.hpp's time_scaled_kernels) on the
// CUDA benchmark's workload (one block of layers · kv_heads · tokens rows), against a
// device-to-device copy of the same float32 bytes; bit_exact compares one block with the CPU.

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "sim/quant/kernel_isa.hpp"
#include "sim/quant/tensor_view.hpp"

namespace lynxsim::quant {

struct KernelBenchConfig;

struct FormatKernel {
  std::string name;
  std::function<void(std::size_t block, BlockView input)> prepare;  // untimed (a per-tensor scale's calibration)
  std::function<void(std::size_t block, BlockView input)> encode;
  std::function<void(std::size_t block, MutableBlockView output)> decode;
  std::function<bool(BlockView input)> matches_reference;
};

// The formats' kernels for a workload of `blocks` blocks, with the given instruction set.
std::vector<FormatKernel> format_kernels(std::size_t blocks, KernelIsa isa);

struct FormatKernelRates {
  std::string name;
  double encode_gbps = 0.0;
  double decode_gbps = 0.0;
  double memcpy_gbps = 0.0;  // device copy for the CUDA rows
  bool bit_exact = false;
};

std::vector<FormatKernelRates> bench_format_kernels(const KernelBenchConfig& config);
std::string format_format_kernels(const std::vector<FormatKernelRates>& rates);

// Throws std::runtime_error without a CUDA device.
std::vector<FormatKernelRates> bench_format_kernels_cuda(const KernelBenchConfig& config);
std::string format_cuda_format_kernels(const std::vector<FormatKernelRates>& rates);

}  // namespace lynxsim::quant
