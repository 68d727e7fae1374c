#pragma once
// Writer of GGUF version 3 files, the inverse of GgufFile (see gguf_file.hpp for the layout).
//
// It exists so that tests and tools can build small models and deliberately broken files without
// any external converter. Tensors are given as raw bytes already in their ggml type (use the
// float helpers for F32); the writer lays them out in insertion order, each aligned to
// `general.alignment` (32 unless set), and checks that each byte count matches its dims and type.

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "sim/llm/ggml_type.hpp"

namespace lynxsim::llm {

class GgufWriter {
public:
  void add_u32(const std::string& key, std::uint32_t value);
  void add_i32(const std::string& key, std::int32_t value);
  void add_f32(const std::string& key, float value);
  void add_bool(const std::string& key, bool value);
  void add_string(const std::string& key, const std::string& value);
  void add_string_array(const std::string& key, const std::vector<std::string>& values);
  void add_i32_array(const std::string& key, const std::vector<std::int32_t>& values);

  void add_tensor(const std::string& name, const std::vector<std::uint64_t>& dims, GgmlType type,
                  std::span<const std::uint8_t> data);
  void add_f32_tensor(const std::string& name, const std::vector<std::uint64_t>& dims,
                      std::span<const float> values);

  std::vector<std::uint8_t> bytes() const;
  void write(const std::filesystem::path& path) const;

private:
  struct Tensor {
    std::string name;
    std::vector<std::uint64_t> dims;
    GgmlType type;
    std::vector<std::uint8_t> data;
  };
  void key(const std::string& name, std::uint32_t value_type);

  std::vector<std::uint8_t> kv_;
  std::uint64_t kv_count_ = 0;
  std::vector<Tensor> tensors_;
};

}  // namespace lynxsim::llm
