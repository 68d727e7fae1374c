#include "sim/store/text_file.hpp"

#include <stdexcept>

#include "sim/io/input_file.hpp"
#include "sim/accuracy/real_model/real_model_eval.hpp"

namespace lynxsim::store {

std::string read_text_file(const std::string& path) {
  try {
    return io::read_input_file(path, io::kMaxTextFileBytes);
  } catch (const io::InputFileError& e) {
    throw std::invalid_argument(std::string("text file ") + e.what());
  }
}

std::vector<int> load_text_tokens(const llm::Model& model, const std::string& path) {
  return accuracy::text_tokens(model, read_text_file(path));
}

}  // namespace lynxsim::store
