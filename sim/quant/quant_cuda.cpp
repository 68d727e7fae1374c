#include "sim/quant/quant_cuda.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include "sim/quant/cuda/cuda_backend.hpp"
#include "sim/quant/input_check.hpp"

namespace lynxsim::quant {
namespace {

void require_device() {
  if (!cuda_available()) {
    throw std::runtime_error("CUDA kernels: no CUDA device is available");
  }
}

}  // namespace

cuda_backend::CodecShape cuda_codec_shape(const QuantConfig& config, const PlaneSplit& split, int tokens,
                                          int channels) {
  split.validate(config.bits);
  if (split.num_planes() > cuda_backend::kMaxPlanes) {
    throw std::invalid_argument("CUDA kernels: at most " + std::to_string(cuda_backend::kMaxPlanes) + " planes");
  }
  cuda_backend::CodecShape shape;
  shape.tokens = tokens;
  shape.channels = channels;
  shape.bits = config.bits;
  shape.per_channel = config.group_axis == GroupAxis::per_channel;
  shape.group_size = config.group_size;
  shape.symmetric = config.symmetric;
  shape.num_planes = split.num_planes();
  for (int p = 0; p < split.num_planes(); ++p) {
    shape.plane_bits[p] = split.bits[static_cast<std::size_t>(p)];
  }
  shape.num_groups = GroupLayout(config, tokens, channels).num_groups();
  return shape;
}

int cuda_device_count() { return cuda_backend::device_count(); }

bool cuda_available() { return cuda_device_count() > 0; }

PlaneEncoded encode_planes_cuda(BlockView input, const QuantConfig& config, const PlaneSplit& split) {
  const cuda_backend::CodecShape shape = cuda_codec_shape(config, split, input.tokens, input.channels);
  require_device();
  PlaneEncoded encoded{config, split, input.tokens, input.channels, {}};
  for (std::size_t size : encoded_bytes(config, split, input.tokens, input.channels)) {
    encoded.planes.emplace_back(size);
  }
  std::vector<std::uint16_t> scales(shape.num_groups);
  std::vector<std::uint16_t> mins(shape.num_groups);
  std::vector<std::uint8_t*> codes;
  for (int p = 0; p < split.num_planes(); ++p) {
    codes.push_back(encoded.planes[static_cast<std::size_t>(p)].data() + plane_code_offset(encoded, p));
  }
  if (!all_finite(input.data.data(), input.size())) {
    reject_non_finite(input, 0, input.tokens);
  }
  if (!input.data.empty()) {
    cuda_backend::encode(shape, input.data.data(), scales.data(), mins.data(), codes.data());
  }
  write_plane_metadata(scales, mins, encoded.planes.front());
  return encoded;
}

void decode_planes_cuda(const PlaneEncoded& encoded, int planes_received, MutableBlockView output) {
  const cuda_backend::CodecShape shape = cuda_codec_shape(encoded.config, encoded.split, encoded.tokens, encoded.channels);
  const auto expected = encoded_bytes(encoded.config, encoded.split, encoded.tokens, encoded.channels);
  if (planes_received < 1 || planes_received > encoded.split.num_planes() ||
      encoded.planes.size() < static_cast<std::size_t>(planes_received)) {
    throw std::invalid_argument("CUDA decode: " + std::to_string(planes_received) + " planes requested");
  }
  for (int p = 0; p < planes_received; ++p) {
    if (encoded.planes[static_cast<std::size_t>(p)].size() != expected[static_cast<std::size_t>(p)]) {
      throw std::invalid_argument("CUDA decode: plane " + std::to_string(p) + " has the wrong size");
    }
  }
  if (output.tokens != encoded.tokens || output.channels != encoded.channels) {
    throw std::invalid_argument("CUDA decode: output view shape differs from the encoded block");
  }
  require_device();
  std::vector<std::uint16_t> scales;
  std::vector<std::uint16_t> mins;
  read_plane_metadata(encoded.planes.front(), shape.num_groups, scales, mins);
  std::vector<const std::uint8_t*> codes;
  for (int p = 0; p < planes_received; ++p) {
    codes.push_back(encoded.planes[static_cast<std::size_t>(p)].data() + plane_code_offset(encoded, p));
  }
  if (!output.data.empty()) {
    cuda_backend::decode(shape, codes.data(), planes_received, scales.data(), mins.data(), output.data.data());
  }
}

}  // namespace lynxsim::quant
