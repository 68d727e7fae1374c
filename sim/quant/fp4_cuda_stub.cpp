// Stand-in for the CUDA FP4 kernels when lynxsim_quant is built without a CUDA toolkit.
#ifndef LYNXSIM_QUANT_HAVE_CUDA

#include <stdexcept>

#include "sim/quant/cuda/fp4_backend.hpp"

namespace lynxsim::quant::cuda_backend {
namespace {

[[noreturn]] void no_cuda() {
  throw std::runtime_error("CUDA FP4 kernels: lynxsim was built without CUDA (LYNXSIM_CUDA=OFF or no toolkit)");
}

}  // namespace

float fp4_encode(const Fp4Shape& /*shape*/, const float* /*input*/, std::uint8_t* /*scales*/,
                           std::uint8_t* /*codes*/) {
  no_cuda();
}

void fp4_decode(const Fp4Shape& /*shape*/, float /*tensor_scale*/, const std::uint8_t* /*scales*/,
                const std::uint8_t* /*codes*/, float* /*output*/) {
  no_cuda();
}

DeviceTimes fp4_time_kernels(const Fp4Shape& /*shape*/, const float* /*input*/, int /*rounds*/) { no_cuda(); }

}  // namespace lynxsim::quant::cuda_backend

#endif
