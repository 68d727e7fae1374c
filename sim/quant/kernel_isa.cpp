#include "sim/quant/kernel_isa.hpp"

#include <stdexcept>

#include "sim/quant/span_kernels.hpp"

namespace lynxsim::quant {

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
  static const KernelIsa best = kernel_isa_supported(KernelIsa::avx2) ? KernelIsa::avx2 : KernelIsa::portable;
  return best;
}

std::optional<KernelIsa> parse_kernel_isa(std::string_view name) {
  if (name == "portable") {
    return KernelIsa::portable;
  }
  if (name == "avx2") {
    return KernelIsa::avx2;
  }
  return std::nullopt;
}

const SpanKernels& span_kernels(KernelIsa isa) {
  if (isa == KernelIsa::portable) {
    return portable_span_kernels();
  }
  if (!kernel_isa_supported(isa)) {
    throw std::invalid_argument("kernel ISA " + to_string(isa) + " is not supported by this CPU or build");
  }
#if defined(LYNXSIM_QUANT_AVX2_KERNELS)
  return avx2_span_kernels();
#else
  return portable_span_kernels();
#endif
}

}  // namespace lynxsim::quant
