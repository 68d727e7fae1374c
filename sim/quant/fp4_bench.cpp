#include "sim/quant/fp4_bench.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <functional>
#include <vector>

#include "sim/quant/lynx_nvfp4.hpp"

namespace lynxsim::quant {
namespace {

struct Fp4Workload {
  std::vector<std::vector<float>> blocks;
  std::vector<std::vector<float>> decoded;
  std::vector<Fp4Encoded> encoded;
  std::vector<LynxNvfp4Encoded> lynx;
  std::vector<float> calibrated_amax;
  std::vector<std::uint8_t> scratch;
  int tokens = 0;
  int channels = 0;
};

Fp4Workload fp4_workload(const KernelBenchConfig& config) {
  Fp4Workload w;
  w.tokens = config.tokens;
  w.channels = config.channels;
  std::uint64_t state = config.seed;
  for (int b = 0; b < config.layers * config.kv_heads; ++b) {
    w.blocks.push_back(synthetic_block(config.tokens, config.channels, state));
    w.decoded.emplace_back(w.blocks.back().size(), 0.0F);
    float amax = 0.0F;
    for (float v : w.blocks.back()) {
      amax = std::max(amax, std::fabs(v));
    }
    w.calibrated_amax.push_back(amax);
  }
  w.encoded.resize(w.blocks.size());
  w.lynx.resize(w.blocks.size());
  w.scratch.assign(config.evict_bytes, 0);
  return w;
}

double cpu_seconds(const std::function<void()>& pass) {
  const std::clock_t start = std::clock();
  pass();
  return std::max(static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC, 1e-9);
}

// Best CPU time of each pass over `rounds` rounds; before every pass the scratch buffer is rewritten.
std::vector<double> fastest(int rounds, const std::vector<std::function<void()>>& passes, Fp4Workload& w) {
  std::vector<double> best(passes.size(), 1e300);
  for (int r = 0; r < std::max(1, rounds); ++r) {
    for (std::size_t p = 0; p < passes.size(); ++p) {
      std::memset(w.scratch.data(), r + static_cast<int>(p), w.scratch.size());
      best[p] = std::min(best[p], cpu_seconds(passes[p]));
    }
  }
  return best;
}

void encode_all(Fp4Workload& w, Fp4BenchCode code, KernelIsa isa) {
  for (std::size_t b = 0; b < w.blocks.size(); ++b) {
    const BlockView block(w.blocks[b], w.tokens, w.channels);
    const std::optional<float> amax =
        code == Fp4BenchCode::nvfp4_own_amax ? std::nullopt : std::optional<float>(w.calibrated_amax[b]);
    if (code == Fp4BenchCode::lynx_nvfp4) {
      w.lynx[b] = encode_lynx_nvfp4(block, amax, isa);
    } else {
      encode_fp4_into(block, code == Fp4BenchCode::mxfp4 ? Fp4Format::mxfp4 : Fp4Format::nvfp4, w.encoded[b], isa, amax);
    }
  }
}

void decode_all(Fp4Workload& w, Fp4BenchCode code, KernelIsa isa) {
  for (std::size_t b = 0; b < w.blocks.size(); ++b) {
    const MutableBlockView out(w.decoded[b], w.tokens, w.channels);
    if (code == Fp4BenchCode::lynx_nvfp4) {
      decode_lynx_nvfp4(w.lynx[b], 2, out, isa);
    } else {
      decode_fp4(w.encoded[b], out, isa);
    }
  }
}

void copy_all(Fp4Workload& w) {
  for (std::size_t b = 0; b < w.blocks.size(); ++b) {
    std::memcpy(w.decoded[b].data(), w.blocks[b].data(), w.blocks[b].size() * sizeof(float));
  }
}

}  // namespace

std::string to_string(Fp4BenchCode code) {
  switch (code) {
    case Fp4BenchCode::nvfp4_own_amax: return "nvfp4 (own amax)";
    case Fp4BenchCode::nvfp4_given_amax: return "nvfp4 (given amax)";
    case Fp4BenchCode::mxfp4: return "mxfp4";
    case Fp4BenchCode::lynx_nvfp4: return "lynx-nvfp4 (given amax)";
  }
  return "?";
}

Fp4KernelBenchResult bench_fp4_kernels(const KernelBenchConfig& config) {
  Fp4Workload w = fp4_workload(config);
  Fp4KernelBenchResult result;
  result.input_gigabytes = static_cast<double>(w.blocks.size() * w.blocks.front().size() * sizeof(float)) / 1e9;
  const double gb = result.input_gigabytes;
  double best_copy = 1e300;
  for (int f = 0; f < 4; ++f) {
    Fp4FormatRates& rates = result.formats[f];
    const auto code = static_cast<Fp4BenchCode>(f);
    rates.code = code;
    const std::vector<double> oracle =
        fastest(config.repeats, {[&] { encode_all(w, code, KernelIsa::portable); },
                                 [&] { decode_all(w, code, KernelIsa::portable); }}, w);
    const std::vector<double> fast =
        fastest(config.rounds,
                {[&] { copy_all(w); }, [&] { encode_all(w, code, config.isa); }, [&] { decode_all(w, code, config.isa); }},
                w);
    best_copy = std::min(best_copy, fast[0]);
    rates.oracle_encode_gbps = gb / oracle[0];
    rates.oracle_decode_gbps = gb / oracle[1];
    rates.encode_gbps = gb / fast[1];
    rates.decode_gbps = gb / fast[2];
  }
  result.memcpy_gbps = gb / best_copy;
  return result;
}

std::string format_fp4_kernel_bench(const Fp4KernelBenchResult& r) {
  char line[240];
  std::snprintf(line, sizeof line,
                "FP4 KV codecs (same KV, one thread; memcpy %.2f GB/s):\n"
                "  %-24s %12s %12s %14s %14s %12s %12s\n",
                r.memcpy_gbps, "format", "encode GB/s", "decode GB/s", "encode/memcpy", "decode/memcpy",
                "vs oracle", "vs oracle");
  std::string out = line;
  for (const Fp4FormatRates& f : r.formats) {
    std::snprintf(line, sizeof line, "  %-24s %12.2f %12.2f %13.2fx %13.2fx %11.2fx %11.2fx\n",
                  to_string(f.code).c_str(), f.encode_gbps, f.decode_gbps, f.encode_gbps / r.memcpy_gbps,
                  f.decode_gbps / r.memcpy_gbps, f.encode_gbps / f.oracle_encode_gbps,
                  f.decode_gbps / f.oracle_decode_gbps);
    out += line;
  }
  out += "  goal: encode and decode >= 1.0x memcpy\n";
  return out;
}

}  // namespace lynxsim::quant
