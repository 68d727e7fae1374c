#include <fmt/format.h>

#include "sim/app/bench_llm.hpp"
#include "sim/app/bench_serving.hpp"
#include "sim/app/commands.hpp"
#include "sim/app/input_errors.hpp"
#include "sim/core/unit_parse.hpp"
#include "sim/net/network_bench.hpp"
#include "sim/quant/bench_kernels.hpp"
#include "sim/quant/bench_kernels_cuda.hpp"
#include "sim/quant/cachegen_bench.hpp"
#include "sim/quant/fp4_bench_cuda.hpp"
#include "sim/quant/kernel_isa.hpp"
#include "sim/quant/quant_cuda.hpp"

namespace lynxsim::app {
namespace {

void bench_cachegen() {
  const quant::CacheGenThroughput t = quant::cachegen_benchmark();
  fmt::print("\nCacheGen coder, one thread (16-bit KV bytes through the whole codec):\n");
  fmt::print("  encode {:8.1f} MB/s   decode {:8.1f} MB/s   ratio vs bf16 {:.2f}x\n",
             t.encode_mb_per_s, t.decode_mb_per_s,
             static_cast<double>(t.input_bytes) / static_cast<double>(t.coded_bytes));
  fmt::print("  modelled GPU coder: encode {:.0f} MB/s, decode {:.0f} MB/s (x{:.0f}, an assumption)\n",
             quant::cachegen_default_gpu_mb_per_s(t.encode_mb_per_s),
             quant::cachegen_default_gpu_mb_per_s(t.decode_mb_per_s),
             quant::kCacheGenGpuSpeedupOverCpuThread);
}

// The CUDA kernels on 32 layers of the CPU workload (537 MB at the defaults), so that each pass
// keeps the GPU busy for far longer than a kernel launch.
void bench_cuda(quant::KernelBenchConfig config) {
  if (!quant::cuda_available()) {
    fmt::print("\nCUDA kernels: skipped (no CUDA device)\n");
    return;
  }
  config.layers = 32;
  fmt::print("{}", quant::format_cuda_kernel_bench(quant::bench_kernels_cuda(config)));
  fmt::print("{}", quant::format_cuda_format_kernels(quant::bench_format_kernels_cuda(config)));
  fmt::print("{}", quant::bench_fp4_kernels_cuda(config));
}

net::NetworkBenchConfig network_bench_config(const BenchOptions& o) {
  net::NetworkBenchConfig c;
  if (o.tolerance) c.rate_tolerance = *o.tolerance;
  if (o.quantum) {
    try {
      c.rate_quantum = parse_time(*o.quantum);
    } catch (const UnitError& e) {
      throw InputError(fmt::format("--quantum: {}", e.what()));
    }
    if (c.rate_quantum < Time::zero()) throw InputError("--quantum must not be negative");
  }
  if (o.arrivals) c.arrivals = *o.arrivals;
  if (o.concurrent) c.concurrent = *o.concurrent;
  return c;
}

quant::KernelBenchConfig kernel_bench_config(const BenchOptions& o) {
  quant::KernelBenchConfig c;
  if (o.isa) {
    const auto isa = quant::parse_kernel_isa(*o.isa);
    if (!isa) throw InputError(fmt::format("--isa: unknown instruction set \"{}\" (known: portable, avx2)", *o.isa));
    if (!quant::kernel_isa_supported(*isa)) {
      throw InputError(fmt::format("--isa: this CPU or build has no {} kernels", *o.isa));
    }
    c.isa = *isa;
  }
  return c;
}

}  // namespace

int cmd_bench(const DataPaths& data, const BenchOptions& options) {
  const std::string& what = options.what;
  if (what != "network" &&
      (options.tolerance || options.quantum || options.arrivals || options.concurrent)) {
    throw InputError(
        "--tolerance, --quantum, --arrivals and --concurrent apply to `bench network` only");
  }
  if (what != "llm" && (options.context || options.decode || options.threads)) {
    throw InputError("--context, --decode and --threads apply to `bench llm` only");
  }
  if (what != "serving" && (options.sizes || options.closed_loop)) {
    throw InputError("--sizes and --closed-loop apply to `bench serving` only");
  }
  if (what != "kernels" && options.isa) throw InputError("--isa applies to `bench kernels` only");
  if (what == "kernels") {
    const quant::KernelBenchConfig config = kernel_bench_config(options);
    fmt::print("{}", quant::format_kernel_bench(quant::bench_kernels(config)));
    bench_cachegen();
    bench_cuda(config);
    return 0;
  }
  if (what == "network") {
    const auto config = network_bench_config(options);
    fmt::print("{}", net::format_network_bench(net::run_network_bench(config)));
    return 0;
  }
  if (what == "serving") {
    ServingBenchOptions serving;
    if (options.sizes) serving.sizes = *options.sizes;
    serving.closed_loop = options.closed_loop;
    return cmd_bench_serving(data, serving);
  }
  if (what == "llm") {
    LlmBenchOptions llm;
    llm.context = options.context.value_or(llm.context);
    llm.decode = options.decode.value_or(llm.decode);
    llm.threads = options.threads.value_or(llm.threads);
    return cmd_bench_llm(data, llm);
  }
  throw InputError(fmt::format("unknown benchmark \"{}\" (known: kernels, network, serving, llm)", what));
}

}  // namespace lynxsim::app
