#include <fmt/format.h>
#include <sstream>

#include "sim/app/commands.hpp"
#include "sim/app/input_errors.hpp"
#include "sim/llm/model.hpp"
#include "sim/llm/model_path.hpp"
#include "sim/llm/prompt_logits.hpp"
#include "sim/core/printable.hpp"
#include "sim/report/atomic_write.hpp"
#include "sim/report/output_path.hpp"

namespace lynxsim::app {

int cmd_llm_logits(const DataPaths& data, const LlmLogitsOptions& options) {
  report::check_output_file(options.out, "--out", options.force);
  const std::filesystem::path model_path = options.model ? *options.model : llm::require_model(data.cache_dir());
  const AllocationScope loading(fmt::format("loading GGUF model {}", model_path.string()));
  const llm::Model model = llm::Model::load(model_path);
  const llm::PromptLogits result = llm::compute_prompt_logits(model, options.prompt, options.threads);
  std::ostringstream text;
  llm::write_prompt_logits(text, result);
  report::write_file_atomic(options.out, text.str());
  fmt::print("{} tokens, {} logits written to {}\n", result.tokens.size(), result.logits.size(),
             terminal_text(options.out.string()));
  return 0;
}

}  // namespace lynxsim::app
