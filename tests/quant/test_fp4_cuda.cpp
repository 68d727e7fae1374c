#include <doctest/doctest.h>

#include <bit>
#include <limits>
#include <stdexcept>
#include <vector>

#include "quant_test_data.hpp"
#include "sim/quant/fp4_codec.hpp"
#include "sim/quant/fp4_cuda.hpp"
#include "sim/quant/quant_cuda.hpp"

using namespace lynxsim::quant;

TEST_CASE("CUDA FP4 kernels refuse to run without a device") {
  if (cuda_available()) {
    MESSAGE("a CUDA device is present: the refusal path is not exercised");
    return;
  }
  const std::vector<float> x(64, 1.0F);
  CHECK_THROWS_AS(encode_fp4_cuda(BlockView(x, 2, 32), Fp4Format::nvfp4), std::runtime_error);
  CHECK_THROWS_AS(encode_fp4_cuda(BlockView(x, 2, 32), Fp4Format::mxfp4), std::runtime_error);
  const Fp4Encoded e = encode_fp4_reference(BlockView(x, 2, 32), Fp4Format::mxfp4);
  std::vector<float> out(64);
  CHECK_THROWS_AS(decode_fp4_cuda(e, MutableBlockView(out, 2, 32)), std::runtime_error);
}

TEST_CASE("CUDA FP4 kernels refuse bad input before looking for a device") {
  std::vector<float> x(64, 1.0F);
  x[5] = std::numeric_limits<float>::infinity();
  CHECK_THROWS_AS(encode_fp4_cuda(BlockView(x, 2, 32), Fp4Format::nvfp4), std::invalid_argument);
  CHECK_THROWS_AS(encode_fp4_cuda(BlockView(x, 1, 64), Fp4Format::mxfp4, -1.0F), std::invalid_argument);
  CHECK_THROWS_AS(encode_fp4_cuda(BlockView(x, 4, 16), Fp4Format::mxfp4), std::invalid_argument);
}

namespace {

void check_cuda_matches_oracle(const std::vector<float>& x, int tokens, int channels, Fp4Format format,
                               std::optional<float> tensor_amax) {
  const BlockView view(x, tokens, channels);
  const Fp4Encoded ref = encode_fp4_reference(view, format, tensor_amax);
  const Fp4Encoded gpu = encode_fp4_cuda(view, format, tensor_amax);
  REQUIRE(std::bit_cast<std::uint32_t>(gpu.tensor_scale) == std::bit_cast<std::uint32_t>(ref.tensor_scale));
  REQUIRE(gpu.scales == ref.scales);
  REQUIRE(gpu.codes == ref.codes);
  std::vector<float> ref_out(x.size());
  std::vector<float> gpu_out(x.size());
  decode_fp4_reference(ref, MutableBlockView(ref_out, tokens, channels));
  decode_fp4_cuda(gpu, MutableBlockView(gpu_out, tokens, channels));
  for (std::size_t i = 0; i < x.size(); ++i) {
    REQUIRE(std::bit_cast<std::uint32_t>(gpu_out[i]) == std::bit_cast<std::uint32_t>(ref_out[i]));
  }
}

}  // namespace

TEST_CASE("CUDA FP4 encode and decode equal the CPU oracle bit-exactly") {
  if (!cuda_available()) {
    MESSAGE("skipped: no CUDA device (or lynxsim built without CUDA); the CUDA FP4 kernels were not run");
    return;
  }
  struct Shape {
    int tokens, channels;
  };
  for (Fp4Format format : {Fp4Format::nvfp4, Fp4Format::mxfp4}) {
    for (const Shape s : {Shape{1, 32}, Shape{37, 96}, Shape{301, 128}, Shape{9, 256}}) {
      CAPTURE(s.tokens);
      CAPTURE(s.channels);
      check_cuda_matches_oracle(quant_test::wild_values(s.tokens, s.channels, 31), s.tokens, s.channels, format,
                                std::nullopt);
      check_cuda_matches_oracle(quant_test::gaussian_channels(s.tokens, s.channels, 2, 32), s.tokens, s.channels,
                                format, 2.5F);
    }
  }
}
