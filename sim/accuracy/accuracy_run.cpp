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

std::vector<MethodAcceptance> acceptance_of(const std::vector<MethodVariant>& variants,
                                            const std::vector<VariantTally>& tallies) {
  std::vector<MethodAcceptance> out;
  for (std::size_t v = 0; v + 1 < variants.size(); ++v) {
    if (!variants[v].anchor_only) continue;
    const auto& anchor = tallies[v].tokens;
    const auto& full = tallies[v + 1].tokens;
    int agree = 0;
    for (std::size_t i = 0; i < anchor.size(); ++i) agree += anchor[i] == full[i] ? 1 : 0;
    const int n = static_cast<int>(anchor.size());
    out.push_back(MethodAcceptance{variants[v].method.name, n > 0 ? static_cast<double>(agree) / n : 0.0, n});
  }
  return out;
}

std::vector<VariantTally> measure_blocks(const AccuracyRequest& r, const std::vector<std::pair<int, int>>& blocks,
                                         const std::vector<MethodVariant>& variants, const std::vector<int>& contexts) {
  const HeadSource source(r);
  const NextTokenProxy proxy(r.sampling.proxy_vocab, r.geometry.head_dim, r.seed);
  const HeadMeasureSettings settings{r.sampling.queries_per_head, r.sampling.top_k, contexts, r.sampling.needle_depths,
                                     r.profile.needle_margin, r.geometry.num_layers, r.seed};
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

void check_request(const AccuracyRequest& r) {
  r.geometry.validate();
  r.sampling.validate();
  if (r.context < 16) throw std::invalid_argument("accuracy: context must be >= 16 tokens");
  if (r.threads < 1) throw std::invalid_argument("accuracy: threads must be >= 1");
  for (const auto& m : r.methods) check_measurable(m);
}

}  // namespace

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
  result.sampling = r.sampling;
  result.sampled_layers = sample_indices(r.geometry.num_layers, r.sampling.layers);
  result.sampled_kv_heads = sample_indices(r.geometry.num_kv_heads, r.sampling.kv_heads);
  const std::vector<int> contexts = needle_contexts(r.context, r.sampling.needle_min_context);
  const std::vector<MethodVariant> variants = variants_of(r.methods);
  std::vector<std::pair<int, int>> blocks;
  for (const int l : result.sampled_layers) {
    for (const int h : result.sampled_kv_heads) blocks.emplace_back(l, h);
  }
  const std::vector<VariantTally> totals = measure_blocks(r, blocks, variants, contexts);
  for (std::size_t v = 0; v < variants.size(); ++v) result.rows.push_back(make_row(variants[v], totals[v], r, contexts));
  result.acceptance = acceptance_of(variants, totals);
  return result;
}

}  // namespace lynxsim::accuracy
