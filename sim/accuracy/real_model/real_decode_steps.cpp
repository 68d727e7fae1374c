#include "sim/accuracy/real_model/real_decode_steps.hpp"

#include <cmath>
#include <stdexcept>

namespace lynxsim::accuracy {

PrefilledPrompt prefill_prompt(const llm::Model& model, std::span<const int> prompt, int threads) {
  if (prompt.size() < 2) throw std::invalid_argument("prefill_prompt: the prompt needs at least 2 tokens");
  PrefilledPrompt out{llm::Session(model, {threads, llm::KvPrecision::F32}), prompt.back()};
  out.session.prefill(prompt.first(prompt.size() - 1));
  return out;
}

void extend_prompt(PrefilledPrompt& prompt, std::span<const int> tokens) {
  if (tokens.empty()) return;
  std::vector<int> fed{prompt.last_token};
  fed.insert(fed.end(), tokens.begin(), tokens.end() - 1);
  prompt.session.prefill(fed);
  prompt.last_token = tokens.back();
}

llm::Session decode_session(const PrefilledPrompt& prompt, const KvVariant& variant) {
  llm::Session session = prompt.session;
  apply_kv_method(session.kv(), variant);
  return session;
}

std::vector<int> reference_greedy(const PrefilledPrompt& prompt, int tokens) {
  llm::Session session = decode_session(prompt, KvVariant{method_from_name("bf16"), false});
  session.decode_step(prompt.last_token);
  return session.generate_greedy(tokens);
}

ForcedPredictions forced_predictions(llm::Session& session, int last_token, std::span<const int> continuation) {
  std::vector<int> fed{last_token};
  fed.insert(fed.end(), continuation.begin(), continuation.end());
  const llm::TokenScores scores = session.score(fed);
  ForcedPredictions out;
  out.predicted.assign(scores.predicted.begin() + 1, scores.predicted.end());
  out.log_prob.assign(scores.log_prob.begin() + 1, scores.log_prob.end());
  return out;
}

int count_equal(const std::vector<int>& a, const std::vector<int>& b) {
  if (a.size() != b.size()) throw std::invalid_argument("count_equal: sequences differ in length");
  int equal = 0;
  for (std::size_t i = 0; i < a.size(); ++i) equal += a[i] == b[i] ? 1 : 0;
  return equal;
}

double perplexity_of(const std::vector<double>& log_prob) {
  if (log_prob.empty()) throw std::invalid_argument("perplexity_of: no scored tokens");
  double sum = 0.0;
  for (const double lp : log_prob) sum += lp;
  return std::exp(-sum / static_cast<double>(log_prob.size()));
}

int accepted_prefix(const PrefilledPrompt& prompt, const MethodSpec& method, int k_max) {
  if (!method.speculative()) throw std::invalid_argument("accepted_prefix: " + method.name + " is not speculative");
  if (k_max < 1) throw std::invalid_argument("accepted_prefix: k_max must be >= 1");
  llm::Session anchor = decode_session(prompt, KvVariant{method, true});
  anchor.decode_step(prompt.last_token);
  const std::vector<int> drafts = anchor.generate_greedy(k_max);
  llm::Session full = decode_session(prompt, KvVariant{method, false});
  std::vector<int> fed{prompt.last_token};
  fed.insert(fed.end(), drafts.begin(), drafts.end() - 1);
  const llm::RowMatrix logits = full.forward(fed);
  int accepted = 0;
  while (accepted < k_max) {
    const auto row = logits.row(accepted);
    if (llm::argmax(std::span<const float>(row.data(), static_cast<std::size_t>(row.size()))) != drafts[static_cast<std::size_t>(accepted)]) break;
    ++accepted;
  }
  return accepted;
}

}  // namespace lynxsim::accuracy
