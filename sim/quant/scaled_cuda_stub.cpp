// Stand-in for the CUDA scaled-code kernels when lynxsim_quant is built without a CUDA toolkit
// (cuda_backend_stub.cpp's counterpart): they refuse to run.
#ifndef LYNXSIM_QUANT_HAVE_CUDA

#include <stdexcept>

#include "sim/quant/cuda/scaled_backend.hpp"

namespace lynxsim::quant::cuda_backend {
namespace {

[[noreturn]] void no_cuda() {
  throw std::runtime_error("CUDA scaled kernels: lynxsim was built without CUDA (LYNXSIM_CUDA=OFF or no toolkit)");
}

}  // namespace

void scaled_encode(const ScaledShape& /*shape*/, const float* /*input*/, float* /*scales*/, std::uint8_t* /*codes*/) {
  no_cuda();
}

void scaled_decode(const ScaledShape& /*shape*/, const std::uint8_t* /*codes*/, const float* /*scales*/,
                   float* /*output*/) {
  no_cuda();
}

DeviceTimes time_scaled_kernels(const ScaledShape& /*shape*/, const float* /*input*/, float /*tensor_scale*/,
                                int /*rounds*/) {
  no_cuda();
}

}  // namespace lynxsim::quant::cuda_backend

#endif
