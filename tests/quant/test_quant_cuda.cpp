#include <doctest/doctest.h>

#include <bit>
#include <limits>
#include <stdexcept>
#include <vector>

#include "quant_test_data.hpp"
#include "sim/quant/bench_kernels_cuda.hpp"
#include "sim/quant/plane_codec.hpp"
#include "sim/quant/quant_cuda.hpp"

using namespace lynxsim::quant;

TEST_CASE("CUDA kernels refuse to run without a device") {
  if (cuda_available()) {
    MESSAGE("a CUDA device is present: the refusal path is not exercised");
    return;
  }
  const std::vector<float> x(64, 1.0F);
  CHECK(cuda_device_count() == 0);
  CHECK_THROWS_AS(encode_planes_cuda(BlockView(x, 4, 16), QuantConfig{}, PlaneSplit{{4, 4}}), std::runtime_error);
}

namespace {

// Chunks of eight elements cross rows when channels is not a multiple of 8, and groups end inside a
// chunk when the group size is not: both shapes are covered by the callers.
void check_cuda_matches_oracle(int tokens, int channels, int token_group, int channel_group) {
  const auto x = quant_test::wild_values(tokens, channels, 77);
  const BlockView view(x, tokens, channels);
  for (GroupAxis axis : {GroupAxis::per_token, GroupAxis::per_channel}) {
    for (const PlaneSplit& split : {PlaneSplit{{8}}, PlaneSplit{{4, 4}}, PlaneSplit{{2, 2, 4}}, PlaneSplit{{3, 5}},
                                    PlaneSplit{{1, 1, 2, 4}}}) {
      for (bool symmetric : {false, true}) {
        const QuantConfig config{8, axis, axis == GroupAxis::per_token ? token_group : channel_group, symmetric};
        const PlaneEncoded ref = encode_planes_reference(view, config, split);
        const PlaneEncoded gpu = encode_planes_cuda(view, config, split);
        REQUIRE(gpu.planes == ref.planes);
        for (int k = 1; k <= split.num_planes(); ++k) {
          std::vector<float> ref_out(x.size());
          std::vector<float> gpu_out(x.size());
          decode_planes_reference(ref, k, MutableBlockView(ref_out, tokens, channels));
          decode_planes_cuda(gpu, k, MutableBlockView(gpu_out, tokens, channels));
          for (std::size_t i = 0; i < x.size(); ++i) {
            REQUIRE(std::bit_cast<std::uint32_t>(gpu_out[i]) == std::bit_cast<std::uint32_t>(ref_out[i]));
          }
        }
      }
    }
  }
}

}  // namespace

TEST_CASE("CUDA encode and decode equal the CPU oracle bit-exactly") {
  if (!cuda_available()) {
    MESSAGE("skipped: no CUDA device (or lynxsim built without CUDA); the CUDA kernels were not run");
    return;
  }
  struct Shape {
    int tokens, channels, token_group, channel_group;
  };
  for (const Shape& shape : {Shape{131, 96, 32, 20}, Shape{37, 45, 13, 7}}) {
    check_cuda_matches_oracle(shape.tokens, shape.channels, shape.token_group, shape.channel_group);
  }
}

TEST_CASE("CUDA encode handles 4-bit codes and rejects non-finite input") {
  if (!cuda_available()) {
    MESSAGE("skipped: no CUDA device (or lynxsim built without CUDA); the CUDA kernels were not run");
    return;
  }
  const auto x = quant_test::gaussian_channels(33, 40, 2, 5);
  const QuantConfig config{4, GroupAxis::per_token, 16, false};
  CHECK(encode_planes_cuda(BlockView(x, 33, 40), config, PlaneSplit{{1, 3}}).planes ==
        encode_planes_reference(BlockView(x, 33, 40), config, PlaneSplit{{1, 3}}).planes);
  std::vector<float> bad = x;
  bad[100] = std::numeric_limits<float>::infinity();
  CHECK_THROWS_AS(encode_planes_cuda(BlockView(bad, 33, 40), config, PlaneSplit{{4}}), std::invalid_argument);
}

TEST_CASE("the CUDA kernel benchmark refuses without a device, and with one matches the CPU kernels") {
  KernelBenchConfig config;
  config.layers = 1;
  config.kv_heads = 2;
  config.tokens = 256;
  config.rounds = 2;
  if (!cuda_available()) {
    CHECK_THROWS_AS(bench_kernels_cuda(config), std::runtime_error);
    return;
  }
  const CudaKernelBenchResult r = bench_kernels_cuda(config);
  CHECK(r.bit_exact);
  CHECK(r.input_gigabytes == doctest::Approx(2.0 * 256 * 128 * 4 / 1e9));
  CHECK(r.quantize_pack_gbps > 0.0);
  CHECK(r.encode_gbps > 0.0);
  CHECK(r.decode_gbps > 0.0);
  CHECK(r.copy_gbps > 0.0);
}
