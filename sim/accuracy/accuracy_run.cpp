#include "sim/accuracy/accuracy_run.hpp"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "sim/accuracy/accuracy_rng.hpp"
#include "sim/core/parallel_for.hpp"
#include "sim/accuracy/metrics/head_measurement.hpp"
#include "sim/accuracy/kv/head_source.hpp"
#include "sim/accuracy/metrics/state_measurement.hpp"

namespace lynxsim::accuracy {
namespace {

std::vector<MethodVariant> variants_of(const std::vector<MethodSpec>& methods) {
  std::vector<MethodVariant> out;
  for (const auto& m : methods) {
    if (m.speculative()) out.push_back(MethodVariant{m, true});
    out.push_back(MethodVariant{m, false});
  }
  return out;
}

MethodPrecision make_row(const MethodVariant& v, const VariantTally& t, const AccuracyRequest& r,
                         const std::vector<int>& contexts) {
  MethodPrecision row;
  row.method = v.method.name;
  row.variant = v.anchor_only ? "anchor" : "full";
  row.bits_per_element = bits_per_element(v.method, v.anchor_only, r.context, r.geometry.head_dim, r.geometry.num_layers);
  row.key_snr_db = t.key.snr_db();
  row.value_snr_db = t.value.snr_db();
  row.key_rel_l2 = t.key.relative_l2();
  row.value_rel_l2 = t.value.relative_l2();
  const double q = std::max(1, t.queries);
  row.attention_kl = t.kl_sum / q;
  row.topk_recall = t.recall_sum / q;
  row.output_rel_error = t.output_error_sum / q;
  row.top1_agreement = t.agreements / q;
  row.queries = t.queries;
  for (std::size_t c = 0; c < contexts.size() && c < t.needle_found.size(); ++c) {
    row.needle.push_back(NeedlePoint{contexts[c], t.needle_trials[c], t.needle_found[c]});
  }
  return row;
}

struct Agreement {
  int agree = 0;
  int n = 0;
  double share() const { return n > 0 ? static_cast<double>(agree) / n : 0.0; }
};

Agreement agreement(const std::vector<int>& anchor, const std::vector<int>& full) {
  Agreement a;
  for (std::size_t i = 0; i < anchor.size(); ++i) a.agree += anchor[i] == full[i] ? 1 : 0;
  a.n = static_cast<int>(anchor.size());
  return a;
}

// The attention layers' agreement and, for a model with linear layers, the states' agreement,
// weighted by the layers of each kind.
std::vector<MethodAcceptance> acceptance_of(const std::vector<MethodVariant>& variants,
                                            const std::vector<VariantTally>& tallies,
                                            const std::vector<StateTally>& states, const KvGeometry& g) {
  std::vector<MethodAcceptance> out;
  for (std::size_t v = 0; v + 1 < variants.size(); ++v) {
    if (!variants[v].anchor_only) continue;
    const Agreement attention = agreement(tallies[v].tokens, tallies[v + 1].tokens);
    const Agreement state = states.empty() ? Agreement{} : agreement(states[v].tokens, states[v + 1].tokens);
    const double share = pooled_acceptance(attention.share(), state.share(), g.linear_layers, g.num_layers);
    out.push_back(MethodAcceptance{variants[v].method.name, share, attention.n + state.n});
  }
  return out;
}

std::vector<VariantTally> measure_blocks(const AccuracyRequest& r, const std::vector<std::pair<int, int>>& blocks,
                                         const std::vector<MethodVariant>& variants, const std::vector<int>& contexts) {
  const HeadSource source(r);
  const NextTokenProxy proxy(r.sampling.proxy_vocab, r.geometry.head_dim, r.seed);
  const HeadMeasureSettings settings{r.sampling.queries_per_head, r.sampling.top_k, contexts, r.sampling.needle_depths,
                                     r.profile.needle_margin, r.geometry.num_layers, r.seed,
                                     r.geometry.latent() ? r.geometry.latent_rope_dim : 0};
  std::vector<std::vector<VariantTally>> per_block(blocks.size());
  std::mutex progress;
  std::size_t done = 0;
  parallel_for(blocks.size(), r.threads, [&](std::size_t b) {
    HeadKv block = source.head(blocks[b].first, blocks[b].second);
    per_block[b] = measure_head(block, variants, settings, proxy);
    if (r.on_block_done) {
      const std::lock_guard<std::mutex> lock(progress);
      r.on_block_done(++done, blocks.size());
    }
  });
  std::vector<VariantTally> totals(variants.size());
  for (const auto& tallies : per_block) {
    for (std::size_t v = 0; v < variants.size(); ++v) totals[v].merge(tallies[v]);
  }
  return totals;
}

std::vector<int> layers_of_kind(const KvGeometry& g, bool linear) {
  std::vector<int> out;
  for (int l = 0; l < g.num_layers; ++l) {
    if ((g.layer_letter(l) == 'L') == linear) out.push_back(l);
  }
  return out;
}

std::vector<int> sample_layers(const KvGeometry& g, bool linear, int count) {
  const std::vector<int> layers = layers_of_kind(g, linear);
  std::vector<int> out;
  if (layers.empty()) return out;
  for (const int i : sample_indices(static_cast<int>(layers.size()), count)) out.push_back(layers[static_cast<std::size_t>(i)]);
  return out;
}

StateShare share_of(const AccuracyRequest& r, int layer, int share) {
  const KvGeometry& g = r.geometry;
  return StateShare{layer, share, std::max(1, g.linear_value_heads / g.num_kv_heads), g.linear_key_head_dim,
                    g.linear_value_head_dim, r.context, g.num_layers, r.seed};
}

std::vector<StateTally> measure_states(const AccuracyRequest& r, const std::vector<int>& layers,
                                       const std::vector<MethodVariant>& variants) {
  const NextTokenProxy proxy(r.sampling.proxy_vocab, r.geometry.linear_value_head_dim, r.seed);
  std::vector<std::pair<int, int>> blocks;
  for (const int l : layers) {
    for (const int h : sample_indices(r.geometry.num_kv_heads, r.sampling.kv_heads)) blocks.emplace_back(l, h);
  }
  std::vector<std::vector<StateTally>> per_block(blocks.size());
  parallel_for(blocks.size(), r.threads, [&](std::size_t b) {
    per_block[b] =
        measure_state_share(share_of(r, blocks[b].first, blocks[b].second), r.layer_profiles.state, variants, proxy);
  });
  std::vector<StateTally> totals(variants.size());
  for (const auto& tallies : per_block) {
    for (std::size_t v = 0; v < variants.size(); ++v) totals[v].merge(tallies[v]);
  }
  return totals;
}

StatePrecision make_state_row(const MethodVariant& v, const StateTally& t, const AccuracyRequest& r) {
  const StateShare share = share_of(r, 0, 0);
  StatePrecision row;
  row.method = v.method.name;
  row.variant = v.anchor_only ? "anchor" : "full";
  row.bits_per_element = bits_per_element(v.method, v.anchor_only, 1, share.heads * share.dk * share.dv, r.geometry.num_layers);
  row.state_snr_db = t.state.snr_db();
  row.state_rel_l2 = t.state.relative_l2();
  row.readouts = t.readouts;
  row.readout_rel_error = t.readout_sum / std::max(1, t.readouts);
  for (std::size_t c = 0; c < t.continued_state.size(); ++c) {
    row.continued.push_back(StateCheckpoint{r.layer_profiles.state.continue_steps[c], t.continued_state[c].relative_l2(),
                                            t.continued_readout_sum[c] / std::max(1, t.readouts)});
  }
  return row;
}

std::vector<LayerKindSummary> layer_kinds_of(const KvGeometry& g, int context) {
  std::vector<LayerKindSummary> out;
  const std::string tensor = g.latent() ? "latent" : "kv";
  if (g.full_layers() > 0) out.push_back(LayerKindSummary{"full", tensor, g.full_layers(), context});
  if (g.sliding_layers > 0) {
    out.push_back(LayerKindSummary{"sliding", tensor, g.sliding_layers, std::min(context, g.sliding_window)});
  }
  if (g.linear_layers > 0) out.push_back(LayerKindSummary{"linear", "state", g.linear_layers, 1});
  return out;
}

void check_request(const AccuracyRequest& r) {
  r.geometry.validate();
  r.sampling.validate();
  if (r.context < 16) throw std::invalid_argument("accuracy: context must be >= 16 tokens");
  if (r.threads < 1) throw std::invalid_argument("accuracy: threads must be >= 1");
  for (const auto& m : r.methods) check_measurable(m);
  const KvGeometry& g = r.geometry;
  if (g.linear_layers > 0 && (g.linear_value_heads < 1 || g.linear_key_head_dim < 1 || g.linear_value_head_dim < 1)) {
    throw std::invalid_argument("accuracy: the linear layers of " + g.model + " need their value heads and state dims");
  }
  if (g.full_layers() + g.sliding_layers == 0) throw std::invalid_argument("accuracy: " + g.model + " has no attention layer");
}

}  // namespace

double pooled_acceptance(double attention, double state, int linear_layers, int num_layers) {
  const double linear_share = static_cast<double>(linear_layers) / num_layers;
  return (1.0 - linear_share) * attention + linear_share * state;
}

std::vector<int> sample_indices(int total, int count) {
  count = std::min(total, count);
  std::vector<int> out;
  for (int i = 0; i < count; ++i) {
    const int index = count == 1 ? 0 : static_cast<int>((static_cast<long long>(i) * (total - 1) * 2 + (count - 1)) / (2 * (count - 1)));
    if (out.empty() || out.back() != index) out.push_back(index);
  }
  return out;
}

std::vector<int> needle_contexts(int context, int min_context) {
  std::vector<int> out;
  for (long long n = min_context; n < context; n *= 4) out.push_back(static_cast<int>(n));
  out.push_back(context);
  return out;
}

AccuracyResult measure_accuracy(const AccuracyRequest& request) {
  check_request(request);
  AccuracyRequest r = request;
  if (r.methods.empty()) r.methods = default_methods();
  AccuracyResult result;
  result.geometry = r.geometry;
  result.context = r.context;
  result.seed = r.seed;
  result.source = r.kv_file ? "file:" + r.kv_file->path() : "synthetic:" + r.profile.name;
  if (!r.kv_file && !r.geometry.dense()) result.source += "+layer-kinds";
  result.sampling = r.sampling;
  result.sampled_layers = sample_layers(r.geometry, false, r.sampling.layers);
  result.sampled_state_layers = sample_layers(r.geometry, true, r.sampling.layers);
  result.layer_kinds = layer_kinds_of(r.geometry, r.context);
  result.sampled_kv_heads = sample_indices(r.geometry.num_kv_heads, r.sampling.kv_heads);
  const std::vector<int> contexts = needle_contexts(r.context, r.sampling.needle_min_context);
  const std::vector<MethodVariant> variants = variants_of(r.methods);
  std::vector<std::pair<int, int>> blocks;
  for (const int l : result.sampled_layers) {
    for (const int h : result.sampled_kv_heads) blocks.emplace_back(l, h);
  }
  const std::vector<VariantTally> totals = measure_blocks(r, blocks, variants, contexts);
  for (std::size_t v = 0; v < variants.size(); ++v) result.rows.push_back(make_row(variants[v], totals[v], r, contexts));
  std::vector<StateTally> states;
  if (!result.sampled_state_layers.empty()) {
    states = measure_states(r, result.sampled_state_layers, variants);
    for (std::size_t v = 0; v < variants.size(); ++v) result.state_rows.push_back(make_state_row(variants[v], states[v], r));
  }
  result.acceptance = acceptance_of(variants, totals, states, r.geometry);
  return result;
}

}  // namespace lynxsim::accuracy
