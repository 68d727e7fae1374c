#include "sim/quant/kernel_isa.hpp"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "sim/quant/span_kernels.hpp"

namespace lynxsim::quant {
namespace {

KernelIsa initial_isa() {
  const char* requested = std::getenv("LYNXSIM_KERNEL_ISA");
  if (requested != nullptr && std::strcmp(requested, "portable") == 0) {
    return KernelIsa::portable;
  }
  return best_kernel_isa();
}

std::atomic<KernelIsa>& active_isa() {
  static std::atomic<KernelIsa> isa{initial_isa()};
  return isa;
}

}  // namespace

std::string to_string(KernelIsa isa) { return isa == KernelIsa::avx2 ? "avx2" : "portable"; }

bool kernel_isa_supported(KernelIsa isa) {
  if (isa == KernelIsa::portable) {
    return true;
  }
#if defined(LYNXSIM_QUANT_AVX2_KERNELS)
  return cpu_has_avx2_kernels();
#else
  return false;
#endif
}

KernelIsa best_kernel_isa() {
  return kernel_isa_supported(KernelIsa::avx2) ? KernelIsa::avx2 : KernelIsa::portable;
}

KernelIsa active_kernel_isa() { return active_isa().load(std::memory_order_relaxed); }

void set_kernel_isa(KernelIsa isa) {
  if (!kernel_isa_supported(isa)) {
    throw std::invalid_argument("kernel ISA " + to_string(isa) + " is not supported by this CPU or build");
  }
  active_isa().store(isa, std::memory_order_relaxed);
}

ScopedKernelIsa::ScopedKernelIsa(KernelIsa isa) : previous_(active_kernel_isa()) { set_kernel_isa(isa); }

ScopedKernelIsa::~ScopedKernelIsa() { active_isa().store(previous_, std::memory_order_relaxed); }

const SpanKernels& span_kernels() {
#if defined(LYNXSIM_QUANT_AVX2_KERNELS)
  if (active_kernel_isa() == KernelIsa::avx2) {
    return avx2_span_kernels();
  }
#endif
  return portable_span_kernels();
}

}  // namespace lynxsim::quant
