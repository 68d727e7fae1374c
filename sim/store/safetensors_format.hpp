#pragma once
// The safetensors container (Hugging Face), read and written without any library.
//
// Layout: an unsigned 64-bit little-endian header length N, N bytes of UTF-8 JSON, then the data.
// The JSON maps each tensor name to {"dtype": "F32" | "F16" | "BF16", "shape": [...],
// "data_offsets": [begin, end]} with offsets relative to the start of the data (byte 8 + N); an
// optional "__metadata__" object maps strings to strings. Strict checks: the header must fit the file
// and parse, every entry needs exactly those three fields, end − begin must equal the element count
// times the element size, and the range must lie inside the data. Other dtypes are rejected.

#include <map>
#include <string>
#include <vector>

#include "sim/store/tensor_file.hpp"

namespace lynxsim::store {

struct SafetensorsContents {
  std::map<std::string, TensorInfo> tensors;
  std::map<std::string, std::string> metadata;
};

SafetensorsContents read_safetensors_header(const std::string& path);  // throws std::invalid_argument

void write_safetensors(const std::string& path, const std::vector<TensorData>& tensors,
                       const std::map<std::string, std::string>& metadata = {});

}  // namespace lynxsim::store
