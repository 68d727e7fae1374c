// Stand-in for the CUDA backend when lynxsim_quant is built without a CUDA toolkit: no device is
// ever available, and the kernels refuse to run.
#ifndef LYNXSIM_QUANT_HAVE_CUDA

#include <stdexcept>

#include "sim/quant/cuda/cuda_backend.hpp"

namespace lynxsim::quant::cuda_backend {

int device_count() noexcept { return 0; }

void encode(const CodecShape& /*shape*/, const float* /*input*/, std::uint16_t* /*scales*/, std::uint16_t* /*mins*/,
            std::uint8_t* const* /*plane_codes*/) {
  throw std::runtime_error("CUDA kernels: lynxsim was built without CUDA (LYNXSIM_CUDA=OFF or no toolkit)");
}

void decode(const CodecShape& /*shape*/, const std::uint8_t* const* /*plane_codes*/, int /*planes_received*/,
            const std::uint16_t* /*scales*/, const std::uint16_t* /*mins*/, float* /*output*/) {
  throw std::runtime_error("CUDA kernels: lynxsim was built without CUDA (LYNXSIM_CUDA=OFF or no toolkit)");
}

DeviceTimes time_kernels(const CodecShape& /*shape*/, const float* /*input*/, int /*rounds*/) {
  throw std::runtime_error("CUDA kernels: lynxsim was built without CUDA (LYNXSIM_CUDA=OFF or no toolkit)");
}

}  // namespace lynxsim::quant::cuda_backend

#endif
