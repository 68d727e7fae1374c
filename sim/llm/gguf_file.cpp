#include "sim/llm/gguf_file.hpp"

#include <fstream>

#include "sim/llm/dequantize.hpp"
#include "sim/llm/gguf_parser.hpp"

namespace lynxsim::llm {

GgufFile GgufFile::read(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) {
    throw GgufError("cannot open GGUF file " + path.string());
  }
  const std::streamoff size = in.tellg();
  if (size < 0) {
    throw GgufError("cannot determine the size of GGUF file " + path.string());
  }
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size));
  in.seekg(0);
  in.read(reinterpret_cast<char*>(bytes.data()), size);
  if (!in) {
    throw GgufError("cannot read GGUF file " + path.string());
  }
  try {
    return parse(std::move(bytes));
  } catch (const GgufError& error) {
    throw GgufError(path.string() + ": " + error.what());
  }
}

GgufFile GgufFile::parse(std::vector<std::uint8_t> bytes) {
  GgufFile file;
  file.bytes_ = std::move(bytes);
  GgufParser(file).run();
  return file;
}

bool GgufFile::has(const std::string& key) const {
  return metadata_.count(key) != 0;
}

const GgufValue& GgufFile::value(const std::string& key) const {
  const auto it = metadata_.find(key);
  if (it == metadata_.end()) {
    throw GgufError("GGUF metadata key '" + key + "' is missing");
  }
  return it->second;
}

const GgufTensorInfo* GgufFile::find_tensor(const std::string& name) const {
  const auto it = tensor_index_.find(name);
  return it == tensor_index_.end() ? nullptr : &tensors_[it->second];
}

const GgufTensorInfo& GgufFile::tensor(const std::string& name) const {
  const GgufTensorInfo* info = find_tensor(name);
  if (info == nullptr) {
    throw GgufError("GGUF tensor '" + name + "' is missing");
  }
  return *info;
}

std::span<const std::uint8_t> GgufFile::tensor_bytes(const GgufTensorInfo& info) const {
  return {bytes_.data() + data_offset_ + info.offset, info.byte_size};
}

std::vector<float> GgufFile::dequantize_tensor(const std::string& name) const {
  const GgufTensorInfo& info = tensor(name);
  std::vector<float> out(static_cast<std::size_t>(info.element_count));
  dequantize(info.type, tensor_bytes(info), out);
  return out;
}

}  // namespace lynxsim::llm
