#include "sim/accuracy/tasks/real_passkey.hpp"

#include <cmath>
#include <stdexcept>

#include "sim/accuracy/accuracy_rng.hpp"
#include "sim/accuracy/real_model/real_decode_steps.hpp"

namespace lynxsim::accuracy {
namespace {

const char* const kIntro =
    "There is an important info hidden inside a lot of irrelevant text. Find it and memorize it. "
    "I will quiz you about the important information there.";
const char* const kFiller = " The grass is green. The sky is blue. The sun is yellow. Here we go. There and back again.";
const char* const kQuestion = " What is the pass key? The pass key is";

std::string prompt_text(int repeats, int needle_at, const std::string& key) {
  std::string text = kIntro;
  for (int i = 0; i <= repeats; ++i) {
    if (i == needle_at) text += " The pass key is " + key + ". Remember it. " + key + " is the pass key.";
    if (i < repeats) text += kFiller;
  }
  return text + kQuestion;
}

std::vector<int> with_bos(const llm::Tokenizer& tokenizer, const std::vector<int>& tokens) {
  std::vector<int> out;
  out.reserve(tokens.size() + 1);
  if (tokenizer.adds_bos() && tokenizer.bos_id() >= 0) out.push_back(tokenizer.bos_id());
  out.insert(out.end(), tokens.begin(), tokens.end());
  return out;
}

std::string draw_key(std::uint64_t seed, int context, int trial) {
  AccuracyRng rng(derive_seed(seed, "passkey", context, trial));
  return std::to_string(10000 + rng.uniform_int(90000));
}

}  // namespace

PasskeyPrompt make_text_passkey_prompt(const llm::Tokenizer& tokenizer, const std::vector<int>& haystack, int context,
                                       double depth, std::uint64_t seed, int trial) {
  if (depth < 0.0 || depth > 1.0) throw std::invalid_argument("passkey: depth must be in [0, 1]");
  const std::string key = draw_key(seed, context, trial);
  const std::vector<int> intro = with_bos(tokenizer, tokenizer.encode(kIntro, false));
  const std::vector<int> needle =
      tokenizer.encode(" The pass key is " + key + ". Remember it. " + key + " is the pass key. ", false);
  const std::vector<int> question = tokenizer.encode(kQuestion, false);
  const std::size_t skip = !haystack.empty() && haystack.front() == tokenizer.bos_id() ? 1 : 0;
  const long body = static_cast<long>(context) - static_cast<long>(intro.size() + needle.size() + question.size());
  if (body < 0 || static_cast<std::size_t>(body) + skip > haystack.size()) {
    throw std::invalid_argument("passkey: the text is too short for a " + std::to_string(context) + "-token prompt");
  }
  const auto needle_at = static_cast<long>(std::lround(depth * static_cast<double>(body)));
  std::vector<int> tokens = intro;
  const auto text = haystack.begin() + static_cast<long>(skip);
  tokens.insert(tokens.end(), text, text + needle_at);
  tokens.insert(tokens.end(), needle.begin(), needle.end());
  tokens.insert(tokens.end(), text + needle_at, text + body);
  tokens.insert(tokens.end(), question.begin(), question.end());
  return PasskeyPrompt{tokens, key};
}

PasskeyPrompt make_passkey_prompt(const llm::Tokenizer& tokenizer, int context, double depth, std::uint64_t seed,
                                  int trial) {
  if (depth < 0.0 || depth > 1.0) throw std::invalid_argument("passkey: depth must be in [0, 1]");
  const std::string key = draw_key(seed, context, trial);
  const int bos = tokenizer.adds_bos() && tokenizer.bos_id() >= 0 ? 1 : 0;
  const auto length = [&](int repeats) {
    const int needle_at = static_cast<int>(std::lround(depth * repeats));
    return bos + static_cast<int>(tokenizer.encode(prompt_text(repeats, needle_at, key), false).size());
  };
  const int per_filler = static_cast<int>(tokenizer.encode(kFiller, false).size());
  if (length(0) > context) throw std::invalid_argument("passkey: context too short for the prompt");
  int repeats = std::max(0, (context - length(0)) / std::max(1, per_filler));
  while (repeats > 0 && length(repeats) > context) --repeats;
  while (length(repeats + 1) <= context) ++repeats;
  const int needle_at = static_cast<int>(std::lround(depth * repeats));
  return PasskeyPrompt{with_bos(tokenizer, tokenizer.encode(prompt_text(repeats, needle_at, key), false)), key};
}

std::vector<std::vector<int>> run_passkey(const llm::Model& model, const std::vector<KvVariant>& variants,
                                          const PasskeySettings& s) {
  if (s.trials < 1 || s.answer_tokens < 1) throw std::invalid_argument("passkey: trials and answer_tokens must be >= 1");
  const std::vector<int> same = dedupe_variants(variants);
  std::vector<std::vector<int>> found(variants.size());
  for (const int context : s.contexts) {
    for (const double depth : s.depths) {
      std::vector<int> hits(variants.size(), 0);
      for (int trial = 0; trial < s.trials; ++trial) {
        const PasskeyPrompt p =
            s.haystack.empty() ? make_passkey_prompt(model.tokenizer(), context, depth, s.seed, trial)
                               : make_text_passkey_prompt(model.tokenizer(), s.haystack, context, depth, s.seed, trial);
        const PrefilledPrompt prompt = prefill_prompt(model, p.tokens, s.threads);
        for (std::size_t v = 0; v < variants.size(); ++v) {
          if (same[v] != static_cast<int>(v)) continue;
          llm::Session session = decode_session(prompt, variants[v]);
          session.decode_step(prompt.last_token);
          const std::string answer = model.tokenizer().decode(session.generate_greedy(s.answer_tokens));
          hits[v] += answer.find(p.passkey) != std::string::npos ? 1 : 0;
        }
      }
      for (std::size_t v = 0; v < variants.size(); ++v) found[v].push_back(hits[static_cast<std::size_t>(same[v])]);
    }
  }
  return found;
}

}  // namespace lynxsim::accuracy
