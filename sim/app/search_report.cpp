#include "sim/app/search_report.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "sim/plan/pareto.hpp"

namespace lynxsim::app {
namespace {

std::string csv_cell(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string role_text(const RoleChoice& r) { return fmt::format("{}x {} tp{}", r.count, r.gpu, r.tensor_parallel); }

// The configuration of `method` ("": any) with the lowest $ per million tokens; size() when none
// met the targets.
std::size_t cheapest(const SearchTable& t, const std::string& method) {
  std::size_t best = t.configs.size();
  for (std::size_t i = 0; i < t.configs.size(); ++i) {
    if (t.outcomes[i].status != PointStatus::found || (!method.empty() && t.configs[i].method != method)) continue;
    if (best == t.configs.size() || t.outcomes[i].usd_per_m_tokens < t.outcomes[best].usd_per_m_tokens) best = i;
  }
  return best;
}

}  // namespace

SearchTable make_search_table(std::vector<SearchConfig> configs, std::vector<SearchOutcome> outcomes) {
  std::vector<plan::ParetoPoint> points;
  for (const SearchOutcome& o : outcomes) {
    points.push_back({o.usd_per_hour, o.status == PointStatus::found ? o.goodput_per_gpu : 0.0});
  }
  std::vector<std::size_t> front = plan::pareto_front(points);
  return {std::move(configs), std::move(outcomes), std::move(front)};
}

std::string search_csv(const SearchTable& t) {
  std::string out = "config,prefill_gpu,prefill_tp,prefill_count,decode_gpu,decode_tp,decode_count,gpus,network,"
                    "scheduling,method,status,note,rate_per_s,failed_at_per_s,simulations,ttft_s,tpot_s,attainment,"
                    "goodput_per_gpu,usd_per_hour,usd_per_m_tokens,joules_per_token,pareto\n";
  for (std::size_t i = 0; i < t.configs.size(); ++i) {
    const SearchConfig& c = t.configs[i];
    const SearchOutcome& o = t.outcomes[i];
    const bool on_front = std::find(t.front.begin(), t.front.end(), i) != t.front.end();
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{:.6g},{:.6g},{},{:.6g},{:.6g},{:.4f},{:.6g},{:.4f},"
                       "{:.4f},{:.6g},{}\n",
                       i, csv_cell(c.prefill.gpu), c.prefill.tensor_parallel, c.prefill.count, csv_cell(c.decode.gpu),
                       c.decode.tensor_parallel, c.decode.count, c.gpus(), csv_cell(c.network), csv_cell(c.scheduling),
                       csv_cell(c.method), status_name(o.status), csv_cell(o.note), o.rate.found, o.rate.failed_at,
                       o.rate.simulations, o.slo.ttft_s, o.slo.tpot_s, o.slo.attainment, o.goodput_per_gpu,
                       o.usd_per_hour, o.usd_per_m_tokens, o.joules_per_token, on_front ? 1 : 0);
  }
  return out;
}

std::string format_search_front(const SearchTable& t) {
  std::string out = fmt::format("{:>4}  {:<22} {:<22} {:<14} {:<10} {:>9} {:>10} {:>9} {:>9} {:>8}\n", "#",
                                "prefill", "decode", "network", "method", "req/s", "req/s/GPU", "$/hour",
                                "$/Mtok", "J/tok");
  out += std::string(out.size() - 1, '-') + "\n";
  for (const std::size_t i : t.front) {
    const SearchConfig& c = t.configs[i];
    const SearchOutcome& o = t.outcomes[i];
    out += fmt::format("{:>4}  {:<22} {:<22} {:<14} {:<10} {:>9.3g} {:>10.3g} {:>9.2f} {:>9.3f} {:>8.3g}\n", i,
                       role_text(c.prefill), role_text(c.decode), c.network, c.method, o.rate.found,
                       o.goodput_per_gpu, o.usd_per_hour, o.usd_per_m_tokens, o.joules_per_token);
  }
  const std::size_t best = cheapest(t, "");
  if (best == t.configs.size()) return out + "no configuration met the targets at any rate of the range\n";
  out += "\ncheapest per million output tokens, by method:\n";
  std::vector<std::string> methods;
  for (const SearchConfig& c : t.configs) {
    if (std::find(methods.begin(), methods.end(), c.method) == methods.end()) methods.push_back(c.method);
  }
  for (const std::string& m : methods) {
    const std::size_t i = cheapest(t, m);
    if (i == t.configs.size()) {
      out += fmt::format("  {:<10} none met the targets\n", m);
      continue;
    }
    out += fmt::format("  {:<10} #{}: {}, {}, {}: ${:.3f}/Mtok at {:.3g} req/s\n", m, i, role_text(t.configs[i].prefill),
                       role_text(t.configs[i].decode), t.configs[i].network, t.outcomes[i].usd_per_m_tokens,
                       t.outcomes[i].rate.found);
  }
  return out + fmt::format("cheapest overall: #{} ({})\n", best, t.configs[best].key());
}

}  // namespace lynxsim::app
