#include "sim/quant/fp4_cuda.hpp"

#include <stdexcept>

#include "sim/quant/cuda/fp4_backend.hpp"
#include "sim/quant/input_check.hpp"
#include "sim/quant/quant_cuda.hpp"

namespace lynxsim::quant {
namespace {

cuda_backend::Fp4Shape fp4_shape(Fp4Format format, std::size_t block_count, std::optional<float> tensor_amax) {
  cuda_backend::Fp4Shape shape;
  shape.nvfp4 = format == Fp4Format::nvfp4;
  shape.blocks = block_count;
  shape.given_amax = tensor_amax.has_value();
  shape.tensor_amax = tensor_amax.value_or(0.0F);
  return shape;
}

void require_device() {
  if (!cuda_available()) {
    throw std::runtime_error("CUDA FP4 kernels: no CUDA device is available");
  }
}

}  // namespace

Fp4Encoded encode_fp4_cuda(BlockView input, Fp4Format format, std::optional<float> tensor_amax) {
  Fp4Encoded out;
  check_fp4_tensor_amax(tensor_amax);
  prepare_fp4_encoded(format, input.tokens, input.channels, out);
  if (!all_finite(input.data.data(), input.size())) {
    reject_non_finite(input, 0, input.tokens);
  }
  require_device();
  if (!out.scales.empty()) {
    out.tensor_scale = cuda_backend::fp4_encode(fp4_shape(format, out.scales.size(), tensor_amax), input.data.data(),
                                                out.scales.data(), out.codes.data());
  }
  return out;
}

void decode_fp4_cuda(const Fp4Encoded& encoded, MutableBlockView output) {
  check_fp4_decodable(encoded, output);
  require_device();
  if (!encoded.scales.empty()) {
    cuda_backend::fp4_decode(fp4_shape(encoded.format, encoded.scales.size(), std::nullopt), encoded.tensor_scale,
                             encoded.scales.data(), encoded.codes.data(), output.data.data());
  }
}

}  // namespace lynxsim::quant
