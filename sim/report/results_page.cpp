#include "sim/report/results_page.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <functional>

#include "sim/core/build_info.hpp"
#include "sim/report/result_table.hpp"
#include "sim/report/statistics.hpp"
#include "sim/report/svg_chart.hpp"

namespace lynxsim::report {
namespace {

using serving::RequestMetrics;

constexpr const char* kStyle =
    "body{font-family:sans-serif;margin:24px auto;max-width:1100px;color:#222}"
    "h2{border-bottom:1px solid #ccc;padding-bottom:4px;margin-top:32px}"
    "table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;padding:3px 8px}"
    "td{text-align:right}td:first-child,th{text-align:left}"
    "pre{background:#f6f6f6;padding:10px;overflow-x:auto;font-size:12px}"
    "svg{display:block;margin:8px 0}.note{color:#555;font-size:13px}";

// A JSON pointer (RFC 6901) to summary.json's methods/<method>/<path...>.
std::string method_pointer(const std::string& method, std::initializer_list<std::string> path) {
  std::string out = "/methods";
  const auto append = [&out](const std::string& token) {
    out.push_back('/');
    for (const char c : token) {
      if (c == '~') out.append("~0");
      else if (c == '/') out.append("~1");
      else out.push_back(c);
    }
  };
  append(method);
  for (const std::string& token : path) append(token);
  return out;
}

// A table cell showing `text` for the number `value` found at `pointer` in summary.json, rounded
// as `unit` says: "count" (exact), "ms" (seconds as ms, three decimals), "%" (a fraction in percent,
// one decimal) or "bytes" (format_byte_count).
std::string cell(const std::string& pointer, const nlohmann::json& value, const char* unit,
                 const std::string& text) {
  return fmt::format("<td data-key=\"{}\" data-value=\"{}\" data-unit=\"{}\">{}</td>",
                     html_escape(pointer), html_escape(value.dump()), unit, html_escape(text));
}

nlohmann::json json_number(double value) { return std::isfinite(value) ? nlohmann::json(value) : nullptr; }

std::string ms_cell(const MethodSummary& s, const std::string& metric, const std::string& stat, double value) {
  const std::string text = std::isfinite(value) ? fmt::format("{:.3f}", value * 1e3) : "-";
  return cell(method_pointer(s.name, {metric, stat}), json_number(value), "ms", text);
}

std::string percent_cell(const std::string& pointer, double value) {
  const std::string text = std::isfinite(value) ? fmt::format("{:.1f}%", value * 100) : "-";
  return cell(pointer, json_number(value), "%", text);
}

std::string head(const PageInputs& in) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'; img-src data:\">\n<title>lynxsim: {0}</title>\n"
      "<style>{1}</style>\n</head>\n<body>\n<h1>{0}</h1>\n"
      "<p class=\"note\">lynxsim {2} ({3}); serving engine: {4}. The files of this run: "
      "<a href=\"summary.json\">summary.json</a>, <a href=\"requests.csv\">requests.csv</a>, "
      "<a href=\"scenario.resolved.json\">scenario.resolved.json</a>.</p>\n",
      html_escape(in.scenario_name), kStyle, html_escape(lynxsim_version()),
      html_escape(lynxsim_commit()), html_escape(in.engine.empty() ? "none" : in.engine));
}

std::string summary_row(const MethodSummary& s) {
  std::string row = fmt::format("<tr><td>{}</td>", html_escape(s.name));
  row += cell(method_pointer(s.name, {"requests"}), s.num_requests, "count", fmt::format("{}", s.num_requests));
  for (const auto& [metric, stats] : {std::pair<std::string, const Stats*>{"ttft_speculative_s", &s.ttft_speculative_s},
                                      {"ttft_commit_s", &s.ttft_commit_s}}) {
    row += ms_cell(s, metric, "mean", stats->mean) + ms_cell(s, metric, "p50", stats->p50) +
           ms_cell(s, metric, "p90", stats->p90) + ms_cell(s, metric, "p99", stats->p99);
  }
  row += ms_cell(s, "tpot_s", "mean", s.tpot_s.mean) + ms_cell(s, "tpot_s", "p99", s.tpot_s.p99) +
         ms_cell(s, "e2e_s", "mean", s.e2e_s.mean);
  row += cell(method_pointer(s.name, {"bytes_total"}), s.bytes_total, "bytes", format_byte_count(s.bytes_total));
  row += percent_cell(method_pointer(s.name, {"max_link_utilisation"}), s.cluster.max_link_utilisation);
  return row + "</tr>\n";
}

std::string summary_section(const PageInputs& in) {
  std::string out =
      "<h2>Summary</h2>\n<p class=\"note\">Durations in ms over the requests that finished; "
      "bytes of all planes of all requests; the largest mean utilisation of a link.</p>\n<table>\n"
      "<tr><th rowspan=\"2\">method</th><th rowspan=\"2\">requests</th><th colspan=\"4\">TTFT_spec (ms)</th>"
      "<th colspan=\"4\">TTFT_commit (ms)</th><th colspan=\"2\">TPOT (ms)</th><th>E2E (ms)</th>"
      "<th rowspan=\"2\">bytes</th><th rowspan=\"2\">link util.</th></tr>\n<tr>"
      "<th>mean</th><th>p50</th><th>p90</th><th>p99</th><th>mean</th><th>p50</th><th>p90</th>"
      "<th>p99</th><th>mean</th><th>p99</th><th>mean</th></tr>\n";
  for (const auto& s : in.summaries) out += summary_row(s);
  return out + "</table>\n";
}

// The unit a chart of durations up to `largest` seconds is drawn in: (name, scale).
std::pair<std::string, double> duration_unit(double largest) {
  if (largest < 1e-3) return {"us", 1e6};
  if (largest < 1.0) return {"ms", 1e3};
  return {"s", 1.0};
}

using Quantity = std::function<double(const RequestMetrics&)>;

std::vector<double> sample_of(const serving::MethodResult& r, const Quantity& quantity) {
  std::vector<double> sample;
  for (const auto& m : r.requests) {
    if (!m.failed()) sample.push_back(quantity(m));
  }
  return sample;
}

std::string cdf_chart(const PageInputs& in, const std::string& name, const Quantity& quantity,
                      bool speculative_only) {
  double largest = 0.0;
  for (const auto& r : in.results) {
    for (const double v : sample_of(r, quantity)) largest = std::max(largest, v);
  }
  const auto [unit, scale] = duration_unit(largest);
  LineChart chart{fmt::format("{} CDF", name), fmt::format("{} ({})", name, unit), "fraction of requests", {}, 1.0};
  for (const auto& r : in.results) {
    if (speculative_only && !r.method.speculative()) continue;
    chart.series.push_back({r.method.name, cdf_points(sample_of(r, quantity), scale)});
  }
  return svg_line_chart(chart);
}

std::string latency_section(const PageInputs& in) {
  std::string out = "<h2>Latency distributions</h2>\n<p class=\"note\">TTFT_spec: the first token "
                    "made (a draft for speculative methods); TTFT_commit: the first token verified "
                    "against the full KV (the same for plain methods); TPOT: time per output token "
                    "after the first.</p>\n";
  out += cdf_chart(in, "TTFT_spec", [](const RequestMetrics& m) { return m.ttft_speculative().seconds(); }, false);
  const bool speculative = std::any_of(in.results.begin(), in.results.end(),
                                       [](const serving::MethodResult& r) { return r.method.speculative(); });
  if (speculative) {
    out += cdf_chart(in, "TTFT_commit", [](const RequestMetrics& m) { return m.ttft_commit().seconds(); }, true);
  }
  return out + cdf_chart(in, "TPOT", [](const RequestMetrics& m) { return m.tpot().seconds(); }, false);
}

std::string bytes_section(const PageInputs& in) {
  std::size_t planes = 0;
  std::int64_t largest = 0;
  for (const auto& s : in.summaries) {
    planes = std::max(planes, s.bytes_per_plane.size());
    largest = std::max(largest, s.bytes_total);
  }
  const double mib = largest >= (std::int64_t{1} << 30) ? double(std::int64_t{1} << 30) : double(1 << 20);
  BarChart chart{"Bytes per plane", largest >= (std::int64_t{1} << 30) ? "GiB" : "MiB", {}, {}};
  for (std::size_t p = 0; p < planes; ++p) chart.segments.push_back(fmt::format("plane {}", p));
  std::string table = "<table>\n<tr><th>method</th>";
  for (std::size_t p = 0; p < planes; ++p) table += fmt::format("<th>plane {}</th>", p);
  table += "</tr>\n";
  for (const auto& s : in.summaries) {
    StackedBar bar{s.name, {}};
    table += fmt::format("<tr><td>{}</td>", html_escape(s.name));
    for (std::size_t p = 0; p < s.bytes_per_plane.size(); ++p) {
      bar.values.push_back(static_cast<double>(s.bytes_per_plane[p]) / mib);
      table += cell(method_pointer(s.name, {"bytes_per_plane", std::to_string(p)}), s.bytes_per_plane[p], "bytes",
                    format_byte_count(s.bytes_per_plane[p]));
    }
    chart.bars.push_back(std::move(bar));
    table += "</tr>\n";
  }
  return "<h2>Bytes per plane</h2>\n" + svg_bar_chart(chart) + table + "</table>\n";
}


std::vector<const serving::LinkUtilisation*> busiest_links(const ClusterSummary& c) {
  std::vector<const serving::LinkUtilisation*> links;
  for (const auto& [id, link] : c.links) links.push_back(&link);
  std::stable_sort(links.begin(), links.end(), [](const auto* a, const auto* b) { return a->mean > b->mean; });
  if (links.size() > kPageLinks) links.resize(kPageLinks);
  return links;
}

std::string link_key(const serving::LinkUtilisation& link) {
  return link.name.empty() ? std::to_string(link.link) : link.name;
}

std::string link_chart(const MethodSummary& s, const std::vector<const serving::LinkUtilisation*>& links,
                       double bin_s) {
  std::size_t bins = 0;
  for (const auto* link : links) bins = std::max(bins, link->series.size());
  const auto [unit, scale] = duration_unit(static_cast<double>(bins) * bin_s);
  LineChart chart{fmt::format("{}: link utilisation over time", s.name), fmt::format("time ({})", unit),
                  "utilisation", {}, 1.0};
  for (const auto* link : links) {
    ChartSeries series{link_key(*link), {}};
    for (std::size_t b = 0; b < link->series.size(); ++b) {
      series.points.emplace_back(static_cast<double>(b) * bin_s * scale, link->series[b]);
      series.points.emplace_back(static_cast<double>(b + 1) * bin_s * scale, link->series[b]);
    }
    if (!series.points.empty()) chart.series.push_back(std::move(series));
  }
  return chart.series.empty() ? std::string() : svg_line_chart(chart);
}

std::string links_section(const PageInputs& in) {
  std::string table = "<table>\n<tr><th>method</th><th>link</th><th>mean</th><th>peak</th></tr>\n";
  std::string charts;
  for (std::size_t m = 0; m < in.summaries.size(); ++m) {
    const MethodSummary& s = in.summaries[m];
    const auto links = busiest_links(s.cluster);
    for (const auto* link : links) {
      table += fmt::format("<tr><td>{}</td><td>{}</td>", html_escape(s.name), html_escape(link_key(*link)));
      table += percent_cell(method_pointer(s.name, {"link_mean_utilisation", link_key(*link)}), link->mean) +
               percent_cell(method_pointer(s.name, {"link_peak_utilisation", link_key(*link)}), link->peak) +
               "</tr>\n";
    }
    if (m < in.results.size()) charts += link_chart(s, links, in.results[m].cluster.link_series_bin_s);
  }
  return fmt::format("<h2>Link utilisation</h2>\n<p class=\"note\">The {} busiest links of each "
                     "method by mean utilisation (carried load / capacity over the run), their peak, "
                     "and their utilisation over time in equal bins.</p>\n",
                     kPageLinks) +
         table + "</table>\n" + charts;
}

}  // namespace

std::vector<std::pair<double, double>> cdf_points(std::vector<double> sample, double scale) {
  std::vector<std::pair<double, double>> points;
  if (sample.empty()) return points;
  std::sort(sample.begin(), sample.end());
  const std::size_t n = std::min(sample.size(), kCdfPoints);
  if (n == 1) return {{sample.front() * scale, 0.0}, {sample.front() * scale, 1.0}};
  for (std::size_t i = 0; i < n; ++i) {
    const double q = static_cast<double>(i) / static_cast<double>(n - 1);
    points.emplace_back(percentile_sorted(sample, q) * scale, q);
  }
  return points;
}

std::string results_page(const PageInputs& in) {
  std::string out = head(in);
  out += "<h2>Run table</h2>\n<pre>" + html_escape(in.run_table) + "</pre>\n";
  out += summary_section(in) + latency_section(in) + bytes_section(in) + links_section(in);
  if (in.with_trace) {
    out += "<h2>Trace</h2>\n<p>The run's trace: <a href=\"trace.json\">trace.json</a> (Chrome "
           "trace-event format). Open it in Perfetto (ui.perfetto.dev, \"Open trace file\") or "
           "chrome://tracing.</p>\n";
  }
  if (in.resolved_scenario != nullptr) {
    out += "<h2>Scenario</h2>\n<p class=\"note\">Every default filled in, as in "
           "scenario.resolved.json.</p>\n<pre>" + html_escape(in.resolved_scenario->dump(2)) + "</pre>\n";
  }
  return out + "</body>\n</html>\n";
}

}  // namespace lynxsim::report
