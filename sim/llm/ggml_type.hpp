#pragma once
// Tensor element types of the GGUF format (the ggml type ids) and their block geometry.
//
// A quantized ggml tensor is a sequence of blocks along its first (fastest) dimension; each block
// packs `block_size` values into `block_bytes` bytes with its own scale (and minimum). The ids are
// fixed by the format: F32 = 0, F16 = 1, Q4_0 = 2, Q4_1 = 3, Q5_0 = 6, Q5_1 = 7, Q8_0 = 8,
// Q4_K = 12, Q6_K = 14 (256-value super-blocks), BF16 = 30. Only the types listed here can be read; any other id is an error that names it.

#include <cstddef>
#include <cstdint>
#include <string>

namespace lynxsim::llm {

enum class GgmlType : std::uint32_t {
  F32 = 0,
  F16 = 1,
  Q4_0 = 2,
  Q4_1 = 3,
  Q5_0 = 6,
  Q5_1 = 7,
  Q8_0 = 8,
  Q4_K = 12,
  Q6_K = 14,
  BF16 = 30,
};

struct GgmlTypeTraits {
  std::size_t block_size;   // values per block
  std::size_t block_bytes;  // bytes per block
  const char* name;
};

// True when `id` is one of the supported types above.
bool is_supported_ggml_type(std::uint32_t id);

// Geometry of a supported type; throws std::invalid_argument for an unsupported one.
GgmlTypeTraits ggml_type_traits(GgmlType type);

// Bytes taken by `count` values of `type`; throws when count is not a whole number of blocks.
std::size_t ggml_row_bytes(GgmlType type, std::uint64_t count);

std::string ggml_type_name(std::uint32_t id);

}  // namespace lynxsim::llm
