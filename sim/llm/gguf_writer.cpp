#include "sim/llm/gguf_writer.hpp"

#include <bit>
#include <fstream>
#include <stdexcept>

namespace lynxsim::llm {
namespace {

constexpr std::uint64_t alignment = 32;

void put_u32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int k = 0; k < 4; ++k) {
    out.push_back(static_cast<std::uint8_t>(v >> (8 * k)));
  }
}

void put_u64(std::vector<std::uint8_t>& out, std::uint64_t v) {
  for (int k = 0; k < 8; ++k) {
    out.push_back(static_cast<std::uint8_t>(v >> (8 * k)));
  }
}

void put_string(std::vector<std::uint8_t>& out, const std::string& s) {
  put_u64(out, s.size());
  out.insert(out.end(), s.begin(), s.end());
}

constexpr std::uint32_t t_u32 = 4;
constexpr std::uint32_t t_i32 = 5;
constexpr std::uint32_t t_f32 = 6;
constexpr std::uint32_t t_bool = 7;
constexpr std::uint32_t t_string = 8;
constexpr std::uint32_t t_array = 9;

}  // namespace

void GgufWriter::key(const std::string& name, std::uint32_t value_type) {
  put_string(kv_, name);
  put_u32(kv_, value_type);
  ++kv_count_;
}

void GgufWriter::add_u32(const std::string& name, std::uint32_t value) {
  key(name, t_u32);
  put_u32(kv_, value);
}

void GgufWriter::add_i32(const std::string& name, std::int32_t value) {
  key(name, t_i32);
  put_u32(kv_, static_cast<std::uint32_t>(value));
}

void GgufWriter::add_f32(const std::string& name, float value) {
  key(name, t_f32);
  put_u32(kv_, std::bit_cast<std::uint32_t>(value));
}

void GgufWriter::add_bool(const std::string& name, bool value) {
  key(name, t_bool);
  kv_.push_back(value ? 1 : 0);
}

void GgufWriter::add_string(const std::string& name, const std::string& value) {
  key(name, t_string);
  put_string(kv_, value);
}

void GgufWriter::add_string_array(const std::string& name, const std::vector<std::string>& values) {
  key(name, t_array);
  put_u32(kv_, t_string);
  put_u64(kv_, values.size());
  for (const std::string& s : values) {
    put_string(kv_, s);
  }
}

void GgufWriter::add_i32_array(const std::string& name, const std::vector<std::int32_t>& values) {
  key(name, t_array);
  put_u32(kv_, t_i32);
  put_u64(kv_, values.size());
  for (const std::int32_t v : values) {
    put_u32(kv_, static_cast<std::uint32_t>(v));
  }
}

void GgufWriter::add_tensor(const std::string& name, const std::vector<std::uint64_t>& dims,
                            GgmlType type, std::span<const std::uint8_t> data) {
  std::uint64_t count = 1;
  for (const std::uint64_t d : dims) {
    count *= d;
  }
  if (dims.empty() || ggml_row_bytes(type, count) != data.size()) {
    throw std::invalid_argument("GgufWriter: tensor '" + name + "' byte count does not match");
  }
  tensors_.push_back({name, dims, type, {data.begin(), data.end()}});
}

void GgufWriter::add_f32_tensor(const std::string& name, const std::vector<std::uint64_t>& dims,
                                std::span<const float> values) {
  std::vector<std::uint8_t> raw;
  raw.reserve(values.size() * 4);
  for (const float v : values) {
    put_u32(raw, std::bit_cast<std::uint32_t>(v));
  }
  add_tensor(name, dims, GgmlType::F32, raw);
}

std::vector<std::uint8_t> GgufWriter::bytes() const {
  std::vector<std::uint8_t> out{'G', 'G', 'U', 'F'};
  put_u32(out, 3);
  put_u64(out, tensors_.size());
  put_u64(out, kv_count_);
  out.insert(out.end(), kv_.begin(), kv_.end());
  std::uint64_t offset = 0;
  for (const Tensor& t : tensors_) {
    put_string(out, t.name);
    put_u32(out, static_cast<std::uint32_t>(t.dims.size()));
    for (const std::uint64_t d : t.dims) {
      put_u64(out, d);
    }
    put_u32(out, static_cast<std::uint32_t>(t.type));
    put_u64(out, offset);
    offset += (t.data.size() + alignment - 1) / alignment * alignment;
  }
  for (const Tensor& t : tensors_) {
    out.resize((out.size() + alignment - 1) / alignment * alignment, 0);
    out.insert(out.end(), t.data.begin(), t.data.end());
  }
  return out;
}

void GgufWriter::write(const std::filesystem::path& path) const {
  const std::vector<std::uint8_t> data = bytes();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
  if (!out) {
    throw std::runtime_error("cannot write GGUF file " + path.string());
  }
}

}  // namespace lynxsim::llm
