#pragma once
// Plain UTF-8 text files the real-model measurements read (data/texts/*.txt).

#include <string>
#include <vector>

#include "sim/llm/model.hpp"

namespace lynxsim::store {

// The file's bytes, read through sim/io's checked opener (a regular file of at most
// io::kMaxTextFileBytes); throws std::invalid_argument naming the file otherwise.
std::string read_text_file(const std::string& path);
// The file's tokens under the model's tokenizer (accuracy::text_tokens).
std::vector<int> load_text_tokens(const llm::Model& model, const std::string& path);

}  // namespace lynxsim::store
