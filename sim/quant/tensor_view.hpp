#pragma once
// Views of one KV block: the keys or values of one (layer, KV head), laid out row-major as
// [tokens][channels] float32 (channels = head dimension). A view never owns its data; the caller
// keeps the storage alive. bf16 tensors are widened to float32 first (half_precision.hpp).

#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace lynxsim::quant {

template <typename T>
struct BasicBlockView {
  std::span<T> data;
  int tokens = 0;
  int channels = 0;

  BasicBlockView() = default;
  BasicBlockView(std::span<T> values, int num_tokens, int num_channels)
      : data(values), tokens(num_tokens), channels(num_channels) {
    if (num_tokens < 0 || num_channels < 0 ||
        values.size() != static_cast<std::size_t>(num_tokens) * static_cast<std::size_t>(num_channels)) {
      throw std::invalid_argument("block view: " + std::to_string(values.size()) + " values do not form " +
                                  std::to_string(num_tokens) + " tokens x " + std::to_string(num_channels) +
                                  " channels");
    }
  }

  template <typename U>
    requires std::is_convertible_v<U (*)[], T (*)[]>
  BasicBlockView(const BasicBlockView<U>& other)  // NOLINT(google-explicit-constructor): mutable -> const
      : data(other.data), tokens(other.tokens), channels(other.channels) {}

  std::size_t size() const { return data.size(); }
  T& at(int token, int channel) const {
    return data[static_cast<std::size_t>(token) * static_cast<std::size_t>(channels) +
                static_cast<std::size_t>(channel)];
  }
  T* row(int token) const { return data.data() + static_cast<std::size_t>(token) * static_cast<std::size_t>(channels); }
};

using BlockView = BasicBlockView<const float>;
using MutableBlockView = BasicBlockView<float>;

}  // namespace lynxsim::quant
