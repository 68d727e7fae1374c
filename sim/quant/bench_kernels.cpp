#include "sim/quant/bench_kernels.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <functional>
#include <stdexcept>
#include <thread>
#include <vector>

#include "sim/core/parallel_for.hpp"
#include "sim/quant/fp4_bench.hpp"
#include "sim/quant/kernel_isa.hpp"
#include "sim/quant/plane_codec.hpp"

namespace lynxsim::quant {
namespace {

double next_uniform(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return (static_cast<double>(z >> 11) + 0.5) * 0x1.0p-53;
}

}  // namespace

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

namespace {

struct Workload {
  std::vector<std::vector<float>> inputs;
  std::vector<std::vector<float>> outputs;
  std::vector<BlockView> input_views;
  std::vector<MutableBlockView> output_views;
  std::vector<PlaneEncoded> encoded;
  std::vector<PlaneEncoded> single_plane;
  std::vector<std::uint8_t> scratch;
};

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
  w.single_plane.resize(static_cast<std::size_t>(blocks));
  w.scratch.assign(config.evict_bytes, 0);
  return w;
}

enum class Clock { process_cpu, wall };

double seconds_of(Clock clock, const std::function<void()>& pass) {
  const std::clock_t cpu_start = std::clock();
  const auto wall_start = std::chrono::steady_clock::now();
  pass();
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - wall_start;
  const double cpu = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  return std::max(clock == Clock::wall ? wall.count() : cpu, 1e-9);
}

// Best of `repeats` runs of pass(), in seconds of process CPU time (single-thread passes: immune to
// other programs competing for the cores) or of wall time (multi-thread passes).
double best_seconds(int repeats, Clock clock, const std::function<void()>& pass) {
  double best = 1e300;
  for (int r = 0; r < std::max(1, repeats); ++r) {
    best = std::min(best, seconds_of(clock, pass));
  }
  return best;
}

// Overwrites `scratch` (untimed), so that the next pass finds none of its data in the caches.
void evict_caches(std::vector<std::uint8_t>& scratch) {
  static std::uint8_t fill = 0;
  std::memset(scratch.data(), ++fill, scratch.size());
  volatile std::uint8_t sink = scratch.empty() ? 0 : scratch[scratch.size() / 2];
  (void)sink;
}

// Times of each pass in each of `rounds` rounds that run every pass once, in order, each after the
// caches were flushed, so that a change of load on the machine during the benchmark reaches the
// kernels and the memcpy they are compared with alike, and none starts with data a previous pass
// left in the last-level cache. times[i][r]: pass i in round r.
std::vector<std::vector<double>> interleaved_times(int rounds, Clock clock,
                                                   const std::vector<std::function<void()>>& passes,
                                                   std::vector<std::uint8_t>& scratch) {
  std::vector<std::vector<double>> times(passes.size());
  for (int r = 0; r < std::max(1, rounds); ++r) {
    for (std::size_t i = 0; i < passes.size(); ++i) {
      evict_caches(scratch);
      times[i].push_back(seconds_of(clock, passes[i]));
    }
  }
  return times;
}

double best_of(const std::vector<double>& times) { return *std::min_element(times.begin(), times.end()); }

// Median over rounds of memcpy's time over the kernel's time in the same round.
double median_round_ratio(const std::vector<double>& memcpy_times, const std::vector<double>& kernel_times) {
  std::vector<double> ratios;
  for (std::size_t r = 0; r < kernel_times.size(); ++r) {
    ratios.push_back(memcpy_times[r] / kernel_times[r]);
  }
  std::sort(ratios.begin(), ratios.end());
  const std::size_t m = ratios.size() / 2;
  return ratios.size() % 2 == 1 ? ratios[m] : 0.5 * (ratios[m - 1] + ratios[m]);
}

Clock clock_for(int threads) { return threads <= 1 ? Clock::process_cpu : Clock::wall; }

void copy_range(Workload& w, std::size_t first, std::size_t step) {
  for (std::size_t b = first; b < w.inputs.size(); b += step) {
    std::memcpy(w.outputs[b].data(), w.inputs[b].data(), w.inputs[b].size() * sizeof(float));
  }
}

void copy_blocks(Workload& w, int threads) {
  if (threads <= 1) {
    copy_range(w, 0, 1);
    return;
  }
  const auto stride = static_cast<std::size_t>(threads);
  parallel_for(stride, threads, [&w, stride](std::size_t t) { copy_range(w, t, stride); });
}

PlaneSplit one_plane(const QuantConfig& quant) { return PlaneSplit{{quant.bits}}; }

struct FastRates {
  double memcpy_gbps = 0.0;
  CodecThroughput codec;
  CodecThroughput median_vs_memcpy;
};

FastRates measure_fast(Workload& w, const KernelBenchConfig& c, int threads, double gigabytes) {
  const int planes = c.split.num_planes();
  const auto t = interleaved_times(
      c.rounds, clock_for(threads),
      {[&] { copy_blocks(w, threads); },
       [&] { encode_blocks_fast_into(w.input_views, c.quant, one_plane(c.quant), threads, w.single_plane, c.isa); },
       [&] { encode_blocks_fast_into(w.input_views, c.quant, c.split, threads, w.encoded, c.isa); },
       [&] { decode_blocks_fast(w.encoded, planes, w.output_views, threads, c.isa); }},
      w.scratch);
  return {gigabytes / best_of(t[0]),
          {gigabytes / best_of(t[1]), gigabytes / best_of(t[2]), gigabytes / best_of(t[3])},
          {median_round_ratio(t[0], t[1]), median_round_ratio(t[0], t[2]), median_round_ratio(t[0], t[3])}};
}

CodecThroughput measure_reference(Workload& w, const KernelBenchConfig& c, double gigabytes) {
  const int planes = c.split.num_planes();
  CodecThroughput r;
  r.quantize_pack_gbps = gigabytes / best_seconds(c.repeats, Clock::process_cpu, [&] {
    for (std::size_t b = 0; b < w.input_views.size(); ++b) {
      w.single_plane[b] = encode_planes_reference(w.input_views[b], c.quant, one_plane(c.quant));
    }
  });
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
  result.kernel_isa = to_string(config.isa);
  const int hardware = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  result.threads_used = config.threads > 0 ? config.threads : hardware;
  Workload w = make_workload(config);
  result.input_gigabytes = static_cast<double>(w.inputs.size() * w.inputs.front().size() * sizeof(float)) / 1e9;
  const double gb = result.input_gigabytes;
  result.reference = measure_reference(w, config, gb);
  const FastRates single = measure_fast(w, config, 1, gb);
  const FastRates threaded = measure_fast(w, config, result.threads_used, gb);
  result.memcpy_gbps = single.memcpy_gbps;
  result.fast_single = single.codec;
  result.median_vs_memcpy = single.median_vs_memcpy;
  result.memcpy_threads_gbps = threaded.memcpy_gbps;
  result.fast_threads = threaded.codec;
  result.formats = bench_format_kernels(config);
  result.fp4 = bench_fp4_kernels(config);
  return result;
}

namespace {

std::string rate_row(const std::string& label, const CodecThroughput& t) {
  char line[160];
  std::snprintf(line, sizeof line, "  %-32s %14.2f %12.2f %12.2f\n", label.c_str(), t.quantize_pack_gbps,
                t.encode_gbps, t.decode_gbps);
  return line;
}

std::string ratio_row(const std::string& label, double quantize_pack, double encode, double decode,
                      const char* goals) {
  char line[200];
  std::snprintf(line, sizeof line, "  %-32s %13.2fx %11.2fx %11.2fx   %s\n", label.c_str(), quantize_pack, encode,
                decode, goals);
  return line;
}

CodecThroughput divided(const CodecThroughput& a, const CodecThroughput& b) {
  return {a.quantize_pack_gbps / b.quantize_pack_gbps, a.encode_gbps / b.encode_gbps, a.decode_gbps / b.decode_gbps};
}

}  // namespace

std::string format_kernel_bench(const KernelBenchResult& r) {
  const KernelBenchConfig& c = r.config;
  const std::string split = to_string(c.split);
  const std::string threads = std::to_string(r.threads_used) + " threads";
  char head[1024];
  std::snprintf(head, sizeof head,
                "KV codec kernels: %d layers x %d kv heads x %d tokens x %d channels (%.3f GB float32)\n"
                "  %d-bit %s groups of %d; GB/s of float32 KV bytes in (decode: out),\n"
                "  best of %d interleaved rounds, %zu MiB written between passes to flush the caches\n"
                "  (oracle: best of %d); single-thread times are process CPU time, threaded ones wall time;\n"
                "  ratio = float32 bytes per second of the kernel / of memcpy of the same float32 bytes:\n"
                "  memcpy reads N bytes and writes N; encode reads N, writes N*b/32 + 4 bytes a group;\n"
                "  decode reads N*b/32 + 4 bytes a group, writes N (blocks of 1 MiB or more streamed);\n"
                "  memcpy (glibc, one call a block) copies them at %.2f GB/s on 1 thread, %.2f GB/s on %s\n"
                "  %-32s %14s %12s %12s\n",
                c.layers, c.kv_heads, c.tokens, c.channels, r.input_gigabytes, c.quant.bits,
                to_string(c.quant.group_axis).c_str(), c.quant.group_size, c.rounds, c.evict_bytes >> 20, c.repeats,
                r.memcpy_gbps, r.memcpy_threads_gbps, threads.c_str(), "kernel",
                (std::to_string(c.quant.bits) + "-bit q+pack").c_str(), (split + " encode").c_str(),
                (split + " decode").c_str());
  const CodecThroughput fast_vs_ref = divided(r.fast_single, r.reference);
  const double mt = r.memcpy_threads_gbps;
  std::string out = head;
  out += rate_row("scalar oracle (1 thread)", r.reference);
  out += rate_row("optimized (1 thread, " + r.kernel_isa + ")", r.fast_single);
  out += rate_row("optimized (" + threads + ")", r.fast_threads);
  out += ratio_row("1 thread / memcpy 1 thread", r.quantize_pack_vs_memcpy(), r.encode_vs_memcpy(),
                   r.decode_vs_memcpy(), "goal >= 1.25x, 1.0x, 1.0x");
  out += ratio_row("  same, median of per-round ratios", r.median_vs_memcpy.quantize_pack_gbps,
                   r.median_vs_memcpy.encode_gbps, r.median_vs_memcpy.decode_gbps, "");
  out += ratio_row(threads + " / memcpy " + threads, r.fast_threads.quantize_pack_gbps / mt,
                   r.fast_threads.encode_gbps / mt, r.fast_threads.decode_gbps / mt, "");
  out += ratio_row("1 thread / scalar oracle", fast_vs_ref.quantize_pack_gbps, fast_vs_ref.encode_gbps,
                   fast_vs_ref.decode_gbps, "goal >= 4x");
  return out + format_format_kernels(r.formats) + format_fp4_kernel_bench(r.fp4);
}

}  // namespace lynxsim::quant
