#include "sim/quant/fp4_bench_cuda.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <span>
#include <vector>

#include "sim/quant/cuda/fp4_backend.hpp"
#include "sim/quant/fp4_codec.hpp"
#include "sim/quant/fp4_cuda.hpp"

namespace lynxsim::quant {
namespace {

bool matches_oracle(const std::vector<float>& input, const KernelBenchConfig& c, Fp4Format format) {
  const std::span<const float> first(input.data(), static_cast<std::size_t>(c.tokens) * static_cast<std::size_t>(c.channels));
  const BlockView block(first, c.tokens, c.channels);
  const Fp4Encoded gpu = encode_fp4_cuda(block, format);
  const Fp4Encoded cpu = encode_fp4_reference(block, format);
  if (gpu.scales != cpu.scales || gpu.codes != cpu.codes ||
      std::bit_cast<std::uint32_t>(gpu.tensor_scale) != std::bit_cast<std::uint32_t>(cpu.tensor_scale)) {
    return false;
  }
  std::vector<float> gpu_out(block.size());
  std::vector<float> cpu_out(block.size());
  decode_fp4_cuda(gpu, MutableBlockView(gpu_out, c.tokens, c.channels));
  decode_fp4_reference(cpu, MutableBlockView(cpu_out, c.tokens, c.channels));
  return std::equal(gpu_out.begin(), gpu_out.end(), cpu_out.begin(),
                    [](float a, float b) { return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b); });
}

}  // namespace

std::string bench_fp4_kernels_cuda(const KernelBenchConfig& config) {
  const int rows = config.layers * config.kv_heads * config.tokens;
  std::uint64_t state = config.seed;
  const std::vector<float> input = synthetic_block(rows, config.channels, state);
  float amax = 0.0F;
  for (float v : input) {
    amax = std::max(amax, std::fabs(v));
  }
  const double gb = static_cast<double>(input.size() * sizeof(float)) / 1e9;
  char line[200];
  std::snprintf(line, sizeof line, "\nCUDA FP4 kernels: %d rows x %d channels (%.3f GB float32), best of %d rounds\n",
                rows, config.channels, gb, config.rounds);
  std::string out = line;
  for (int f = 0; f < 3; ++f) {
    const Fp4Format format = f == 2 ? Fp4Format::mxfp4 : Fp4Format::nvfp4;
    cuda_backend::Fp4Shape shape;
    shape.nvfp4 = format == Fp4Format::nvfp4;
    shape.blocks = input.size() / static_cast<std::size_t>(fp4_block_size(format));
    shape.given_amax = f == 1;
    shape.tensor_amax = amax;
    const cuda_backend::DeviceTimes t = cuda_backend::fp4_time_kernels(shape, input.data(), config.rounds);
    const char* variant = f == 0 ? " (own amax)" : f == 1 ? " (given amax)" : "";
    std::snprintf(line, sizeof line,
                  "  %-18s encode %8.1f GB/s (%.2fx copy)  decode %8.1f GB/s (%.2fx copy)  copy %8.1f GB/s  "
                  "bit-exact: %s\n",
                  (to_string(format) + variant).c_str(), gb / t.encode_s, t.copy_s / t.encode_s, gb / t.decode_s,
                  t.copy_s / t.decode_s, gb / t.copy_s, matches_oracle(input, config, format) ? "yes" : "NO");
    out += line;
  }
  return out + "  goal: >= 0.7x of the device copy\n";
}

}  // namespace lynxsim::quant
