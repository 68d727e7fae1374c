#pragma once
// Bounds-checked parse of a GGUF byte buffer into a GgufFile (see gguf_file.hpp for the layout).
// Every read first checks the bytes that remain; every count is checked against the smallest size
// its records could take before anything is reserved, so a corrupt count cannot cause a huge
// allocation. Errors carry the byte offset at which parsing stopped.

#include <cstddef>
#include <cstdint>
#include <string>

#include "sim/llm/gguf_file.hpp"

namespace lynxsim::llm {

class GgufParser {
public:
  explicit GgufParser(GgufFile& file) : file_(file) {}
  void run();

private:
  [[noreturn]] void fail(const std::string& what) const;
  void need(std::uint64_t count, const char* what) const;
  std::uint8_t u8();
  std::uint32_t u32();
  std::uint64_t u64();
  std::string string(const char* what);
  GgufValue value(GgufValueType type, int depth);
  GgufValue array(int depth);
  GgufValueType value_type(std::uint32_t raw) const;
  void header();
  void metadata(std::uint64_t count);
  void tensor_index(std::uint64_t count);
  GgufTensorInfo tensor_info();
  void data_section();

  GgufFile& file_;
  std::size_t pos_ = 0;
};

}  // namespace lynxsim::llm
