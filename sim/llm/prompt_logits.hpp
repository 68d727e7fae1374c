#pragma once
// Next-token logits of a text prompt, for cross-checking lynxsim's forward pass against another
// implementation (the `lynxsim llm-logits` command and scripts/hf_crosscheck.py).
//
// The prompt is tokenized with the model's own tokenizer (special tokens parsed, BOS first when
// the model asks for one: Gemma, not SmolLM2),
// prefilled in one Session, and the logits after its last token are returned. The text format
// written by write_prompt_logits is two lines:
//   tokens <n> <id_0> ... <id_n-1>
//   logits <vocab> <v_0> ... <v_vocab-1>        (each value with 9 significant digits)

#include <ostream>
#include <string_view>
#include <vector>

#include "sim/llm/model.hpp"

namespace lynxsim::llm {

struct PromptLogits {
  std::vector<int> tokens;
  std::vector<float> logits;
};

PromptLogits compute_prompt_logits(const Model& model, std::string_view prompt, int n_threads);
void write_prompt_logits(std::ostream& out, const PromptLogits& result);

}  // namespace lynxsim::llm
