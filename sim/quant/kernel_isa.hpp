#pragma once
// Instruction set of the optimized CPU kernels, chosen at run time.
//
// The default build targets the portable x86-64 baseline (SSE2), so one binary runs everywhere. On a
// CPU that reports AVX2 and F16C (every x86 core since 2013-2015), the hot loops of quantize_fast,
// dequantize_fast, the plane packers and the fused plane codec switch to hand-written AVX2 variants
// compiled for that target only (GCC/Clang target attributes), without fused multiply-add, so both
// variants produce the same bits: identical codes and metadata, and dequantized values computed as
// ((q + offset)·s) + m with two separately rounded float32 operations, like the scalar oracle.
// The choice is a parameter of every optimized kernel (a trailing KernelIsa argument that defaults
// to best_kernel_isa()): there is no process-wide switch, so tests run both paths side by side and
// `lynxsim bench kernels --isa portable` pins the portable one without affecting anything else.

#include <optional>
#include <string>
#include <string_view>

namespace lynxsim::quant {

enum class KernelIsa { portable, avx2 };

std::string to_string(KernelIsa isa);

// The widest variant this CPU (and this build) supports.
KernelIsa best_kernel_isa();
bool kernel_isa_supported(KernelIsa isa);

// Parses "portable" or "avx2"; std::nullopt for anything else.
std::optional<KernelIsa> parse_kernel_isa(std::string_view name);

}  // namespace lynxsim::quant
