#include <doctest/doctest.h>

#include <bit>
#include <stdexcept>
#include <vector>

#include "quant_test_data.hpp"
#include "sim/quant/quant_cuda.hpp"
#include "sim/quant/scaled_cuda.hpp"

using namespace lynxsim::quant;

TEST_CASE("CUDA scaled kernels refuse to run without a device") {
  if (cuda_available()) {
    MESSAGE("a CUDA device is present: the refusal path is not exercised");
    return;
  }
  const std::vector<float> x(64, 1.0F);
  CHECK_THROWS_AS(encode_scaled_cuda(BlockView(x, 4, 16), ScaledConfig{}), std::runtime_error);
}

TEST_CASE("CUDA scaled kernels equal the CPU reference bit-exactly") {
  if (!cuda_available()) {
    MESSAGE("skipped: no CUDA device (or lynxsim built without CUDA); the CUDA kernels were not run");
    return;
  }
  // Rows of 1, 7 and 13 channels put four-element chunks across rows; 130 rows of 128 use the
  // vector path; the zero block gives the smallest scale.
  for (const auto& [tokens, channels] : {std::pair{5, 1}, {9, 7}, {11, 13}, {130, 128}}) {
    const auto x = quant_test::wild_values(tokens, channels, 3U + static_cast<unsigned>(channels));
    const std::vector<float> zeros(x.size(), 0.0F);
    for (const auto* data : {&x, &zeros}) {
      const BlockView view(*data, tokens, channels);
      for (const ElementCode code : {ElementCode::fp8_e4m3, ElementCode::fp8_e5m2, ElementCode::int8}) {
        for (const ScaledConfig config : {ScaledConfig{code, ScaleScope::per_tensor, amax_scale(view, code)},
                                          ScaledConfig{code, ScaleScope::per_tensor, 1e-3F},
                                          ScaledConfig{code, ScaleScope::per_token, 1.0F}}) {
          const ScaledBlock ref = encode_scaled_reference(view, config);
          const ScaledBlock gpu = encode_scaled_cuda(view, config);
          REQUIRE(gpu.codes == ref.codes);
          REQUIRE(gpu.scales == ref.scales);
          std::vector<float> a(x.size());
          std::vector<float> b(x.size());
          decode_scaled_reference(ref, MutableBlockView(a, tokens, channels));
          decode_scaled_cuda(gpu, MutableBlockView(b, tokens, channels));
          for (std::size_t i = 0; i < a.size(); ++i) REQUIRE(std::bit_cast<std::uint32_t>(a[i]) == std::bit_cast<std::uint32_t>(b[i]));
        }
      }
    }
  }
}
