#include "sim/llm/gguf_file.hpp"

#include <utility>

#include "sim/io/input_file.hpp"
#include "sim/llm/dequantize.hpp"
#include "sim/llm/gguf_parser.hpp"

namespace lynxsim::llm {

GgufFile GgufFile::read(const std::filesystem::path& path) {
  std::vector<std::uint8_t> bytes;
  try {
    const io::InputFile in(path, io::kMaxModelFileBytes);
    bytes.resize(static_cast<std::size_t>(in.size()));
    in.read_at(0, bytes.data(), bytes.size());
  } catch (const io::InputFileError& error) {
    throw GgufError(std::string("GGUF file ") + error.what());
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
