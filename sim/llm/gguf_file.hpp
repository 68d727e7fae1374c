#pragma once
// Reader of GGUF files (the ggml model container, versions 2 and 3).
//
// Layout (all little-endian): magic "GGUF", u32 version, u64 tensor count, u64 metadata count, the
// metadata as (string key, u32 value type, value) records, the tensor index as (string name,
// u32 n_dims, u64 dims[n_dims], u32 ggml type, u64 offset) records, padding to `general.alignment`
// (default 32), then the tensor data; each tensor's offset is relative to the start of the data and
// a multiple of the alignment. Strings are a u64 byte count followed by the bytes. dims[0] is the
// fastest-varying dimension: a weight of shape [in, out] is `out` rows of `in` values each.
//
// The reader is strict: every count and length is checked against the bytes that remain before
// anything is allocated, and a wrong magic, an unsupported version, an unknown value or tensor
// type, a duplicate key or tensor name, a misaligned, overlapping or out-of-file tensor, or a
// truncated file is a GgufError that says what and where. A file that parses is safe to dequantize.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/llm/ggml_type.hpp"
#include "sim/llm/gguf_value.hpp"

namespace lynxsim::llm {

struct GgufTensorInfo {
  std::string name;
  std::vector<std::uint64_t> dims;  // dims[0] fastest
  GgmlType type = GgmlType::F32;
  std::uint64_t offset = 0;  // relative to the data section
  std::uint64_t element_count = 0;
  std::size_t byte_size = 0;
};

class GgufFile {
public:
  static GgufFile read(const std::filesystem::path& path);
  static GgufFile parse(std::vector<std::uint8_t> bytes);

  std::uint32_t version() const { return version_; }
  std::uint64_t alignment() const { return alignment_; }
  std::size_t data_offset() const { return data_offset_; }

  const std::vector<std::string>& keys() const { return keys_; }
  bool has(const std::string& key) const;
  // Throws GgufError naming the key when it is absent.
  const GgufValue& value(const std::string& key) const;

  const std::vector<GgufTensorInfo>& tensors() const { return tensors_; }
  const GgufTensorInfo* find_tensor(const std::string& name) const;
  // Throws GgufError naming the tensor when it is absent.
  const GgufTensorInfo& tensor(const std::string& name) const;
  std::span<const std::uint8_t> tensor_bytes(const GgufTensorInfo& info) const;
  // All values of the tensor as float, in file order (dims[0] fastest).
  std::vector<float> dequantize_tensor(const std::string& name) const;

private:
  friend class GgufParser;
  std::vector<std::uint8_t> bytes_;
  std::uint32_t version_ = 0;
  std::uint64_t alignment_ = 32;
  std::size_t data_offset_ = 0;
  std::vector<std::string> keys_;
  std::unordered_map<std::string, GgufValue> metadata_;
  std::vector<GgufTensorInfo> tensors_;
  std::unordered_map<std::string, std::size_t> tensor_index_;
};

}  // namespace lynxsim::llm
