#include "sim/accuracy/real_model/real_model_eval.hpp"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "sim/accuracy/methods/method_codec.hpp"
#include "sim/accuracy/real_model/real_decode_steps.hpp"
#include "sim/accuracy/tasks/real_passkey.hpp"

namespace lynxsim::accuracy {
namespace {

std::vector<MethodSpec> methods_of(const RealModelRequest& r) {
  return r.methods.empty() ? default_methods() : r.methods;
}

struct ForcedRun {
  ForcedPredictions greedy;
  ForcedPredictions text;
};

ForcedRun forced_run(const PrefilledPrompt& prompt, const KvVariant& variant, const std::vector<int>& greedy,
                     std::span<const int> text) {
  llm::Session session = decode_session(prompt, variant);
  const int start = session.position();
  ForcedRun run;
  run.greedy = forced_predictions(session, prompt.last_token, greedy);
  session.rewind(start);
  run.text = forced_predictions(session, prompt.last_token, text);
  return run;
}

RealVariantRow make_row(const KvVariant& v, const ForcedRun& run, const ForcedRun& ref, int context, int layers,
                        int head_dim) {
  RealVariantRow row;
  row.method = v.method.name;
  row.variant = v.variant();
  row.bits_per_element = bits_per_element(v.method, v.anchor_only, context, head_dim, layers);
  row.positions = static_cast<int>(run.greedy.predicted.size());
  row.agreements = count_equal(run.greedy.predicted, ref.greedy.predicted);
  row.text_agreements = count_equal(run.text.predicted, ref.text.predicted);
  row.perplexity = perplexity_of(run.text.log_prob);
  row.perplexity_delta = row.perplexity - perplexity_of(ref.text.log_prob);
  return row;
}

std::vector<RealAcceptance> measure_acceptance(const PrefilledPrompt& prompt, const std::vector<int>& greedy,
                                               const std::vector<MethodSpec>& methods, const RealModelRequest& r) {
  std::vector<RealAcceptance> out;
  for (const auto& m : methods) {
    if (m.speculative()) out.push_back(RealAcceptance{m.name, r.k_max, {}, {}});
  }
  if (out.empty()) return out;
  PrefilledPrompt extended = prompt;
  for (int s = 0; s < r.acceptance_samples; ++s) {
    const int offset = s * r.acceptance_stride;
    if (s > 0) {
      extend_prompt(extended, std::span<const int>(greedy).subspan(static_cast<std::size_t>(offset - r.acceptance_stride),
                                                                   static_cast<std::size_t>(r.acceptance_stride)));
    }
    std::size_t a = 0;
    for (const auto& m : methods) {
      if (!m.speculative()) continue;
      out[a].positions.push_back(offset);
      out[a++].accepted_lengths.push_back(accepted_prefix(extended, m, r.k_max));
    }
  }
  return out;
}

RealContextResult measure_context(const llm::Model& model, const std::vector<int>& text, int context,
                                  const RealModelRequest& r) {
  const auto methods = methods_of(r);
  const PrefilledPrompt prompt = prefill_prompt(model, std::span<const int>(text).first(static_cast<std::size_t>(context)), r.threads);
  const std::vector<int> greedy = reference_greedy(prompt, r.continuation_tokens);
  const auto text_cont = std::span<const int>(text).subspan(static_cast<std::size_t>(context),
                                                            static_cast<std::size_t>(r.continuation_tokens));
  const ForcedRun ref = forced_run(prompt, KvVariant{method_from_name("bf16"), false}, greedy, text_cont);
  const std::vector<KvVariant> variants = kv_variants_of(methods);
  const std::vector<int> same = dedupe_variants(variants);
  std::vector<ForcedRun> runs(variants.size());
  RealContextResult out{context, r.continuation_tokens, perplexity_of(ref.text.log_prob), {}, {}};
  const auto& c = model.config();
  for (std::size_t v = 0; v < variants.size(); ++v) {
    const auto first = static_cast<std::size_t>(same[v]);
    if (first == v) {
      const bool is_reference = reconstruction_id(variants[v].method, variants[v].anchor_only) == "bf16";
      runs[v] = is_reference ? ref : forced_run(prompt, variants[v], greedy, text_cont);
    }
    out.rows.push_back(make_row(variants[v], runs[first], ref, context, c.n_layers, c.head_dim));
  }
  out.acceptance = measure_acceptance(prompt, greedy, methods, r);
  return out;
}

std::vector<RealPasskeyRow> measure_passkey(const llm::Model& model, const RealModelRequest& r) {
  if (r.passkey_contexts.empty()) return {};
  const std::vector<KvVariant> variants = kv_variants_of(methods_of(r));
  PasskeySettings settings{r.passkey_contexts, r.passkey_depths, r.passkey_trials, 8, r.threads, r.seed, {}};
  if (r.passkey_in_text) settings.haystack = text_tokens(model, r.text);
  const auto found = run_passkey(model, variants, settings);
  std::vector<RealPasskeyRow> out;
  for (std::size_t v = 0; v < variants.size(); ++v) {
    RealPasskeyRow row{variants[v].method.name, variants[v].variant(), {}};
    std::size_t point = 0;
    for (const int context : r.passkey_contexts) {
      for (const double depth : r.passkey_depths) row.points.push_back(PasskeyPoint{context, depth, r.passkey_trials, found[v][point++]});
    }
    out.push_back(row);
  }
  return out;
}

}  // namespace

void RealModelRequest::validate() const {
  if (model_path.empty()) throw std::invalid_argument("real model: model_path is empty");
  if (text_path.empty()) throw std::invalid_argument("real model: text_path is empty");
  if (k_max < 1 || k_max > 64) throw std::invalid_argument("real model: k_max must be in 1..64");
  if (threads < 1) throw std::invalid_argument("real model: threads must be >= 1");
  if (continuation_tokens < 1) throw std::invalid_argument("real model: continuation_tokens must be >= 1");
  if (acceptance_samples < 0 || acceptance_stride < 0) throw std::invalid_argument("real model: negative acceptance sampling");
  if (acceptance_samples > 0 && (acceptance_samples - 1) * acceptance_stride >= continuation_tokens) {
    throw std::invalid_argument("real model: acceptance positions must lie inside the continuation");
  }
  for (const int c : contexts) {
    if (c < 2) throw std::invalid_argument("real model: contexts must be >= 2 tokens");
  }
  for (const double d : passkey_depths) {
    if (d < 0.0 || d > 1.0) throw std::invalid_argument("real model: passkey depths must be in [0, 1]");
  }
  if (passkey_trials < 1) throw std::invalid_argument("real model: passkey_trials must be >= 1");
  for (const auto& m : methods) check_measurable(m);
}

std::vector<int> text_tokens(const llm::Model& model, const std::string& text) {
  const llm::Tokenizer& tokenizer = model.tokenizer();
  std::vector<int> tokens;
  if (tokenizer.adds_bos() && tokenizer.bos_id() >= 0) tokens.push_back(tokenizer.bos_id());
  const std::vector<int> body = tokenizer.encode(text, false);
  tokens.insert(tokens.end(), body.begin(), body.end());
  return tokens;
}

namespace {

// Positions used after the prompt: the continuation, and the furthest draft window.
int positions_after_prompt(const RealModelRequest& r) {
  const int drafts = r.acceptance_samples > 0 ? (r.acceptance_samples - 1) * r.acceptance_stride + r.k_max + 1 : 0;
  return std::max(r.continuation_tokens, drafts);
}

void check_contexts_fit(const llm::Model& model, const std::vector<int>& text, const RealModelRequest& r) {
  const int positions = model.config().context_length;
  const int needed = positions_after_prompt(r);
  for (const int c : r.contexts) {
    const std::string context = "real model: context " + std::to_string(c);
    if (c + r.continuation_tokens > static_cast<int>(text.size())) {
      throw std::invalid_argument(context + " + " + std::to_string(r.continuation_tokens) +
                                  " continuation tokens exceeds the text's " + std::to_string(text.size()) + " tokens");
    }
    if (c + needed > positions) {
      throw std::invalid_argument(context + " leaves fewer than the " + std::to_string(needed) +
                                  " positions the measurement needs after the prompt within the model's " +
                                  std::to_string(positions) + " (largest context: " +
                                  std::to_string(positions - needed) + ")");
    }
  }
}

}  // namespace

RealModelResult measure_real_model(const llm::Model& model, const RealModelRequest& r) {
  r.validate();
  const std::vector<int> text = text_tokens(model, r.text);
  check_contexts_fit(model, text, r);
  RealModelResult result;
  result.model = std::filesystem::path(r.model_path).filename().string();
  result.text = std::filesystem::path(r.text_path).filename().string();
  result.text_tokens = static_cast<int>(text.size());
  result.seed = r.seed;
  for (const int c : r.contexts) result.contexts.push_back(measure_context(model, text, c, r));
  result.passkey = measure_passkey(model, r);
  return result;
}

}  // namespace lynxsim::accuracy
