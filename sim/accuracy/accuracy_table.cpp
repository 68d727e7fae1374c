#include "sim/accuracy/accuracy_table.hpp"
#include "sim/accuracy/table_cells.hpp"

#include <cstdio>
#include <string>

namespace lynxsim::accuracy {
namespace {

std::string header(const AccuracyResult& r) {
  std::string out = "KV precision: " + r.geometry.model + ", context " + std::to_string(r.context) + " tokens, " +
                    r.source + ", seed " + std::to_string(r.seed) + "\n";
  out += "sampled: layers";
  for (const int l : r.sampled_layers) {
    out += ' ';
    out += std::to_string(l);
  }
  out += ", KV heads";
  for (const int h : r.sampled_kv_heads) {
    out += ' ';
    out += std::to_string(h);
  }
  out += ", " + std::to_string(r.sampling.queries_per_head) + " queries/head, " +
         std::to_string(r.sampling.needle_probes * static_cast<int>(r.sampling.needle_depths.size())) +
         " needle trials/head/context" + (r.from_cache ? " (cached)" : "") + "\n\n";
  out += pad("method", 18, true) + pad("bits", 6) + pad("K SNR", 8) + pad("V SNR", 8) + pad("attn KL", 10) +
         pad("top-k", 7) + pad("out err", 9) + pad("agree", 7) + pad("needle", 8) + "\n";
  return out;
}

std::string row_line(const MethodPrecision& p) {
  return pad(p.label(), 18, true) + pad(format("%.2f", p.bits_per_element), 6) + pad(format("%.1f", p.key_snr_db), 8) +
         pad(format("%.1f", p.value_snr_db), 8) + pad(format("%.2e", p.attention_kl), 10) +
         pad(format("%.3f", p.topk_recall), 7) + pad(format("%.4f", p.output_rel_error), 9) +
         pad(format("%.3f", p.top1_agreement), 7) + pad(format("%.3f", p.needle_accuracy()), 8) + "\n";
}

std::string needle_section(const AccuracyResult& r) {
  if (r.rows.empty() || r.rows.front().needle.empty()) return {};
  std::string out = "\nneedle accuracy by context:\n" + pad("method", 18, true);
  for (const auto& p : r.rows.front().needle) out += pad(std::to_string(p.context), 8);
  out += "\n";
  for (const auto& row : r.rows) {
    out += pad(row.label(), 18, true);
    for (const auto& p : row.needle) out += pad(format("%.3f", p.accuracy()), 8);
    out += "\n";
  }
  return out;
}

}  // namespace

std::string render_accuracy_table(const AccuracyResult& r) {
  std::string out = header(r);
  for (const auto& row : r.rows) out += row_line(row);
  out += needle_section(r);
  if (!r.acceptance.empty()) {
    out += "\nspeculative acceptance (anchor vs full next-token proxy):\n";
    for (const auto& a : r.acceptance) {
      out += pad(a.method, 18, true) + format("%.3f", a.acceptance_probability) + "  (" + std::to_string(a.samples) +
             " queries)\n";
    }
  }
  return out;
}

}  // namespace lynxsim::accuracy
