#include "sim/store/npy_format.hpp"

#include <fstream>
#include <stdexcept>

#include "sim/io/input_file.hpp"

namespace lynxsim::store {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw std::invalid_argument(".npy file " + path + ": " + what);
}

std::string dict_value(const std::string& path, const std::string& header, const std::string& key) {
  const std::string quoted = "'" + key + "':";
  const std::size_t at = header.find(quoted);
  if (at == std::string::npos) fail(path, "header lacks '" + key + "'");
  std::size_t start = header.find_first_not_of(' ', at + quoted.size());
  if (start == std::string::npos) fail(path, "header value of '" + key + "' is missing");
  const char open = header[start];
  const char close = open == '(' ? ')' : open == '\'' ? '\'' : ',';
  const std::size_t end = header.find(close, start + 1);
  if (end == std::string::npos) fail(path, "header value of '" + key + "' is not terminated");
  return header.substr(start, end - start + (close == ',' ? 0 : 1));
}

std::vector<std::int64_t> parse_shape(const std::string& path, const std::string& text) {
  std::vector<std::int64_t> shape;
  std::int64_t value = -1;
  for (std::size_t i = 1; i < text.size(); ++i) {
    const char c = text[i];
    if (c >= '0' && c <= '9') {
      if (value > kMaxTensorDim) fail(path, "shape dimension out of range in " + text);
      value = (value < 0 ? 0 : value * 10) + (c - '0');
    } else if (c == ',' || c == ')') {
      if (value >= 0) shape.push_back(value);
      value = -1;
    } else if (c != ' ') {
      fail(path, "bad shape " + text);
    }
  }
  return shape;
}

TensorDtype parse_descr(const std::string& path, const std::string& descr) {
  if (descr == "'<f4'") return TensorDtype::f32;
  if (descr == "'<f2'") return TensorDtype::f16;
  if (descr == "'<u2'") return TensorDtype::bf16;
  fail(path, "unsupported descr " + descr + " ('<f4', '<f2', '<u2' as BF16 bits)");
}

}  // namespace

TensorInfo read_npy_header(const std::string& path, const std::string& name) {
  const io::InputFile in(path, io::kMaxKvFileBytes);
  unsigned char preamble[12] = {};
  if (in.size() < 10) fail(path, "not a .npy file (shorter than its preamble)");
  in.read_at(0, preamble, 10);
  if (preamble[0] != 0x93 || std::string(reinterpret_cast<char*>(preamble) + 1, 5) != "NUMPY") {
    fail(path, "not a .npy file (bad magic)");
  }
  const int major = preamble[6];
  if (major < 1 || major > 3) fail(path, "unsupported format version " + std::to_string(major));
  const std::uint64_t prefix = major >= 2 ? 12 : 10;
  if (major >= 2) in.read_at(10, preamble + 10, 2);
  std::uint64_t header_size = preamble[8] | (preamble[9] << 8U);
  if (major >= 2) header_size |= (std::uint64_t{preamble[10]} << 16U) | (std::uint64_t{preamble[11]} << 24U);
  if (header_size > io::kMaxNpyHeaderBytes) {
    fail(path, "header length " + std::to_string(header_size) + " is more than the " +
                   std::to_string(io::kMaxNpyHeaderBytes) + " bytes a .npy header may have");
  }
  std::string header(static_cast<std::size_t>(header_size), '\0');
  in.read_at(prefix, header.data(), header.size());
  if (dict_value(path, header, "fortran_order").find("False") == std::string::npos) fail(path, "Fortran order is not supported");
  TensorInfo info;
  info.name = name;
  info.path = path;
  info.dtype = parse_descr(path, dict_value(path, header, "descr"));
  info.shape = parse_shape(path, dict_value(path, header, "shape"));
  info.data_offset = prefix + header_size;
  const std::uint64_t size = in.size();
  const auto bytes = static_cast<std::uint64_t>(info.num_elements()) * static_cast<std::uint64_t>(dtype_bytes(info.dtype));
  if (size != info.data_offset + bytes) fail(path, "data size does not match the shape");
  return info;
}

void write_npy(const std::string& path, const TensorData& tensor) {
  const char* descr = tensor.dtype == TensorDtype::f32 ? "<f4" : tensor.dtype == TensorDtype::f16 ? "<f2" : "<u2";
  std::string shape = "(";
  for (const auto s : tensor.shape) shape += std::to_string(s) + ", ";
  if (tensor.shape.size() > 1) shape.resize(shape.size() - 2);
  if (tensor.shape.size() == 1) shape.resize(shape.size() - 1);
  std::string header = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': " + shape + "), }";
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error("cannot write " + path);
  out.write("\x93NUMPY\x01\x00", 8);
  out.put(static_cast<char>(header.size() & 0xFFU));
  out.put(static_cast<char>(header.size() >> 8U));
  out.write(header.data(), static_cast<std::streamsize>(header.size()));
  const std::vector<std::uint8_t> bytes = encode_elements(tensor.values, tensor.dtype);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path);
}

}  // namespace lynxsim::store
