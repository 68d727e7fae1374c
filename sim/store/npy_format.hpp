#pragma once
// NumPy .npy files (format versions 1.0, 2.0 and 3.0), read and written without any library.
//
// Layout: the magic "\x93NUMPY", major and minor version bytes, the header length (uint16 little
// endian for version 1, uint32 for 2 and 3), then an ASCII Python dict
// {'descr': '<f4', 'fortran_order': False, 'shape': (a, b, c), } padded with spaces to a multiple of
// 64 bytes and ended by '\n'; the row-major data follows. Accepted descr: '<f4' (F32), '<f2' (F16) and
// '<u2', which lynxsim reads as raw BF16 bits because NumPy has no bfloat16 type (scripts/capture_kv.py
// writes BF16 tensors that way). Fortran order, big-endian and other types are rejected.

#include <string>

#include "sim/store/tensor_file.hpp"

namespace lynxsim::store {

TensorInfo read_npy_header(const std::string& path, const std::string& name);  // throws std::invalid_argument
void write_npy(const std::string& path, const TensorData& tensor);

}  // namespace lynxsim::store
