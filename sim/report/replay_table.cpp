#include "sim/report/replay_table.hpp"

#include <cmath>
#include <fmt/format.h>

#include "sim/report/result_table.hpp"

namespace lynxsim::report {
namespace {

struct Metric {
  const char* name;   // JSON key
  const char* label;  // table row
  bool is_time;
};

constexpr Metric kMetrics[] = {
    {"ttft_mean_s", "TTFT mean", true}, {"ttft_p50_s", "TTFT p50", true},
    {"ttft_p90_s", "TTFT p90", true},   {"ttft_p99_s", "TTFT p99", true},
    {"tpot_mean_s", "TPOT mean", true}, {"tpot_p50_s", "TPOT p50", true},
    {"tpot_p99_s", "TPOT p99", true},   {"e2e_mean_s", "E2E mean", true},
    {"e2e_p50_s", "E2E p50", true},     {"e2e_p99_s", "E2E p99", true},
    {"requests_per_s", "requests/s", false},
};

std::vector<double> values_of(const LatencySample& s) {
  const Stats ttft = summarize(s.ttft_s);
  const Stats tpot = summarize(s.tpot_s);
  const Stats e2e = summarize(s.e2e_s);
  return {ttft.mean, ttft.p50, ttft.p90, ttft.p99, tpot.mean, tpot.p50,
          tpot.p99,  e2e.mean, e2e.p50,  e2e.p99,  s.requests_per_s};
}

double relative_error(double simulated, double measured) {
  return measured != 0.0 ? simulated / measured - 1.0 : std::nan("");
}

nlohmann::json number(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

std::string cell(const Metric& m, double v) {
  return m.is_time ? format_duration_s(v) : fmt::format("{:.3f}", v);
}

}  // namespace

void LatencySample::add(double ttft, double e2e, int output_tokens) {
  ttft_s.push_back(ttft);
  e2e_s.push_back(e2e);
  if (output_tokens > 1) tpot_s.push_back((e2e - ttft) / (output_tokens - 1));
}

LatencySample simulated_sample(const serving::MethodResult& result) {
  LatencySample s;
  for (const serving::RequestMetrics& m : result.requests) {
    s.add(m.ttft().seconds(), m.e2e().seconds(), m.output_tokens);
  }
  s.requests_per_s = result.cluster.requests_per_s;
  return s;
}

std::string format_replay(const ReplayComparison& c) {
  const std::vector<double> measured = values_of(c.measured);
  std::vector<std::vector<double>> simulated;
  std::string out = fmt::format("{}\n\n{:<12} {:>10}", c.title, "metric", "measured");
  for (const auto& [name, sample] : c.simulated) {
    simulated.push_back(values_of(sample));
    out += fmt::format(" {:>12} {:>8}", name, "error");
  }
  out += fmt::format("\n{}\n", std::string(23 + 22 * c.simulated.size(), '-'));
  for (std::size_t i = 0; i < std::size(kMetrics); ++i) {
    const Metric& m = kMetrics[i];
    out += fmt::format("{:<12} {:>10}", m.label, cell(m, measured[i]));
    for (const auto& values : simulated) {
      const double e = relative_error(values[i], measured[i]);
      out += fmt::format(" {:>12} {:>8}", cell(m, values[i]),
                         std::isfinite(e) ? fmt::format("{:+.1f}%", 100.0 * e) : "-");
    }
    out += "\n";
  }
  return out;
}

nlohmann::json replay_json(const ReplayComparison& c) {
  const std::vector<double> measured = values_of(c.measured);
  nlohmann::json metrics = nlohmann::json::object();
  for (std::size_t i = 0; i < std::size(kMetrics); ++i) {
    nlohmann::json sim = nlohmann::json::object();
    for (const auto& [name, sample] : c.simulated) {
      const double v = values_of(sample)[i];
      sim[name] = {{"value", number(v)}, {"relative_error", number(relative_error(v, measured[i]))}};
    }
    metrics[kMetrics[i].name] = {{"measured", number(measured[i])}, {"simulated", sim}};
  }
  return {{"title", c.title}, {"metrics", metrics}};
}

}  // namespace lynxsim::report
