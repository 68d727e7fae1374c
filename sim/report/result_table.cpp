#include "sim/report/result_table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>
#include <map>
#include <set>
#include <string_view>

namespace lynxsim::report {
namespace {

using Row = std::vector<std::string>;

// alpha, with its range when the acceptance measurement gives one ("0.950 (0.950-0.998)").
std::string acceptance_cell(const MethodSummary& s) {
  if (!(s.acceptance_high > s.acceptance_low)) return fmt::format("{:.3f}", s.acceptance);
  return fmt::format("{:.3f} ({:.3f}-{:.3f})", s.acceptance, s.acceptance_low, s.acceptance_high);
}

std::vector<std::string> metric_columns(const std::vector<MethodSummary>& summaries,
                                        const TableOptions& options) {
  if (!options.accuracy_columns.empty()) return options.accuracy_columns;
  std::set<std::string> names;
  for (const auto& s : summaries) {
    for (const auto& [name, value] : s.accuracy) names.insert(name);
  }
  return {names.begin(), names.end()};
}

std::string format_metric(double value) {
  if (!std::isfinite(value)) return fmt::format("{}", value);
  return fmt::format("{:.4g}", value);
}

// What the table shows besides the fixed columns.
struct Layout {
  std::vector<std::string> baselines;
  std::vector<std::string> metrics;
  bool with_acceptance = false;
  bool with_retractions = false;
  bool prefill_first = false;
  bool with_energy = false;
};

// The ratio columns: (label, metric) pairs, speculative reading first.
std::vector<std::pair<std::string, std::string>> ratio_columns(const Layout& layout) {
  if (layout.prefill_first) return {{"2nd spec", "ttdt_speculative_s"}, {"2nd commit", "ttdt_commit_s"}};
  return {{"spec", "ttft_speculative_s"}, {"commit", "ttft_commit_s"}};
}

std::string ratio_label(const std::string& reading, const std::string& baseline, bool wide) {
  return wide ? reading + " vs " + baseline : reading + "/" + baseline;
}

std::string metric_label(const std::string& metric, bool wide) {
  static const std::map<std::string, std::string> kShort{
      {"needle_accuracy", "needle"}, {"attention_kl", "attn_KL"}, {"key_snr_db", "K_SNR_dB"},
      {"value_snr_db", "V_SNR_dB"}, {"anchor_key_snr_db", "anchor_K_dB"}};
  const auto it = kShort.find(metric);
  return wide || it == kShort.end() ? metric : it->second;
}

Row header_row(const TableOptions& options, const Layout& layout) {
  Row row{"method"};
  if (options.wide || !layout.prefill_first) row.insert(row.end(), {"TTFT_spec", "TTFT_commit"});
  if (layout.prefill_first) row.insert(row.end(), {"TTDT_spec", "TTDT_commit"});
  if (options.percentiles) row.insert(row.end(), {"TTFT p50", "TTFT p90", "TTFT p99"});
  row.push_back("TPOT");
  if (options.wide) row.push_back("E2E");
  if (layout.with_energy) row.insert(row.end(), {"J/token", "J/request"});
  row.push_back("bytes");
  for (const auto& b : layout.baselines) {
    for (const auto& [label, metric] : ratio_columns(layout)) {
      row.push_back(ratio_label(label, b, options.wide));
    }
  }
  for (const auto& m : layout.metrics) row.push_back(metric_label(m, options.wide));
  if (layout.with_acceptance) row.push_back(options.wide ? "acceptance" : "accept");
  if (layout.with_retractions) row.push_back(options.wide ? "retracted" : "retract");
  return row;
}

std::string ratio_cell(const MethodSummary& s, const std::string& metric, const std::string& baseline) {
  const auto by_metric = s.speedup.find(metric);
  if (by_metric == s.speedup.end()) return "-";
  const auto it = by_metric->second.find(baseline);
  return it == by_metric->second.end() ? "-" : fmt::format("{:.2f}x", it->second);
}

Row method_row(const MethodSummary& s, const TableOptions& options, const Layout& layout) {
  Row row{s.name};
  if (options.wide || !layout.prefill_first) {
    row.insert(row.end(), {format_duration_s(s.ttft_speculative_s.mean),
                           format_duration_s(s.ttft_commit_s.mean)});
  }
  if (layout.prefill_first) {
    row.insert(row.end(), {format_duration_s(s.ttdt_speculative_s.mean),
                           format_duration_s(s.ttdt_commit_s.mean)});
  }
  if (options.percentiles) {
    row.insert(row.end(), {format_duration_s(s.ttft_s.p50), format_duration_s(s.ttft_s.p90),
                           format_duration_s(s.ttft_s.p99)});
  }
  row.push_back(format_duration_s(s.tpot_s.mean));
  if (options.wide) row.push_back(format_duration_s(s.e2e_s.mean));
  if (layout.with_energy) {
    const auto& e = s.cluster.energy;
    row.insert(row.end(), {e ? fmt::format("{:.3g}", e->per_token_j) : "-", e ? fmt::format("{:.4g}", e->per_request_j) : "-"});
  }
  row.push_back(format_byte_count(s.bytes_total));
  for (const auto& b : layout.baselines) {
    for (const auto& [label, metric] : ratio_columns(layout)) row.push_back(ratio_cell(s, metric, b));
  }
  for (const auto& m : layout.metrics) {
    const auto it = s.accuracy.find(m);
    row.push_back(it == s.accuracy.end() ? "-" : format_metric(it->second));
  }
  if (layout.with_acceptance) row.push_back(s.speculative ? acceptance_cell(s) : "-");
  if (layout.with_retractions) row.push_back(s.speculative ? fmt::format("{}", s.retracted_tokens) : "-");
  return row;
}

Layout table_layout(const std::vector<MethodSummary>& summaries, const TableOptions& options) {
  Layout layout;
  layout.metrics = metric_columns(summaries, options);
  layout.baselines = options.baselines;
  if (!options.wide) {
    if (layout.metrics.size() > 1) layout.metrics.resize(1);
    if (layout.baselines.size() > 1) layout.baselines.resize(1);
  }
  for (const auto& s : summaries) {
    layout.with_acceptance = layout.with_acceptance || s.speculative;
    layout.with_retractions = layout.with_retractions || (s.speculative && s.stream == "speculative");
    layout.prefill_first = layout.prefill_first || s.first_token_from == "prefill";
    layout.with_energy = layout.with_energy || (options.wide && s.cluster.energy.has_value());
  }
  return layout;
}

std::string accuracy_note(const std::vector<MethodSummary>& summaries) {
  int measured = 0;
  int longest = 0;
  for (const auto& s : summaries) {
    measured = std::max(measured, s.accuracy_context_tokens);
    longest = std::max(longest, s.max_context_tokens);
  }
  if (measured == 0) return "";
  if (measured >= longest) return fmt::format("Accuracy measured on {}-token KV.\n", measured);
  return fmt::format("Accuracy measured on {}-token KV, shorter than the longest prompt ({} tokens): "
                     "measurement is capped at that length.\n", measured, longest);
}

// Why the methods differ or tie: the baseline's exposed KV transfer as a share of its TTFT.
std::string exposure_note(const std::vector<MethodSummary>& summaries, const Layout& layout) {
  if (summaries.empty() || layout.prefill_first) return "";
  const MethodSummary* base = &summaries.front();
  for (const auto& s : summaries) {
    if (!layout.baselines.empty() && s.name == layout.baselines.front()) base = &s;
  }
  const double ttft = base->ttft_commit_s.mean;
  if (!(ttft > 0.0)) return "";
  const double share = std::max(0.0, base->exposed_transfer_s.mean) / ttft;
  const std::string head = fmt::format(
      "{} waits {} for exposed KV transfer, {:.1f}% of its {} TTFT: ", base->name,
      format_duration_s(base->exposed_transfer_s.mean), 100.0 * share, format_duration_s(ttft));
  if (share < 0.05) {
    return head + "the transfer hides behind prefill, so the transfer method barely moves TTFT.\n";
  }
  return head + "a method that sends fewer bytes first can win up to that share.\n";
}

// A closed-loop client sends each method's requests at that method's own times (client.hpp).
std::string client_note(const std::vector<MethodSummary>& summaries) {
  if (summaries.empty() || summaries.front().cluster.client_concurrency == 0) return "";
  std::string figures;
  for (const auto& s : summaries) {
    figures += fmt::format("{}{} {:.2f} in flight, {:.3f} req/s", figures.empty() ? "" : "; ", s.name,
                           s.cluster.achieved_concurrency, s.cluster.requests_per_s);
  }
  return fmt::format("Closed-loop client, at most {} requests in flight, each method's requests sent "
                     "as its own responses free slots: {}.\n",
                     summaries.front().cluster.client_concurrency, figures);
}

std::string table_notes(const std::vector<MethodSummary>& summaries, const Layout& layout) {
  std::string notes;
  if (layout.with_acceptance) {
    notes += "TTFT_spec: first token made, a draft for speculative methods (the paper's TTFT); "
             "TTFT_commit: first token verified against the full KV.\n";
    notes += layout.with_retractions
                 ? "Drafts stream to the client (speculation.stream \"speculative\"): its TTFT is "
                   "TTFT_spec, and each rolled-back draft it saw is retracted.\n"
                 : "The client sees verified tokens only (speculation.stream \"committed\"): its "
                   "TTFT is TTFT_commit.\n";
  }
  notes += exposure_note(summaries, layout);
  notes += client_note(summaries);
  notes += accuracy_note(summaries);
  if (layout.prefill_first && !summaries.empty()) {
    notes += "The prefill instance emits the first token (serving.first_token_from \"prefill\"), "
             "so every method has the same TTFT; methods differ from the second token, the first "
             "decode token (TTDT), which the ratios compare.\n";
  }
  if (notes.empty()) return notes;
  std::string out(1, '\n');
  out += wrap_text(notes, kTableTextWidth);
  return out;
}

std::string render(const std::vector<Row>& rows) {
  std::vector<std::size_t> widths(rows.front().size(), 0);
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  }
  std::string out;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    std::string line = fmt::format("{:<{}}", rows[r][0], widths[0]);
    for (std::size_t c = 1; c < rows[r].size(); ++c) {
      line += fmt::format("  {:>{}}", rows[r][c], widths[c]);
    }
    out += line + "\n";
    if (r == 0) out += std::string(line.size(), '-') + "\n";
  }
  return out;
}

std::string percent(double fraction) { return fmt::format("{:.1f}%", 100.0 * fraction); }

Row cluster_row(const MethodSummary& s) {
  const ClusterSummary& c = s.cluster;
  return {s.name,
          fmt::format("{}+{}", c.num_prefill, c.num_decode),
          fmt::format("{:.3f}", c.requests_per_s),
          fmt::format("{:.1f}", c.output_tokens_per_s),
          fmt::format("{:.3f}", c.goodput_requests_per_s),
          percent(c.slo_attainment),
          format_duration_s(s.ttft_s.p99),
          format_duration_s(s.prefill_queue_s.mean),
          format_duration_s(s.memory_wait_s.mean),
          format_duration_s(s.kv_admission_wait_s.mean),
          percent(c.cache_hit_rate),
          percent(c.peak_decode_memory_fraction),
          percent(c.max_link_utilisation)};
}

}  // namespace

std::string format_cluster_table(const std::vector<MethodSummary>& summaries) {
  std::vector<Row> rows{{"method", "P+D", "req/s", "out tok/s", "goodput/s", "SLO met",
                         "p99 TTFT", "prefill queue", "memory wait", "KV admission", "cache hit",
                         "peak mem", "max link"}};
  for (const auto& s : summaries) rows.push_back(cluster_row(s));
  return render(rows);
}

namespace {

void wrap_line(std::string_view line, std::size_t width, std::string& out) {
  std::size_t column = 0;
  while (!line.empty()) {
    const std::size_t space = line.find(' ');
    const std::string_view word = line.substr(0, space);
    if (column > 0 && column + 1 + word.size() > width) {
      out += '\n';
      column = 0;
    } else if (column > 0) {
      out += ' ';
      ++column;
    }
    out += word;
    column += word.size();
    line = space == std::string_view::npos ? std::string_view{} : line.substr(space + 1);
  }
}

}  // namespace

std::string wrap_text(const std::string& text, std::size_t width) {
  std::string out;
  std::string_view rest = text;
  while (!rest.empty()) {
    const std::size_t newline = rest.find('\n');
    wrap_line(rest.substr(0, newline), width, out);
    if (newline == std::string_view::npos) break;
    out += '\n';
    rest = rest.substr(newline + 1);
  }
  return out;
}

std::string format_duration_s(double seconds) {
  const double magnitude = std::fabs(seconds);
  if (magnitude >= 1.0) return fmt::format("{:.3f}s", seconds);
  if (magnitude >= 1e-3) return fmt::format("{:.2f}ms", seconds * 1e3);
  return fmt::format("{:.1f}us", seconds * 1e6);
}

std::string format_byte_count(std::int64_t bytes) {
  constexpr double kKi = 1024.0;
  const double b = static_cast<double>(bytes);
  if (std::llabs(bytes) < 1024) return fmt::format("{}B", bytes);
  if (std::fabs(b) < kKi * kKi) return fmt::format("{:.2f}KiB", b / kKi);
  if (std::fabs(b) < kKi * kKi * kKi) return fmt::format("{:.2f}MiB", b / (kKi * kKi));
  return fmt::format("{:.2f}GiB", b / (kKi * kKi * kKi));
}

std::string format_result_table(const std::vector<MethodSummary>& summaries,
                                const TableOptions& options) {
  const Layout layout = table_layout(summaries, options);
  std::vector<Row> rows{header_row(options, layout)};
  for (const auto& s : summaries) rows.push_back(method_row(s, options, layout));
  return render(rows) + table_notes(summaries, layout);
}

}  // namespace lynxsim::report
