#include "sim/store/text_file.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "sim/accuracy/real_model/real_model_eval.hpp"

namespace lynxsim::store {

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument("cannot read text file " + path);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::vector<int> load_text_tokens(const llm::Model& model, const std::string& path) {
  return accuracy::text_tokens(model, read_text_file(path));
}

}  // namespace lynxsim::store
