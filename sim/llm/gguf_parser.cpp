#include "sim/llm/gguf_parser.hpp"

#include <algorithm>
#include <cstring>

namespace lynxsim::llm {
namespace {

constexpr int max_array_depth = 4;
constexpr std::uint64_t max_dims = 4;
constexpr std::uint64_t min_kv_bytes = 8 + 4 + 1;
constexpr std::uint64_t min_tensor_bytes = 8 + 4 + 8 + 4 + 8;
constexpr std::uint64_t max_elements = std::uint64_t{1} << 48;
// Elements of one metadata array, bounded before they are allocated (each takes a GgufValue, far
// more than its bytes in the file): 64 times the largest tokenizer vocabulary lynxsim reads
// (Gemma 3, 262,144 tokens: tokenizer.ggml.tokens in its GGUF).
constexpr std::uint64_t max_array_elements = std::uint64_t{1} << 24;

std::uint64_t scalar_bytes(GgufValueType type) {
  switch (type) {
    case GgufValueType::U8:
    case GgufValueType::I8:
    case GgufValueType::Bool: return 1;
    case GgufValueType::U16:
    case GgufValueType::I16: return 2;
    case GgufValueType::U32:
    case GgufValueType::I32:
    case GgufValueType::F32: return 4;
    case GgufValueType::String:
    case GgufValueType::Array:
    case GgufValueType::U64:
    case GgufValueType::I64:
    case GgufValueType::F64: return 8;
  }
  return 8;
}

template <typename T>
T sign_cast(std::uint64_t raw) {
  T out{};
  std::memcpy(&out, &raw, sizeof(T));
  return out;
}

}  // namespace

void GgufParser::fail(const std::string& what) const {
  throw GgufError("malformed GGUF at byte " + std::to_string(pos_) + ": " + what);
}

void GgufParser::need(std::uint64_t count, const char* what) const {
  if (count > file_.bytes_.size() - pos_) {
    fail(std::string("truncated file: ") + what + " needs " + std::to_string(count) + " bytes, " +
         std::to_string(file_.bytes_.size() - pos_) + " remain");
  }
}

std::uint8_t GgufParser::u8() {
  need(1, "a u8");
  return file_.bytes_[pos_++];
}

std::uint32_t GgufParser::u32() {
  need(4, "a u32");
  std::uint32_t out = 0;
  for (int k = 0; k < 4; ++k) {
    out |= static_cast<std::uint32_t>(file_.bytes_[pos_ + k]) << (8 * k);
  }
  pos_ += 4;
  return out;
}

std::uint64_t GgufParser::u64() {
  need(8, "a u64");
  std::uint64_t out = 0;
  for (int k = 0; k < 8; ++k) {
    out |= static_cast<std::uint64_t>(file_.bytes_[pos_ + k]) << (8 * k);
  }
  pos_ += 8;
  return out;
}

std::string GgufParser::string(const char* what) {
  const std::uint64_t length = u64();
  need(length, what);
  std::string out(reinterpret_cast<const char*>(file_.bytes_.data() + pos_),
                  static_cast<std::size_t>(length));
  pos_ += static_cast<std::size_t>(length);
  return out;
}

GgufValueType GgufParser::value_type(std::uint32_t raw) const {
  if (raw > static_cast<std::uint32_t>(GgufValueType::F64)) {
    fail("unknown metadata value type " + std::to_string(raw));
  }
  return static_cast<GgufValueType>(raw);
}

GgufValue GgufParser::array(int depth) {
  if (depth >= max_array_depth) {
    fail("metadata arrays nested deeper than " + std::to_string(max_array_depth));
  }
  GgufValue out;
  out.type = GgufValueType::Array;
  out.element_type = value_type(u32());
  const std::uint64_t count = u64();
  if (count > (file_.bytes_.size() - pos_) / scalar_bytes(out.element_type)) {
    fail("metadata array of " + std::to_string(count) + " elements exceeds the file");
  }
  if (count > max_array_elements) {
    fail("metadata array of " + std::to_string(count) + " elements, more than the " +
         std::to_string(max_array_elements) + " a GGUF file may hold");
  }
  out.items.reserve(static_cast<std::size_t>(count));
  for (std::uint64_t k = 0; k < count; ++k) {
    out.items.push_back(value(out.element_type, depth + 1));
  }
  return out;
}

GgufValue GgufParser::value(GgufValueType type, int depth) {
  GgufValue out;
  out.type = type;
  switch (type) {
    case GgufValueType::U8: out.u = u8(); break;
    case GgufValueType::I8: out.i = sign_cast<std::int8_t>(u8()); break;
    case GgufValueType::U16: out.u = u8() | (static_cast<std::uint32_t>(u8()) << 8); break;
    case GgufValueType::I16:
      out.i = sign_cast<std::int16_t>(u8() | (static_cast<std::uint32_t>(u8()) << 8));
      break;
    case GgufValueType::U32: out.u = u32(); break;
    case GgufValueType::I32: out.i = sign_cast<std::int32_t>(u32()); break;
    case GgufValueType::U64: out.u = u64(); break;
    case GgufValueType::I64: out.i = sign_cast<std::int64_t>(u64()); break;
    case GgufValueType::F32: out.f = sign_cast<float>(u32()); break;
    case GgufValueType::F64: out.f = sign_cast<double>(u64()); break;
    case GgufValueType::Bool: {
      const std::uint8_t raw = u8();
      if (raw > 1) {
        fail("bool metadata value " + std::to_string(raw) + " is neither 0 nor 1");
      }
      out.b = raw == 1;
      break;
    }
    case GgufValueType::String: out.s = string("a metadata string"); break;
    case GgufValueType::Array: return array(depth);
  }
  return out;
}

void GgufParser::header() {
  need(4, "the magic");
  if (std::memcmp(file_.bytes_.data(), "GGUF", 4) != 0) {
    fail("wrong magic (not a GGUF file)");
  }
  pos_ = 4;
  file_.version_ = u32();
  if (file_.version_ != 2 && file_.version_ != 3) {
    fail("unsupported GGUF version " + std::to_string(file_.version_) + " (2 and 3 are read)");
  }
}

void GgufParser::metadata(std::uint64_t count) {
  if (count > (file_.bytes_.size() - pos_) / min_kv_bytes) {
    fail("metadata count " + std::to_string(count) + " exceeds the file");
  }
  for (std::uint64_t k = 0; k < count; ++k) {
    std::string key = string("a metadata key");
    const GgufValueType type = value_type(u32());
    GgufValue parsed = value(type, 0);
    if (!file_.metadata_.emplace(key, std::move(parsed)).second) {
      fail("duplicate metadata key '" + key + "'");
    }
    file_.keys_.push_back(std::move(key));
  }
  if (file_.has("general.alignment")) {
    const GgufValue& alignment = file_.value("general.alignment");
    const std::int64_t a = alignment.is_integer() ? alignment.as_int() : 0;
    if (a <= 0 || (a & (a - 1)) != 0 || a > 65536) {
      fail("general.alignment must be a power of two up to 65536");
    }
    file_.alignment_ = static_cast<std::uint64_t>(a);
  }
}

GgufTensorInfo GgufParser::tensor_info() {
  GgufTensorInfo info;
  info.name = string("a tensor name");
  const std::uint32_t n_dims = u32();
  if (n_dims == 0 || n_dims > max_dims) {
    fail("tensor '" + info.name + "' has " + std::to_string(n_dims) + " dimensions (1 to 4)");
  }
  info.element_count = 1;
  for (std::uint32_t d = 0; d < n_dims; ++d) {
    const std::uint64_t dim = u64();
    if (dim == 0 || dim > max_elements || info.element_count > max_elements / dim) {
      fail("tensor '" + info.name + "' has an empty or oversized dimension");
    }
    info.dims.push_back(dim);
    info.element_count *= dim;
  }
  const std::uint32_t type = u32();
  if (!is_supported_ggml_type(type)) {
    fail("tensor '" + info.name + "' has unknown or unsupported type " + std::to_string(type));
  }
  info.type = static_cast<GgmlType>(type);
  if (info.dims[0] % ggml_type_traits(info.type).block_size != 0) {
    fail("tensor '" + info.name + "' row is not a whole number of blocks");
  }
  info.byte_size = ggml_row_bytes(info.type, info.element_count);
  info.offset = u64();
  return info;
}

void GgufParser::tensor_index(std::uint64_t count) {
  if (count > (file_.bytes_.size() - pos_) / min_tensor_bytes) {
    fail("tensor count " + std::to_string(count) + " exceeds the file");
  }
  for (std::uint64_t k = 0; k < count; ++k) {
    GgufTensorInfo info = tensor_info();
    if (!file_.tensor_index_.emplace(info.name, file_.tensors_.size()).second) {
      fail("duplicate tensor name '" + info.name + "'");
    }
    file_.tensors_.push_back(std::move(info));
  }
}

void GgufParser::data_section() {
  const std::uint64_t a = file_.alignment_;
  const std::uint64_t start = (pos_ + a - 1) / a * a;
  if (!file_.tensors_.empty() && start > file_.bytes_.size()) {
    fail("truncated file: the tensor data section is missing");
  }
  file_.data_offset_ =
      static_cast<std::size_t>(std::min<std::uint64_t>(start, file_.bytes_.size()));
  const std::uint64_t data_bytes = file_.bytes_.size() - file_.data_offset_;
  std::vector<const GgufTensorInfo*> by_offset;
  for (const GgufTensorInfo& info : file_.tensors_) {
    if (info.offset % a != 0) {
      fail("tensor '" + info.name + "' offset is not aligned to " + std::to_string(a));
    }
    if (info.offset > data_bytes || info.byte_size > data_bytes - info.offset) {
      fail("truncated file: tensor '" + info.name + "' data runs past the end of the file");
    }
    by_offset.push_back(&info);
  }
  std::sort(by_offset.begin(), by_offset.end(),
            [](const auto* x, const auto* y) { return x->offset < y->offset; });
  for (std::size_t k = 1; k < by_offset.size(); ++k) {
    if (by_offset[k - 1]->offset + by_offset[k - 1]->byte_size > by_offset[k]->offset) {
      fail("tensors '" + by_offset[k - 1]->name + "' and '" + by_offset[k]->name + "' overlap");
    }
  }
}

void GgufParser::run() {
  header();
  const std::uint64_t tensor_count = u64();
  const std::uint64_t kv_count = u64();
  metadata(kv_count);
  tensor_index(tensor_count);
  data_section();
}

}  // namespace lynxsim::llm
