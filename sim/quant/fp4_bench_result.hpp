#pragma once
// Figures of the FP4 kernel benchmark (fp4_bench.hpp), apart so that the kernel benchmark's result
// (bench_kernels.hpp) can carry them.

#include <string>

#include "sim/quant/fp4_codec.hpp"

namespace lynxsim::quant {

// nvfp4 with the tensor amax measured in the call (two reads of the KV) or given (a calibrated
// scale: one read); lynx-nvfp4 encodes both planes and decodes both, with the amax given.
enum class Fp4BenchCode { nvfp4_own_amax, nvfp4_given_amax, mxfp4, lynx_nvfp4 };

std::string to_string(Fp4BenchCode code);

struct Fp4FormatRates {
  Fp4BenchCode code = Fp4BenchCode::nvfp4_own_amax;
  double encode_gbps = 0.0;
  double decode_gbps = 0.0;
  double oracle_encode_gbps = 0.0;
  double oracle_decode_gbps = 0.0;
};

struct Fp4KernelBenchResult {
  double input_gigabytes = 0.0;
  double memcpy_gbps = 0.0;
  Fp4FormatRates formats[4];  // in the order of Fp4BenchCode
};

}  // namespace lynxsim::quant
