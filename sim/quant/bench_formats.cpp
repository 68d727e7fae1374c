#include "sim/quant/bench_formats.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <ctime>
#include <fmt/format.h>
#include <memory>

#include "sim/quant/bench_kernels.hpp"
#include "sim/quant/cuda/scaled_backend.hpp"
#include "sim/quant/kv_format.hpp"
#include "sim/quant/quant_cuda.hpp"
#include "sim/quant/scaled_cuda.hpp"

namespace lynxsim::quant {
namespace {

bool same_floats(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](float x, float y) {
           return std::bit_cast<std::uint32_t>(x) == std::bit_cast<std::uint32_t>(y);
         });
}

ScaledConfig bench_config(const KvFormatInfo& info, BlockView sample) {
  if (info.scales == ScaleLayout::per_token_head) return {*info.scaled_code, ScaleScope::per_token, 1.0F};
  return {*info.scaled_code, ScaleScope::per_tensor, amax_scale(sample, *info.scaled_code)};
}

bool scaled_matches(const KvFormatInfo& info, BlockView input, KernelIsa isa) {
  const ScaledConfig config = bench_config(info, input);
  const ScaledBlock ref = encode_scaled_reference(input, config);
  const ScaledBlock fast = encode_scaled_fast(input, config, isa);
  std::vector<float> a(input.size());
  std::vector<float> b(input.size());
  decode_scaled_reference(ref, MutableBlockView(a, input.tokens, input.channels));
  decode_scaled_fast(fast, MutableBlockView(b, input.tokens, input.channels), isa);
  return ref.codes == fast.codes && ref.scales == fast.scales && same_floats(a, b);
}

FormatKernel scaled_kernel(const KvFormatInfo& info, std::size_t blocks, KernelIsa isa) {
  auto storage = std::make_shared<std::vector<ScaledBlock>>(blocks);
  auto configs = std::make_shared<std::vector<ScaledConfig>>(blocks);
  return {std::string(info.name),
          [configs, &info](std::size_t b, BlockView input) { (*configs)[b] = bench_config(info, input); },
          [storage, configs, isa](std::size_t b, BlockView input) {
            encode_scaled_fast_into(input, (*configs)[b], (*storage)[b], isa);
          },
          [storage, isa](std::size_t b, MutableBlockView output) { decode_scaled_fast((*storage)[b], output, isa); },
          [&info, isa](BlockView input) { return scaled_matches(info, input, isa); }};
}

double cpu_seconds(const std::function<void()>& pass) {
  const std::clock_t start = std::clock();
  pass();
  return std::max(static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC, 1e-9);
}

struct BenchBlocks {
  std::vector<std::vector<float>> inputs;
  std::vector<std::vector<float>> outputs;
  std::vector<std::uint8_t> scratch;
};

BenchBlocks bench_blocks(const KernelBenchConfig& c) {
  BenchBlocks w;
  std::uint64_t state = c.seed;
  for (int b = 0; b < c.layers * c.kv_heads; ++b) {
    w.inputs.push_back(synthetic_block(c.tokens, c.channels, state));
    w.outputs.emplace_back(w.inputs.back().size(), 0.0F);
  }
  w.scratch.assign(c.evict_bytes, 0);
  return w;
}

// Best CPU time of each pass over `rounds`, every pass after the caches were flushed.
std::vector<double> best_of_rounds(int rounds, const std::vector<std::function<void()>>& passes,
                                   std::vector<std::uint8_t>& scratch) {
  std::vector<double> best(passes.size(), 1e300);
  for (int r = 0; r < std::max(1, rounds); ++r) {
    for (std::size_t p = 0; p < passes.size(); ++p) {
      std::memset(scratch.data(), r + static_cast<int>(p), scratch.size());
      best[p] = std::min(best[p], cpu_seconds(passes[p]));
    }
  }
  return best;
}

struct RateColumns {
  const char* baseline;
  const char* encode_ratio;
  const char* decode_ratio;
  const char* check;
};

// The table of encode and decode rates against a baseline copy, `digits` decimals for GB/s.
std::string rate_table(std::string out, const RateColumns& columns, int digits,
                       const std::vector<FormatKernelRates>& rates) {
  out += fmt::format("  {:<12} {:>10} {:>10} {:>10} {:>9} {:>9}  {}\n", "format", "encode", "decode", columns.baseline,
                     columns.encode_ratio, columns.decode_ratio, columns.check);
  for (const FormatKernelRates& r : rates) {
    out += fmt::format("  {:<12} {:>10.{}f} {:>10.{}f} {:>10.{}f} {:>8.2f}x {:>8.2f}x  {}\n", r.name, r.encode_gbps, digits,
                       r.decode_gbps, digits, r.memcpy_gbps, digits, r.encode_gbps / r.memcpy_gbps,
                       r.decode_gbps / r.memcpy_gbps, r.bit_exact ? "yes" : "NO");
  }
  return out;
}

}  // namespace

std::vector<FormatKernel> format_kernels(std::size_t blocks, KernelIsa isa) {
  std::vector<FormatKernel> kernels;
  for (const KvFormatInfo& info : kv_formats()) {
    if (info.scaled_code) kernels.push_back(scaled_kernel(info, blocks, isa));
  }
  return kernels;
}

std::vector<FormatKernelRates> bench_format_kernels(const KernelBenchConfig& c) {
  BenchBlocks w = bench_blocks(c);
  const auto view = [&c](const std::vector<float>& x) { return BlockView(x, c.tokens, c.channels); };
  const std::vector<FormatKernel> kernels = format_kernels(w.inputs.size(), c.isa);
  for (const FormatKernel& k : kernels) {
    for (std::size_t b = 0; b < w.inputs.size(); ++b) k.prepare(b, view(w.inputs[b]));
  }
  std::vector<std::function<void()>> passes{[&w] {
    for (std::size_t b = 0; b < w.inputs.size(); ++b) {
      std::memcpy(w.outputs[b].data(), w.inputs[b].data(), w.inputs[b].size() * sizeof(float));
    }
  }};
  for (const FormatKernel& k : kernels) {
    passes.emplace_back([&, k] { for (std::size_t b = 0; b < w.inputs.size(); ++b) k.encode(b, view(w.inputs[b])); });
    passes.emplace_back([&, k] {
      for (std::size_t b = 0; b < w.inputs.size(); ++b) k.decode(b, MutableBlockView(w.outputs[b], c.tokens, c.channels));
    });
  }
  const std::vector<double> best = best_of_rounds(c.rounds, passes, w.scratch);
  const double gb = static_cast<double>(w.inputs.size() * w.inputs.front().size() * sizeof(float)) / 1e9;
  std::vector<FormatKernelRates> rates;
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    rates.push_back({kernels[i].name, gb / best[1 + 2 * i], gb / best[2 + 2 * i], gb / best[0],
                     kernels[i].matches_reference(view(w.inputs.front()))});
  }
  return rates;
}

std::string format_format_kernels(const std::vector<FormatKernelRates>& rates) {
  return rate_table("\nKV format kernels (1 thread, same blocks; GB/s of float32 KV, ratio to memcpy 1 thread):\n",
                    {"memcpy", "enc/mcp", "dec/mcp", "bit-exact vs reference"}, 2, rates) +
         "  goal >= 1.0x encode and decode\n";
}

std::vector<FormatKernelRates> bench_format_kernels_cuda(const KernelBenchConfig& c) {
  const int rows = c.layers * c.kv_heads * c.tokens;
  std::uint64_t state = c.seed;
  const std::vector<float> input = synthetic_block(rows, c.channels, state);
  const BlockView whole(input, rows, c.channels);
  const BlockView first(std::span<const float>(input).first(static_cast<std::size_t>(c.tokens) * c.channels),
                        c.tokens, c.channels);
  const double gb = static_cast<double>(input.size() * sizeof(float)) / 1e9;
  std::vector<FormatKernelRates> rates;
  for (const KvFormatInfo& info : kv_formats()) {
    if (!info.scaled_code) continue;
    const ScaledConfig config = bench_config(info, whole);
    const ScaledBlock gpu = encode_scaled_cuda(first, config);
    std::vector<float> a(first.size());
    std::vector<float> b(first.size());
    decode_scaled_cuda(gpu, MutableBlockView(a, c.tokens, c.channels));
    const ScaledBlock ref = encode_scaled_reference(first, config);
    decode_scaled_reference(ref, MutableBlockView(b, c.tokens, c.channels));
    const auto t = cuda_backend::time_scaled_kernels({rows, c.channels, config.code, config.scope == ScaleScope::per_token},
                                                     input.data(), config.tensor_scale, c.rounds);
    rates.push_back({std::string(info.name), gb / t.encode_s, gb / t.decode_s, gb / t.copy_s,
                     gpu.codes == ref.codes && gpu.scales == ref.scales && same_floats(a, b)});
  }
  return rates;
}

std::string format_cuda_format_kernels(const std::vector<FormatKernelRates>& rates) {
  return rate_table("\nCUDA KV format kernels (device-resident; GB/s of float32 KV, ratio to a device copy):\n",
                    {"copy", "enc/copy", "dec/copy", "bit-exact vs CPU reference"}, 1, rates);
}

}  // namespace lynxsim::quant
