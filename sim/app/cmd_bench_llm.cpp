#include <chrono>
#include <fmt/format.h>
#include <span>

#include "sim/core/printable.hpp"
#include "sim/app/bench_llm.hpp"
#include "sim/app/input_errors.hpp"
#include "sim/llm/model.hpp"
#include "sim/llm/model_path.hpp"
#include "sim/llm/throughput.hpp"
#include "sim/store/text_file.hpp"

namespace lynxsim::app {

int cmd_bench_llm(const DataPaths& data, const LlmBenchOptions& options) {
  if (options.context < 1 || options.decode < 1 || options.threads < 1) {
    throw InputError("--context, --decode and --threads must be positive");
  }
  const auto path = llm::require_model(data.cache_dir());
  const auto load_start = std::chrono::steady_clock::now();
  const llm::Model model = llm::Model::load(path);
  const double load_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - load_start).count();
  const auto text = data.essay_text();
  const std::vector<int> tokens = store::load_text_tokens(model, text.string());
  const auto prompt_tokens = static_cast<std::size_t>(options.context);
  if (tokens.size() < prompt_tokens) {
    throw InputError(fmt::format("--context {}: {} holds only {} tokens", options.context, text.string(),
                                 tokens.size()));
  }
  if (options.context + options.decode > model.config().context_length) {
    throw InputError(fmt::format("--context + --decode exceeds the model's context of {} tokens",
                                 model.config().context_length));
  }
  const llm::Throughput t = llm::measure_throughput(
      model, std::span<const int>(tokens).first(prompt_tokens), llm::ThroughputConfig{options.decode, options.threads});
  if (t.threads < options.threads) {
    fmt::print(stderr, "lynxsim: warning: --threads {}: the system started only {} threads (a limit on threads "
               "or memory); measured with {}\n", options.threads, t.threads, t.threads);
  }
  fmt::print("real-model benchmark: {} ({} threads)\n", terminal_text(path.string()), t.threads);
  fmt::print("  load     {:8.2f} s\n", load_s);
  fmt::print("  prefill  {:8.1f} tokens/s  ({} tokens in {:.2f} s)\n", t.prefill_tokens_per_s(), t.prompt_tokens,
             t.prefill_s);
  fmt::print("  decode   {:8.1f} tokens/s  ({} tokens after {}, {:.1f} ms per step)\n", t.decode_tokens_per_s(),
             t.decoded_tokens, t.prompt_tokens, 1000.0 * t.decode_s / t.decoded_tokens);
  return 0;
}

}  // namespace lynxsim::app
