#pragma once
// Instruction set of the optimized CPU kernels, chosen at run time.
//
// The default build targets the portable x86-64 baseline (SSE2), so one binary runs everywhere. On a
// CPU that reports AVX2 and F16C (every x86 core since 2013-2015), the hot loops of quantize_fast,
// dequantize_fast, the plane packers and the fused plane codec switch to hand-written AVX2 variants
// compiled for that target only (GCC/Clang target attributes), without fused multiply-add, so both
// variants produce the same bits: identical codes and metadata, and dequantized values computed as
// ((q + offset)·s) + m with two separately rounded float32 operations, like the scalar oracle.
// The choice is process-wide: detected once, and overridable (tests run both paths; a user can pin
// the portable path to compare). Changing it while kernels run on other threads is not supported.

#include <string>

namespace lynxsim::quant {

enum class KernelIsa { portable, avx2 };

std::string to_string(KernelIsa isa);

// The widest variant this CPU (and this build) supports.
KernelIsa best_kernel_isa();
bool kernel_isa_supported(KernelIsa isa);

// The variant the kernels use now: initially best_kernel_isa(), or the portable one when the
// environment variable LYNXSIM_KERNEL_ISA is "portable" at the first use.
KernelIsa active_kernel_isa();
// Throws std::invalid_argument when the CPU or the build lacks `isa`.
void set_kernel_isa(KernelIsa isa);

// Sets an ISA for the lifetime of the object and restores the previous one afterwards.
class ScopedKernelIsa {
public:
  explicit ScopedKernelIsa(KernelIsa isa);
  ~ScopedKernelIsa();
  ScopedKernelIsa(const ScopedKernelIsa&) = delete;
  ScopedKernelIsa& operator=(const ScopedKernelIsa&) = delete;

private:
  KernelIsa previous_;
};

}  // namespace lynxsim::quant
