#include "sim/accuracy/real_model/real_model_table.hpp"
#include "sim/accuracy/table_cells.hpp"

#include <cstdio>

namespace lynxsim::accuracy {
namespace {

std::string rows_section(const RealContextResult& c) {
  std::string out = "context " + std::to_string(c.context) + " tokens, " + std::to_string(c.continuation_tokens) +
                    " continuation tokens, 16-bit perplexity " + format("%.3f", c.reference_perplexity) + "\n";
  out += pad("method", 18, true) + pad("bits", 6) + pad("agree", 8) + pad("agree-txt", 10) + pad("ppl", 9) +
         pad("d-ppl", 9) + "\n";
  for (const auto& r : c.rows) {
    out += pad(r.label(), 18, true) + pad(format("%.2f", r.bits_per_element), 6) + pad(format("%.4f", r.agreement()), 8) +
           pad(format("%.4f", r.text_agreement()), 10) + pad(format("%.3f", r.perplexity), 9) +
           pad(format("%+.3f", r.perplexity_delta), 9) + "\n";
  }
  return out;
}

std::string acceptance_section(const RealContextResult& c) {
  if (c.acceptance.empty()) return {};
  std::string out = "speculative acceptance (anchor drafts verified by the full KV)\n" + pad("method", 18, true) +
                    pad("samples", 8) + pad("alpha", 7);
  const int k_max = c.acceptance.front().k_max;
  for (int k = 1; k <= k_max; k *= 2) out += pad("E[a|k=" + std::to_string(k) + "]", 10);
  out += "  histogram a=0..k_max\n";
  for (const auto& a : c.acceptance) {
    out += pad(a.method, 18, true) + pad(std::to_string(a.samples()), 8) + pad(format("%.3f", a.per_token()), 7);
    for (int k = 1; k <= a.k_max; k *= 2) out += pad(format("%.2f", a.mean_accepted(k)), 10);
    out += "  ";
    for (const int n : a.histogram(a.k_max)) out += std::to_string(n) + " ";
    out += "\n";
  }
  return out;
}

std::string passkey_section(const RealModelResult& r) {
  if (r.passkey.empty()) return {};
  std::string out = "passkey retrieval (found/trials) by context@depth\n" + pad("method", 18, true);
  for (const auto& p : r.passkey.front().points) out += pad(std::to_string(p.context) + "@" + format("%.1f", p.depth), 10);
  out += pad("all", 7) + "\n";
  for (const auto& row : r.passkey) {
    out += pad(row.label(), 18, true);
    for (const auto& p : row.points) out += pad(std::to_string(p.found) + "/" + std::to_string(p.trials), 10);
    out += pad(format("%.2f", row.accuracy()), 7) + "\n";
  }
  return out;
}

}  // namespace

std::string render_real_model_table(const RealModelResult& r) {
  std::string out = "real-model accuracy: " + r.model + " on " + r.text + " (" + std::to_string(r.text_tokens) +
                    " tokens), seed " + std::to_string(r.seed) + (r.from_cache ? " (cached)" : "") + "\n";
  for (const auto& c : r.contexts) {
    out += '\n';
    out += rows_section(c);
    out += acceptance_section(c);
  }
  const std::string passkey = passkey_section(r);
  if (!passkey.empty()) {
    out += '\n';
    out += passkey;
  }
  return out;
}

}  // namespace lynxsim::accuracy
