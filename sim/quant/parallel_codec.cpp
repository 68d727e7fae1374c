#include <algorithm>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "sim/core/parallel_for.hpp"
#include "sim/quant/plane_codec.hpp"

namespace lynxsim::quant {
namespace {

int resolve_threads(int requested, std::size_t jobs) {
  int threads = requested > 0 ? requested : static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  return static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(threads), std::max<std::size_t>(jobs, 1)));
}

}  // namespace

std::vector<PlaneEncoded> encode_blocks_fast(std::span<const BlockView> inputs, const QuantConfig& config,
                                             const PlaneSplit& split, int num_threads, KernelIsa isa) {
  config.validate();
  split.validate(config.bits);
  std::vector<PlaneEncoded> encoded(inputs.size());
  encode_blocks_fast_into(inputs, config, split, num_threads, encoded, isa);
  return encoded;
}

void encode_blocks_fast_into(std::span<const BlockView> inputs, const QuantConfig& config, const PlaneSplit& split,
                             int num_threads, std::span<PlaneEncoded> outputs, KernelIsa isa) {
  if (inputs.size() != outputs.size()) {
    throw std::invalid_argument("encode: " + std::to_string(inputs.size()) + " blocks but " +
                                std::to_string(outputs.size()) + " outputs");
  }
  config.validate();
  split.validate(config.bits);
  parallel_for(inputs.size(), resolve_threads(num_threads, inputs.size()),
               [&](std::size_t i) { encode_planes_fast_into(inputs[i], config, split, outputs[i], isa); });
}

void decode_blocks_fast(std::span<const PlaneEncoded> encoded, int planes_received,
                        std::span<const MutableBlockView> outputs, int num_threads, KernelIsa isa) {
  if (encoded.size() != outputs.size()) {
    throw std::invalid_argument("decode: " + std::to_string(encoded.size()) + " blocks but " +
                                std::to_string(outputs.size()) + " outputs");
  }
  parallel_for(encoded.size(), resolve_threads(num_threads, encoded.size()),
               [&](std::size_t i) { decode_planes_fast(encoded[i], planes_received, outputs[i], isa); });
}

}  // namespace lynxsim::quant
