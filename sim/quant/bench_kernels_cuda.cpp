#include "sim/quant/bench_kernels_cuda.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "sim/quant/cuda/cuda_backend.hpp"
#include "sim/quant/plane_codec.hpp"
#include "sim/quant/quant_cuda.hpp"

namespace lynxsim::quant {
namespace {

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::bit_cast<std::uint32_t>(a[i]) != std::bit_cast<std::uint32_t>(b[i])) return false;
  }
  return a.size() == b.size();
}

// One block encoded and decoded by the CUDA kernels and by the CPU's optimized kernels.
bool matches_cpu(const std::vector<float>& input, const KernelBenchConfig& c) {
  const BlockView view(input, c.tokens, c.channels);
  const PlaneEncoded gpu = encode_planes_cuda(view, c.quant, c.split);
  const PlaneEncoded cpu = encode_planes_fast(view, c.quant, c.split, c.isa);
  if (gpu.planes != cpu.planes) return false;
  std::vector<float> gpu_out(input.size());
  std::vector<float> cpu_out(input.size());
  decode_planes_cuda(gpu, c.split.num_planes(), MutableBlockView(gpu_out, c.tokens, c.channels));
  decode_planes_fast(cpu, c.split.num_planes(), MutableBlockView(cpu_out, c.tokens, c.channels), c.isa);
  return same_bits(gpu_out, cpu_out);
}

}  // namespace

CudaKernelBenchResult bench_kernels_cuda(const KernelBenchConfig& config) {
  if (!cuda_available()) throw std::runtime_error("CUDA kernel benchmark: no CUDA device is available");
  if (config.layers < 1 || config.kv_heads < 1 || config.tokens < 1 || config.channels < 1) {
    throw std::invalid_argument("kernel benchmark: layers, kv_heads, tokens and channels must be >= 1");
  }
  config.split.validate(config.quant.bits);
  CudaKernelBenchResult result;
  result.config = config;
  const int rows = config.layers * config.kv_heads * config.tokens;
  std::uint64_t state = config.seed;
  const std::vector<float> input = synthetic_block(rows, config.channels, state);
  const std::vector<float> first(input.begin(),
                                 input.begin() + static_cast<std::ptrdiff_t>(config.tokens) * config.channels);
  result.bit_exact = matches_cpu(first, config);
  result.input_gigabytes = static_cast<double>(input.size() * sizeof(float)) / 1e9;
  const double gb = result.input_gigabytes;
  const PlaneSplit one_plane{{config.quant.bits}};
  const auto single = cuda_backend::time_kernels(cuda_codec_shape(config.quant, one_plane, rows, config.channels),
                                                 input.data(), config.rounds);
  const auto split = cuda_backend::time_kernels(cuda_codec_shape(config.quant, config.split, rows, config.channels),
                                                input.data(), config.rounds);
  result.quantize_pack_gbps = gb / single.encode_s;
  result.encode_gbps = gb / split.encode_s;
  result.decode_gbps = gb / split.decode_s;
  result.copy_gbps = gb / std::min(single.copy_s, split.copy_s);
  return result;
}

std::string format_cuda_kernel_bench(const CudaKernelBenchResult& r) {
  const KernelBenchConfig& c = r.config;
  const std::string split = to_string(c.split);
  char out[1024];
  std::snprintf(out, sizeof out,
                "\nCUDA kernels: %d x %d x %d rows x %d channels (%.3f GB float32), %d-bit %s groups of %d,\n"
                "  device-resident, best of %d rounds (CUDA events); the device copy moves the same float32 "
                "bytes\n"
                "  %-32s %14s %12s %12s %12s\n"
                "  %-32s %14.1f %12.1f %12.1f %12.1f\n"
                "  %-32s %13.2fx %11.2fx %11.2fx\n"
                "  bit-exact against the CPU kernels on one %d x %d block: %s\n",
                c.layers, c.kv_heads, c.tokens, c.channels, r.input_gigabytes, c.quant.bits,
                to_string(c.quant.group_axis).c_str(), c.quant.group_size, c.rounds, "kernel",
                (std::to_string(c.quant.bits) + "-bit q+pack").c_str(), (split + " encode").c_str(),
                (split + " decode").c_str(), "device copy", "GB/s", r.quantize_pack_gbps, r.encode_gbps,
                r.decode_gbps, r.copy_gbps, "ratio to the device copy", r.quantize_pack_gbps / r.copy_gbps,
                r.encode_gbps / r.copy_gbps, r.decode_gbps / r.copy_gbps, c.tokens, c.channels,
                r.bit_exact ? "yes" : "NO");
  return out;
}

}  // namespace lynxsim::quant
