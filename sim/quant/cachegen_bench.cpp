#include "sim/quant/cachegen_bench.hpp"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <limits>
#include <stdexcept>
#include <vector>

#include "sim/quant/cachegen_codec.hpp"

namespace lynxsim::quant {
namespace {

class BenchNormal {
public:
  explicit BenchNormal(std::uint64_t seed) : state_(seed) {}
  double next() {
    const double u1 = (static_cast<double>(next_u64() >> 11) + 1.0) * 0x1.0p-53;
    const double u2 = static_cast<double>(next_u64() >> 11) * 0x1.0p-53;
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }

private:
  std::uint64_t next_u64() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  std::uint64_t state_;
};

void fill_bench_kv(const CacheGenBenchOptions& o, std::vector<float>& keys,
                   std::vector<float>& values) {
  BenchNormal rng(o.seed);
  const std::size_t n = o.num_channels;
  keys.assign(o.num_tokens * n, 0.0F);
  values.assign(o.num_tokens * n, 0.0F);
  std::vector<double> state(n, 0.0);
  constexpr double kRho = 0.8;
  const double innovation = std::sqrt(1.0 - kRho * kRho);
  for (std::size_t t = 0; t < o.num_tokens; ++t) {
    const double token_scale = std::exp(0.3 * rng.next());
    for (std::size_t c = 0; c < n; ++c) {
      state[c] = kRho * state[c] + innovation * rng.next();
      const bool outlier = c % 128 == 5 || c % 128 == 77;
      const double sigma = outlier ? 10.0 : 1.0;
      keys[t * n + c] = static_cast<float>((outlier ? 8.0 : 0.0) + sigma * state[c]);
      values[t * n + c] = static_cast<float>(token_scale * rng.next());
    }
  }
}

double thread_cpu_s() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

}  // namespace

CacheGenThroughput cachegen_benchmark(const CacheGenBenchOptions& options) {
  if (options.repeats < 1 || options.num_tokens == 0 || options.num_channels == 0) {
    throw std::invalid_argument("CacheGen bench: need tokens, channels and repeats >= 1");
  }
  std::vector<float> keys;
  std::vector<float> values;
  fill_bench_kv(options, keys, values);
  const KvChunkView kv{keys, values, options.num_tokens, options.num_channels};
  CacheGenOptions codec;
  codec.delta = options.delta;
  double best_encode_s = std::numeric_limits<double>::infinity();
  double best_decode_s = std::numeric_limits<double>::infinity();
  CacheGenThroughput out;
  out.input_bytes = 2 * 2 * static_cast<std::uint64_t>(keys.size());
  for (int r = 0; r < options.repeats; ++r) {
    const double encode_start = thread_cpu_s();
    const EncodedChunk chunk =
        cachegen_encode(kv, options.layer, options.num_layers, options.level, codec);
    best_encode_s = std::min(best_encode_s, thread_cpu_s() - encode_start);
    const double decode_start = thread_cpu_s();
    const DecodedChunk decoded = cachegen_decode(chunk);
    best_decode_s = std::min(best_decode_s, thread_cpu_s() - decode_start);
    if (decoded.keys.size() != keys.size()) throw std::runtime_error("CacheGen bench: bad decode");
    out.coded_bytes = chunk.bytes();
  }
  const double megabytes = static_cast<double>(out.input_bytes) / 1e6;
  out.encode_mb_per_s = megabytes / std::max(best_encode_s, 1e-12);
  out.decode_mb_per_s = megabytes / std::max(best_decode_s, 1e-12);
  return out;
}

double cachegen_default_gpu_mb_per_s(double cpu_mb_per_s) {
  return kCacheGenGpuSpeedupOverCpuThread * cpu_mb_per_s;
}

}  // namespace lynxsim::quant
