#include "sim/llm/ggml_type.hpp"

#include <stdexcept>

namespace lynxsim::llm {

bool is_supported_ggml_type(std::uint32_t id) {
  switch (static_cast<GgmlType>(id)) {
    case GgmlType::F32:
    case GgmlType::F16:
    case GgmlType::Q4_0:
    case GgmlType::Q4_1:
    case GgmlType::Q5_0:
    case GgmlType::Q5_1:
    case GgmlType::Q8_0:
    case GgmlType::Q4_K:
    case GgmlType::Q6_K:
    case GgmlType::BF16: return true;
  }
  return false;
}

GgmlTypeTraits ggml_type_traits(GgmlType type) {
  switch (type) {
    case GgmlType::F32: return {1, 4, "F32"};
    case GgmlType::F16: return {1, 2, "F16"};
    case GgmlType::BF16: return {1, 2, "BF16"};
    case GgmlType::Q4_0: return {32, 18, "Q4_0"};
    case GgmlType::Q4_1: return {32, 20, "Q4_1"};
    case GgmlType::Q5_0: return {32, 22, "Q5_0"};
    case GgmlType::Q5_1: return {32, 24, "Q5_1"};
    case GgmlType::Q8_0: return {32, 34, "Q8_0"};
    case GgmlType::Q4_K: return {256, 144, "Q4_K"};
    case GgmlType::Q6_K: return {256, 210, "Q6_K"};
  }
  throw std::invalid_argument("unsupported ggml type id " +
                              std::to_string(static_cast<std::uint32_t>(type)));
}

std::size_t ggml_row_bytes(GgmlType type, std::uint64_t count) {
  const GgmlTypeTraits traits = ggml_type_traits(type);
  if (count % traits.block_size != 0) {
    throw std::invalid_argument(std::string("a row of ") + std::to_string(count) + " " +
                                traits.name + " values is not a whole number of " +
                                std::to_string(traits.block_size) + "-value blocks");
  }
  return static_cast<std::size_t>(count / traits.block_size * traits.block_bytes);
}

std::string ggml_type_name(std::uint32_t id) {
  if (!is_supported_ggml_type(id)) {
    return "unknown type " + std::to_string(id);
  }
  return ggml_type_traits(static_cast<GgmlType>(id)).name;
}

}  // namespace lynxsim::llm
