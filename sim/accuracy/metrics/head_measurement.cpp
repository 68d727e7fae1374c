#include "sim/accuracy/metrics/head_measurement.hpp"

#include <algorithm>
#include <stdexcept>

#include "sim/accuracy/kv/synthetic_latent.hpp"
#include "sim/accuracy/metrics/attention_math.hpp"
#include "sim/accuracy/tasks/needle_task.hpp"

namespace lynxsim::accuracy {
namespace {

struct ReferenceQuery {
  std::vector<float> logits;
  std::vector<double> output;
  int token = 0;
};

struct NeedlePlan {
  NeedleProbe probe;
  std::vector<NeedleCase> cases;
};

quant::BlockView view_of(const std::vector<float>& data, int tokens, int d) {
  return quant::BlockView(std::span<const float>(data.data(), static_cast<std::size_t>(tokens) * static_cast<std::size_t>(d)), tokens, d);
}

std::vector<ReferenceQuery> reference_pass(const HeadKv& block, int count, const NextTokenProxy& proxy) {
  std::vector<ReferenceQuery> refs(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    auto& r = refs[static_cast<std::size_t>(i)];
    const int n = block.query_positions[static_cast<std::size_t>(i)] + 1;
    attention_logits(block.keys.data(), block.head_dim, n, block.query(i), r.logits);
    r.output = attention_output(block.values.data(), block.head_dim, softmax(r.logits));
    r.token = proxy.token(r.output);
  }
  return refs;
}

std::vector<NeedlePlan> plan_needles(const HeadKv& block, const HeadMeasureSettings& s) {
  std::vector<NeedlePlan> plans;
  AccuracyRng rng(derive_seed(s.seed, "needle-probes", block.layer, block.kv_head));
  std::vector<float> logits;
  for (int i = s.num_attention_queries; i < block.num_queries(); ++i) {
    NeedlePlan plan;
    plan.probe = make_needle_probe(block, std::span<const float>(block.query(i), static_cast<std::size_t>(block.head_dim)), rng);
    attention_logits(block.keys.data(), block.head_dim, block.tokens, plan.probe.query.data(), logits);
    plan.cases = plan_needle_cases(logits, plan.probe, s.needle_contexts, s.needle_depths, s.needle_margin);
    plans.push_back(std::move(plan));
  }
  return plans;
}

void attention_metrics(const HeadKv& block, const std::vector<ReferenceQuery>& refs, const std::vector<float>& keys,
                       const std::vector<float>& values, const HeadMeasureSettings& s, const NextTokenProxy& proxy,
                       VariantTally& tally) {
  std::vector<float> logits;
  for (std::size_t i = 0; i < refs.size(); ++i) {
    const int n = static_cast<int>(refs[i].logits.size());
    attention_logits(keys.data(), block.head_dim, n, block.query(static_cast<int>(i)), logits);
    tally.kl_sum += kl_divergence_from_logits(refs[i].logits, logits);
    tally.recall_sum += topk_recall(refs[i].logits, logits, s.top_k);
    const std::vector<double> output = attention_output(values.data(), block.head_dim, softmax(logits));
    tally.output_error_sum += relative_error(refs[i].output, output);
    const int token = proxy.token(output);
    tally.agreements += token == refs[i].token ? 1 : 0;
    tally.tokens.push_back(token);
    ++tally.queries;
  }
}

void needle_metrics(HeadKv& block, const std::vector<NeedlePlan>& plans, const MethodVariant& variant,
                    const CodecTarget& target, const std::vector<float>& keys, const HeadMeasureSettings& s,
                    VariantTally& tally) {
  const std::size_t contexts = s.needle_contexts.size();
  const std::size_t depths = s.needle_depths.size();
  tally.needle_found.assign(contexts, 0);
  tally.needle_trials.assign(contexts, 0);
  for (std::size_t c = 0; c < contexts && !plans.empty(); ++c) {
    const int n = s.needle_contexts[c];
    std::vector<float> prefix_keys;
    const int group = variant.method.group_size > 0 ? variant.method.group_size : 128;
    const bool ragged = variant.method.quantspec() && n % group != 0;
    const bool refit = n < block.tokens && (variant.method.family == MethodFamily::kivi || ragged);
    if (refit) prefix_keys = reconstruct_block(variant.method, target, view_of(block.keys, n, block.head_dim));
    const std::vector<float>& k_hat = refit ? prefix_keys : keys;
    for (const NeedlePlan& plan : plans) {
      const std::span<const NeedleCase> cases(plan.cases.data() + c * depths, depths);
      const NeedleKeys source{block.keys, block.tokens, block.head_dim};
      tally.needle_found[c] += count_needles_found(variant.method, target, source, k_hat, plan.probe, cases);
      tally.needle_trials[c] += static_cast<int>(depths);
    }
  }
}

}  // namespace

void VariantTally::merge(const VariantTally& other) {
  key.merge(other.key);
  value.merge(other.value);
  kl_sum += other.kl_sum;
  recall_sum += other.recall_sum;
  output_error_sum += other.output_error_sum;
  queries += other.queries;
  agreements += other.agreements;
  tokens.insert(tokens.end(), other.tokens.begin(), other.tokens.end());
  if (needle_found.size() < other.needle_found.size()) {
    needle_found.resize(other.needle_found.size(), 0);
    needle_trials.resize(other.needle_trials.size(), 0);
  }
  for (std::size_t c = 0; c < other.needle_found.size(); ++c) {
    needle_found[c] += other.needle_found[c];
    needle_trials[c] += other.needle_trials[c];
  }
}

std::vector<VariantTally> measure_head(HeadKv& block, const std::vector<MethodVariant>& variants,
                                       const HeadMeasureSettings& s, const NextTokenProxy& proxy) {
  if (s.num_attention_queries > block.num_queries()) throw std::invalid_argument("measure_head: too few queries");
  const std::vector<ReferenceQuery> refs = reference_pass(block, s.num_attention_queries, proxy);
  const std::vector<NeedlePlan> plans = plan_needles(block, s);
  const quant::BlockView keys_view = view_of(block.keys, block.tokens, block.head_dim);
  const quant::BlockView values_view = view_of(block.values, block.tokens, block.head_dim);
  std::vector<VariantTally> tallies(variants.size());
  std::vector<std::string> ids;
  for (std::size_t v = 0; v < variants.size(); ++v) {
    const MethodVariant& variant = variants[v];
    ids.push_back(reconstruction_id(variant.method, variant.anchor_only));
    const auto same = std::find(ids.begin(), ids.end() - 1, ids.back());
    if (same != ids.end() - 1) {
      tallies[v] = tallies[static_cast<std::size_t>(same - ids.begin())];
      continue;
    }
    const bool latent = s.latent_rope_dim > 0;
    const CodecTarget key_target{latent ? TensorKind::value : TensorKind::key, variant.anchor_only, block.layer,
                                 s.num_layers};
    const CodecTarget value_target{TensorKind::value, variant.anchor_only, block.layer, s.num_layers};
    const std::vector<float> keys = reconstruct_block(variant.method, key_target, keys_view);
    std::vector<float> values = latent ? keys : reconstruct_block(variant.method, value_target, values_view);
    if (latent) zero_rope_part(values, block.head_dim, s.latent_rope_dim);
    tallies[v].key.add(block.keys, keys);
    tallies[v].value.add(block.values, values);
    attention_metrics(block, refs, keys, values, s, proxy, tallies[v]);
    needle_metrics(block, plans, variant, key_target, keys, s, tallies[v]);
  }
  return tallies;
}

}  // namespace lynxsim::accuracy
