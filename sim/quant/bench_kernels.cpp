#include "sim/quant/bench_kernels.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <stdexcept>
#include <thread>
#include <vector>

#include "sim/quant/kernel_isa.hpp"
#include "sim/quant/plane_codec.hpp"

namespace lynxsim::quant {
namespace {

struct Workload {
  std::vector<std::vector<float>> inputs;
  std::vector<std::vector<float>> outputs;
  std::vector<BlockView> input_views;
  std::vector<MutableBlockView> output_views;
  std::vector<PlaneEncoded> encoded;
};

double next_uniform(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return (static_cast<double>(z >> 11) + 0.5) * 0x1.0p-53;
}

std::vector<float> synthetic_block(int tokens, int channels, std::uint64_t& state) {
  std::vector<float> x(static_cast<std::size_t>(tokens) * static_cast<std::size_t>(channels));
  for (std::size_t i = 0; i < x.size(); i += 2) {
    const double radius = std::sqrt(-2.0 * std::log(next_uniform(state)));
    const double angle = 6.283185307179586 * next_uniform(state);
    const double outlier = (i % static_cast<std::size_t>(channels)) < 4 ? 10.0 : 1.0;
    x[i] = static_cast<float>(outlier * radius * std::cos(angle));
    if (i + 1 < x.size()) {
      x[i + 1] = static_cast<float>(radius * std::sin(angle));
    }
  }
  return x;
}

Workload make_workload(const KernelBenchConfig& config) {
  Workload w;
  std::uint64_t state = config.seed;
  const int blocks = config.layers * config.kv_heads;
  for (int b = 0; b < blocks; ++b) {
    w.inputs.push_back(synthetic_block(config.tokens, config.channels, state));
    w.outputs.emplace_back(w.inputs.back().size(), 0.0F);
  }
  for (int b = 0; b < blocks; ++b) {
    w.input_views.emplace_back(w.inputs[static_cast<std::size_t>(b)], config.tokens, config.channels);
    w.output_views.emplace_back(w.outputs[static_cast<std::size_t>(b)], config.tokens, config.channels);
  }
  w.encoded.resize(static_cast<std::size_t>(blocks));
  return w;
}

enum class Clock { process_cpu, wall };

// Best of `repeats` runs of pass(), in seconds of process CPU time (single-thread passes: immune to
// other programs competing for the cores) or of wall time (multi-thread passes).
template <typename Pass>
double best_seconds(int repeats, Clock clock, const Pass& pass) {
  double best = 1e300;
  for (int r = 0; r < std::max(1, repeats); ++r) {
    const std::clock_t cpu_start = std::clock();
    const auto wall_start = std::chrono::steady_clock::now();
    pass();
    const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - wall_start;
    const double cpu = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    const double seconds = clock == Clock::wall ? wall.count() : cpu;
    best = std::min(best, std::max(seconds, 1e-9));
  }
  return best;
}

Clock clock_for(int threads) { return threads <= 1 ? Clock::process_cpu : Clock::wall; }

void copy_blocks(Workload& w, int threads) {
  std::vector<std::thread> workers;
  const std::size_t n = w.inputs.size();
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&w, t, threads, n] {
      for (std::size_t b = static_cast<std::size_t>(t); b < n; b += static_cast<std::size_t>(threads)) {
        std::memcpy(w.outputs[b].data(), w.inputs[b].data(), w.inputs[b].size() * sizeof(float));
      }
    });
  }
  for (auto& worker : workers) {
    worker.join();
  }
}

CodecThroughput measure_fast(Workload& w, const KernelBenchConfig& c, int threads, double gigabytes) {
  const int planes = c.split.num_planes();
  CodecThroughput r;
  r.encode_gbps = gigabytes / best_seconds(c.repeats, clock_for(threads), [&] {
    encode_blocks_fast_into(w.input_views, c.quant, c.split, threads, w.encoded);
  });
  r.decode_gbps = gigabytes / best_seconds(c.repeats, clock_for(threads), [&] {
    decode_blocks_fast(w.encoded, planes, w.output_views, threads);
  });
  return r;
}

CodecThroughput measure_reference(Workload& w, const KernelBenchConfig& c, double gigabytes) {
  const int planes = c.split.num_planes();
  CodecThroughput r;
  r.encode_gbps = gigabytes / best_seconds(c.repeats, Clock::process_cpu, [&] {
    for (std::size_t b = 0; b < w.input_views.size(); ++b) {
      w.encoded[b] = encode_planes_reference(w.input_views[b], c.quant, c.split);
    }
  });
  r.decode_gbps = gigabytes / best_seconds(c.repeats, Clock::process_cpu, [&] {
    for (std::size_t b = 0; b < w.input_views.size(); ++b) {
      decode_planes_reference(w.encoded[b], planes, w.output_views[b]);
    }
  });
  return r;
}

}  // namespace

KernelBenchResult bench_kernels(const KernelBenchConfig& config) {
  if (config.layers < 1 || config.kv_heads < 1 || config.tokens < 1 || config.channels < 1) {
    throw std::invalid_argument("kernel benchmark: layers, kv_heads, tokens and channels must be >= 1");
  }
  config.split.validate(config.quant.bits);
  KernelBenchResult result;
  result.config = config;
  result.kernel_isa = to_string(active_kernel_isa());
  const int hardware = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  result.threads_used = config.threads > 0 ? config.threads : hardware;
  Workload w = make_workload(config);
  result.input_gigabytes = static_cast<double>(w.inputs.size() * w.inputs.front().size() * sizeof(float)) / 1e9;
  const double gb = result.input_gigabytes;
  result.memcpy_gbps = gb / best_seconds(config.repeats, Clock::process_cpu, [&] { copy_blocks(w, 1); });
  result.memcpy_threads_gbps =
      gb / best_seconds(config.repeats, clock_for(result.threads_used), [&] { copy_blocks(w, result.threads_used); });
  result.reference = measure_reference(w, config, gb);
  result.fast_single = measure_fast(w, config, 1, gb);
  result.fast_threads = measure_fast(w, config, result.threads_used, gb);
  return result;
}

std::string format_kernel_bench(const KernelBenchResult& r) {
  const KernelBenchConfig& c = r.config;
  const std::string split = to_string(c.split);
  const std::string threads_label = "optimized (" + std::to_string(r.threads_used) + " threads)";
  const std::string single_label = "optimized (1 thread, " + r.kernel_isa + ")";
  char buffer[1024];
  std::snprintf(buffer, sizeof buffer,
                "KV codec kernels: %d layers x %d kv heads x %d tokens x %d channels (%.3f GB float32)\n"
                "  %d-bit %s groups of %d, planes %s; GB/s of float32 input bytes, best of %d\n"
                "  %-30s %10s %10s\n"
                "  %-30s %10.2f %10.2f\n"
                "  %-30s %10.2f %10.2f\n"
                "  %-30s %10.2f %10.2f\n"
                "  %-30s %10.2f %10.2f\n"
                "  optimized 1 thread vs oracle:  encode %.1fx, decode %.1fx (goal >= 4x)\n"
                "  optimized 1 thread vs memcpy:  encode %.2fx, decode %.2fx (goal >= 0.5x)\n",
                c.layers, c.kv_heads, c.tokens, c.channels, r.input_gigabytes, c.quant.bits,
                to_string(c.quant.group_axis).c_str(), c.quant.group_size, split.c_str(), c.repeats, "kernel",
                "encode", "decode", "scalar oracle (1 thread)", r.reference.encode_gbps, r.reference.decode_gbps,
                single_label.c_str(), r.fast_single.encode_gbps, r.fast_single.decode_gbps,
                threads_label.c_str(), r.fast_threads.encode_gbps,
                r.fast_threads.decode_gbps, "memcpy (1 / all threads)", r.memcpy_gbps, r.memcpy_threads_gbps,
                r.encode_speedup_vs_reference(), r.decode_speedup_vs_reference(), r.encode_vs_memcpy(),
                r.decode_vs_memcpy());
  return buffer;
}

}  // namespace lynxsim::quant
