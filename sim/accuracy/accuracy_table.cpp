#include "sim/accuracy/accuracy_table.hpp"
#include "sim/accuracy/table_cells.hpp"

#include <cstdio>
#include <string>

namespace lynxsim::accuracy {
namespace {

// "; measured: full x61 latent (4096 tokens), ..." (empty for results stored without layer kinds).
std::string kinds_line(const AccuracyResult& r) {
  if (r.layer_kinds.empty()) return {};
  std::string out = "measured per layer kind:";
  for (const auto& k : r.layer_kinds) {
    out.append(" ").append(k.layer_kind).append(" x").append(std::to_string(k.layers)).append(" -> ").append(k.tensor);
    if (k.tensor == "state") {
      out.append(" (one state per sequence);");
    } else {
      out.append(" (").append(std::to_string(k.tokens)).append(" tokens);");
    }
  }
  out.back() = '\n';
  return out;
}

std::string header(const AccuracyResult& r) {
  std::string out = "KV precision: " + r.geometry.model + ", context " + std::to_string(r.context) + " tokens, " +
                    r.source + ", seed " + std::to_string(r.seed) + "\n";
  out += kinds_line(r);
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
  const bool latent = !r.layer_kinds.empty() && r.layer_kinds.front().tensor == "latent";
  out += pad("method", 18, true) + pad("bits", 6) + pad(latent ? "row SNR" : "K SNR", 8) +
         pad(latent ? "ckv SNR" : "V SNR", 8) + pad("attn KL", 10) +
         pad("top-k", 7) + pad("out err", 9) + pad("agree", 7) + pad("needle", 8) + "\n";
  return out;
}

std::string row_line(const MethodPrecision& p) {
  return pad(p.label(), 18, true) + pad(format("%.2f", p.bits_per_element), 6) + pad(format("%.1f", p.key_snr_db), 8) +
         pad(format("%.1f", p.value_snr_db), 8) + pad(format("%.2e", p.attention_kl), 10) +
         pad(format("%.3f", p.topk_recall), 7) + pad(format("%.4f", p.output_rel_error), 9) +
         pad(format("%.3f", p.top1_agreement), 7) + pad(format("%.3f", p.needle_accuracy()), 8) + "\n";
}

std::string state_section(const AccuracyResult& r) {
  if (r.state_rows.empty()) return {};
  std::string out = "\nlinear-attention state (layers";
  for (const int l : r.sampled_state_layers) out.append(" ").append(std::to_string(l));
  out += "): state SNR, readout error |S^T q - S'^T q|/|S^T q|, and both after n more tokens from the anchored state\n";
  out += pad("method", 18, true) + pad("bits", 6) + pad("S SNR", 8) + pad("readout", 9);
  for (const auto& c : r.state_rows.front().continued) out += pad(std::string("+").append(std::to_string(c.steps)).append(" S/read"), 18);
  out += "\n";
  for (const auto& row : r.state_rows) {
    out += pad(row.label(), 18, true) + pad(format("%.2f", row.bits_per_element), 6) +
           pad(format("%.1f", row.state_snr_db), 8) + pad(format("%.2e", row.readout_rel_error), 9);
    for (const auto& c : row.continued) {
      out += pad(format("%.1e", c.state_rel_l2).append("/").append(format("%.1e", c.readout_rel_error)), 18);
    }
    out += "\n";
  }
  return out;
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
  out += state_section(r);
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
