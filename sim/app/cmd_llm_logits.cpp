#include <fmt/format.h>
#include <sstream>

#include "sim/app/commands.hpp"
#include "sim/llm/model.hpp"
#include "sim/llm/model_path.hpp"
#include "sim/llm/prompt_logits.hpp"
#include "sim/report/atomic_write.hpp"

namespace lynxsim::app {

int cmd_llm_logits(const DataPaths& data, const LlmLogitsOptions& options) {
  const std::filesystem::path model_path = options.model.value_or(llm::require_model(data.cache_dir()));
  const llm::Model model = llm::Model::load(model_path);
  const llm::PromptLogits result = llm::compute_prompt_logits(model, options.prompt, options.threads);
  std::ostringstream text;
  llm::write_prompt_logits(text, result);
  report::write_file_atomic(options.out, text.str());
  fmt::print("{} tokens, {} logits written to {}\n", result.tokens.size(), result.logits.size(),
             options.out.string());
  return 0;
}

}  // namespace lynxsim::app
