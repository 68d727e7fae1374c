#include "sim/store/tensor_file.hpp"

#include <cstring>
#include <stdexcept>

#include "sim/io/input_file.hpp"
#include "sim/quant/half_precision.hpp"

namespace lynxsim::store {

std::string to_string(TensorDtype dtype) {
  switch (dtype) {
    case TensorDtype::f32: return "F32";
    case TensorDtype::f16: return "F16";
    case TensorDtype::bf16: return "BF16";
  }
  return "?";
}

int dtype_bytes(TensorDtype dtype) { return dtype == TensorDtype::f32 ? 4 : 2; }

std::int64_t TensorInfo::num_elements() const {
  std::int64_t n = 1;
  for (const auto s : shape) {
    if (s < 0 || s > kMaxTensorDim || __builtin_mul_overflow(n, s, &n) || n > kMaxTensorElements) {
      throw std::invalid_argument(path + ": tensor " + name + " has a dimension or element count out of range");
    }
  }
  return n;
}

std::vector<float> read_tensor_slice(const TensorInfo& info, std::int64_t first, std::int64_t count) {
  if (first < 0 || count < 0 || first + count > info.num_elements()) {
    throw std::invalid_argument("tensor " + info.name + ": slice out of range");
  }
  const int width = dtype_bytes(info.dtype);
  const io::InputFile in(info.path, io::kMaxKvFileBytes);
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(count) * static_cast<std::size_t>(width));
  in.read_at(info.data_offset + static_cast<std::uint64_t>(first) * static_cast<std::uint64_t>(width), bytes.data(),
             bytes.size());
  std::vector<float> out(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::uint8_t* b = bytes.data() + i * static_cast<std::size_t>(width);
    if (info.dtype == TensorDtype::f32) {
      const std::uint32_t bits = b[0] | (b[1] << 8U) | (b[2] << 16U) | (static_cast<std::uint32_t>(b[3]) << 24U);
      std::memcpy(&out[i], &bits, sizeof bits);
    } else {
      const auto bits = static_cast<std::uint16_t>(b[0] | (b[1] << 8U));
      out[i] = info.dtype == TensorDtype::f16 ? quant::fp16_to_float(bits) : quant::bf16_to_float(bits);
    }
  }
  return out;
}

std::vector<std::uint8_t> encode_elements(const std::vector<float>& values, TensorDtype dtype) {
  const auto width = static_cast<std::size_t>(dtype_bytes(dtype));
  std::vector<std::uint8_t> bytes(values.size() * width);
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::uint32_t bits = 0;
    if (dtype == TensorDtype::f32) {
      std::memcpy(&bits, &values[i], sizeof bits);
    } else {
      bits = dtype == TensorDtype::f16 ? quant::float_to_fp16(values[i]) : quant::float_to_bf16(values[i]);
    }
    for (std::size_t j = 0; j < width; ++j) bytes[i * width + j] = static_cast<std::uint8_t>(bits >> (8 * j));
  }
  return bytes;
}

}  // namespace lynxsim::store
