#pragma once
// Dense tensors stored in files (safetensors, .npy): where a tensor's bytes are and how to read a
// slice of them as float32.
//
// Element types: F32 (IEEE binary32), F16 (IEEE binary16), BF16 (bfloat16), all little-endian;
// 16-bit values are widened exactly. Tensors are row-major (C order). A slice is a run of
// consecutive elements [first, first + count), so one head's rows of a [kv_heads][tokens][head_dim]
// tensor are a single read.

#include <cstdint>
#include <string>
#include <vector>

namespace lynxsim::store {

enum class TensorDtype { f32, f16, bf16 };

std::string to_string(TensorDtype dtype);
int dtype_bytes(TensorDtype dtype);

// Bounds of a tensor read from a file, checked before its size is used: a dimension fits an int
// (KvFile's counts), the element count leaves its byte count far inside 64 bits.
inline constexpr std::int64_t kMaxTensorDim = 0x7fffffff;
inline constexpr std::int64_t kMaxTensorElements = std::int64_t{1} << 40;

struct TensorInfo {
  std::string name;
  TensorDtype dtype = TensorDtype::f32;
  std::vector<std::int64_t> shape;
  std::string path;               // file holding the bytes
  std::uint64_t data_offset = 0;  // absolute offset of element 0 in that file

  // Throws std::invalid_argument (naming the file) when a bound above is broken.
  std::int64_t num_elements() const;
};

// Elements [first, first + count) of the tensor as float32; throws std::invalid_argument (naming the
// file) on unreadable or truncated data and on an out-of-range slice.
std::vector<float> read_tensor_slice(const TensorInfo& info, std::int64_t first, std::int64_t count);

// Encodes float32 values as little-endian bytes of `dtype` (round to nearest even for 16-bit types).
std::vector<std::uint8_t> encode_elements(const std::vector<float>& values, TensorDtype dtype);

// A tensor to be written by the file writers (tests and tools).
struct TensorData {
  std::string name;
  TensorDtype dtype = TensorDtype::f32;
  std::vector<std::int64_t> shape;
  std::vector<float> values;
};

}  // namespace lynxsim::store
