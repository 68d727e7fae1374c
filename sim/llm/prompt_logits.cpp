#include "sim/llm/prompt_logits.hpp"

#include <iomanip>
#include <stdexcept>

#include "sim/llm/session.hpp"

namespace lynxsim::llm {

PromptLogits compute_prompt_logits(const Model& model, std::string_view prompt, int n_threads) {
  PromptLogits out;
  out.tokens = model.tokenizer().encode_prompt(prompt);
  if (out.tokens.empty()) {
    throw std::invalid_argument("the prompt encodes to no tokens");
  }
  Session session(model, {n_threads, KvPrecision::F32});
  out.logits = session.prefill(out.tokens);
  return out;
}

void write_prompt_logits(std::ostream& out, const PromptLogits& result) {
  out << "tokens " << result.tokens.size();
  for (const int t : result.tokens) {
    out << ' ' << t;
  }
  out << "\nlogits " << result.logits.size() << std::setprecision(9);
  for (const float v : result.logits) {
    out << ' ' << v;
  }
  out << '\n';
}

}  // namespace lynxsim::llm
