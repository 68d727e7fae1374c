#include "sim/llm/throughput.hpp"

#include <chrono>
#include <stdexcept>

#include "sim/llm/session.hpp"

namespace lynxsim::llm {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

double Throughput::prefill_tokens_per_s() const { return prefill_s > 0.0 ? prompt_tokens / prefill_s : 0.0; }

double Throughput::decode_tokens_per_s() const { return decode_s > 0.0 ? decoded_tokens / decode_s : 0.0; }

Throughput measure_throughput(const Model& model, std::span<const int> prompt, const ThroughputConfig& config) {
  if (prompt.empty()) throw std::invalid_argument("throughput: the prompt is empty");
  if (config.decode_tokens <= 0) throw std::invalid_argument("throughput: decode_tokens must be positive");
  Session session(model, SessionOptions{config.n_threads, KvPrecision::F32});
  Throughput t;
  t.threads = session.threads();
  t.prompt_tokens = static_cast<int>(prompt.size());
  auto start = std::chrono::steady_clock::now();
  session.prefill(prompt);
  t.prefill_s = seconds_since(start);
  start = std::chrono::steady_clock::now();
  t.decoded_tokens = static_cast<int>(session.generate_greedy(config.decode_tokens).size());
  t.decode_s = seconds_since(start);
  return t;
}

}  // namespace lynxsim::llm
