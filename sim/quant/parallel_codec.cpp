#include <algorithm>
#include <exception>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "sim/quant/plane_codec.hpp"

namespace lynxsim::quant {
namespace {

int resolve_threads(int requested, std::size_t jobs) {
  int threads = requested > 0 ? requested : static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  return static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(threads), std::max<std::size_t>(jobs, 1)));
}

// Runs job(i) for i in [0, jobs) on `threads` threads, each taking a contiguous range; the first
// exception thrown by any job is rethrown after all threads have joined.
template <typename Job>
void run_parallel(std::size_t jobs, int threads, const Job& job) {
  if (threads <= 1) {
    for (std::size_t i = 0; i < jobs; ++i) {
      job(i);
    }
    return;
  }
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(threads));
  std::vector<std::thread> workers;
  const std::size_t per_thread = (jobs + static_cast<std::size_t>(threads) - 1) / static_cast<std::size_t>(threads);
  for (int w = 0; w < threads; ++w) {
    workers.emplace_back([&, w] {
      const std::size_t begin = static_cast<std::size_t>(w) * per_thread;
      const std::size_t end = std::min(jobs, begin + per_thread);
      try {
        for (std::size_t i = begin; i < end; ++i) {
          job(i);
        }
      } catch (...) {
        errors[static_cast<std::size_t>(w)] = std::current_exception();
      }
    });
  }
  for (auto& worker : workers) {
    worker.join();
  }
  for (const auto& error : errors) {
    if (error) {
      std::rethrow_exception(error);
    }
  }
}

}  // namespace

std::vector<PlaneEncoded> encode_blocks_fast(std::span<const BlockView> inputs, const QuantConfig& config,
                                             const PlaneSplit& split, int num_threads) {
  config.validate();
  split.validate(config.bits);
  std::vector<PlaneEncoded> encoded(inputs.size());
  encode_blocks_fast_into(inputs, config, split, num_threads, encoded);
  return encoded;
}

void encode_blocks_fast_into(std::span<const BlockView> inputs, const QuantConfig& config, const PlaneSplit& split,
                             int num_threads, std::span<PlaneEncoded> outputs) {
  if (inputs.size() != outputs.size()) {
    throw std::invalid_argument("encode: " + std::to_string(inputs.size()) + " blocks but " +
                                std::to_string(outputs.size()) + " outputs");
  }
  config.validate();
  split.validate(config.bits);
  run_parallel(inputs.size(), resolve_threads(num_threads, inputs.size()),
               [&](std::size_t i) { encode_planes_fast_into(inputs[i], config, split, outputs[i]); });
}

void decode_blocks_fast(std::span<const PlaneEncoded> encoded, int planes_received,
                        std::span<const MutableBlockView> outputs, int num_threads) {
  if (encoded.size() != outputs.size()) {
    throw std::invalid_argument("decode: " + std::to_string(encoded.size()) + " blocks but " +
                                std::to_string(outputs.size()) + " outputs");
  }
  run_parallel(encoded.size(), resolve_threads(num_threads, encoded.size()),
               [&](std::size_t i) { decode_planes_fast(encoded[i], planes_received, outputs[i]); });
}

}  // namespace lynxsim::quant
