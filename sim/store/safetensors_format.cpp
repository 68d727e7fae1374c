#include "sim/store/safetensors_format.hpp"

#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "sim/fields/strict_json.hpp"
#include "sim/io/input_file.hpp"

namespace lynxsim::store {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw std::invalid_argument("safetensors file " + path + ": " + what);
}

TensorDtype parse_dtype(const std::string& path, const std::string& name, const json& value) {
  if (!value.is_string()) fail(path, name + ": dtype must be a string");
  const auto text = value.get<std::string>();
  if (text == "F32") return TensorDtype::f32;
  if (text == "F16") return TensorDtype::f16;
  if (text == "BF16") return TensorDtype::bf16;
  fail(path, name + ": unsupported dtype " + text + " (F32, F16, BF16 only)");
}

TensorInfo parse_entry(const std::string& path, const std::string& name, const json& entry, std::uint64_t data_start,
                       std::uint64_t data_size) {
  if (!entry.is_object() || entry.size() != 3 || !entry.contains("dtype") || !entry.contains("shape") ||
      !entry.contains("data_offsets")) {
    fail(path, name + ": expected exactly dtype, shape and data_offsets");
  }
  TensorInfo info;
  info.name = name;
  info.path = path;
  info.dtype = parse_dtype(path, name, entry["dtype"]);
  if (!entry["shape"].is_array()) fail(path, name + ": shape must be an array");
  for (const auto& dim : entry["shape"]) {
    if (!dim.is_number_unsigned()) fail(path, name + ": shape must hold non-negative integers");
    if (dim.get<std::uint64_t>() > static_cast<std::uint64_t>(kMaxTensorDim)) fail(path, name + ": shape dimension out of range");
    info.shape.push_back(dim.get<std::int64_t>());
  }
  const json& offsets = entry["data_offsets"];
  if (!offsets.is_array() || offsets.size() != 2 || !offsets[0].is_number_unsigned() || !offsets[1].is_number_unsigned()) {
    fail(path, name + ": data_offsets must be [begin, end]");
  }
  const auto begin = offsets[0].get<std::uint64_t>();
  const auto end = offsets[1].get<std::uint64_t>();
  const auto expected = static_cast<std::uint64_t>(info.num_elements()) * static_cast<std::uint64_t>(dtype_bytes(info.dtype));
  if (end < begin || end - begin != expected) fail(path, name + ": data_offsets do not match shape and dtype");
  if (end > data_size) fail(path, name + ": data_offsets run past the end of the file");
  info.data_offset = data_start + begin;
  return info;
}

}  // namespace

SafetensorsContents read_safetensors_header(const std::string& path) {
  const io::InputFile in(path, io::kMaxKvFileBytes);
  const std::uint64_t file_size = in.size();
  if (file_size < 8) fail(path, "shorter than the 8-byte header length");
  unsigned char size_bytes[8] = {};
  in.read_at(0, size_bytes, 8);
  std::uint64_t header_size = 0;
  for (int i = 7; i >= 0; --i) header_size = (header_size << 8U) | size_bytes[i];
  if (header_size > file_size - 8) fail(path, "header length " + std::to_string(header_size) + " exceeds the file");
  if (header_size > io::kMaxSafetensorsHeaderBytes) {
    fail(path, "header length " + std::to_string(header_size) + " is more than the " +
                   std::to_string(io::kMaxSafetensorsHeaderBytes) + " bytes a safetensors header may have");
  }
  std::string header(static_cast<std::size_t>(header_size), '\0');
  in.read_at(8, header.data(), header.size());
  json doc;
  try {
    doc = fields::parse_strict_json(header);
  } catch (const fields::StrictJsonError& e) {
    const std::string where = e.pointer().empty() ? "" : e.pointer() + ": ";
    fail(path, "header is not valid JSON: " + where + e.what());
  }
  if (!doc.is_object()) fail(path, "header must be a JSON object");
  SafetensorsContents out;
  const std::uint64_t data_start = 8 + header_size;
  for (const auto& item : doc.items()) {
    if (item.key() == "__metadata__") {
      if (!item.value().is_object()) fail(path, "__metadata__ must be an object");
      for (const auto& m : item.value().items()) {
        if (!m.value().is_string()) fail(path, "__metadata__ values must be strings");
        out.metadata[m.key()] = m.value().get<std::string>();
      }
      continue;
    }
    out.tensors[item.key()] = parse_entry(path, item.key(), item.value(), data_start, file_size - data_start);
  }
  return out;
}

void write_safetensors(const std::string& path, const std::vector<TensorData>& tensors,
                       const std::map<std::string, std::string>& metadata) {
  json header = json::object();
  if (!metadata.empty()) header["__metadata__"] = metadata;
  std::vector<std::uint8_t> data;
  for (const TensorData& t : tensors) {
    const std::vector<std::uint8_t> bytes = encode_elements(t.values, t.dtype);
    header[t.name] = {{"dtype", to_string(t.dtype)}, {"shape", t.shape}, {"data_offsets", {data.size(), data.size() + bytes.size()}}};
    data.insert(data.end(), bytes.begin(), bytes.end());
  }
  const std::string text = header.dump();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error("cannot write " + path);
  for (int i = 0; i < 8; ++i) out.put(static_cast<char>((static_cast<std::uint64_t>(text.size()) >> (8 * i)) & 0xFFU));
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
  if (!out) throw std::runtime_error("cannot write " + path);
}

}  // namespace lynxsim::store
