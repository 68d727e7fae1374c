#include "sim/report/svg_chart.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>

namespace lynxsim::report {
namespace {

constexpr double kWidth = 720.0;
constexpr double kLeft = 70.0;
constexpr double kRight = 190.0;  // room for the legend
constexpr double kTop = 34.0;
constexpr double kBottom = 48.0;
constexpr std::array<const char*, 8> kColours{"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                              "#9467bd", "#8c564b", "#e377c2", "#17becf"};

const char* colour(std::size_t i) { return kColours[i % kColours.size()]; }

double nice_step(double span) {
  const double raw = span / 5.0;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double fraction = raw / magnitude;
  const double nice = fraction < 1.5 ? 1.0 : fraction < 3.5 ? 2.0 : fraction < 7.5 ? 5.0 : 10.0;
  return nice * magnitude;
}

// Maps data coordinates to the plot area of a chart of height `height`.
struct Frame {
  double height;
  double x_low, x_high, y_low, y_high;
  double x(double v) const {
    return kLeft + (v - x_low) / (x_high - x_low) * (kWidth - kLeft - kRight);
  }
  double y(double v) const {
    return height - kBottom - (v - y_low) / (y_high - y_low) * (height - kTop - kBottom);
  }
};

std::string open_svg(double height, const std::string& title) {
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}\" height=\"{1:.0f}\" "
      "viewBox=\"0 0 {0:.0f} {1:.0f}\" role=\"img\" font-family=\"sans-serif\" font-size=\"12\">\n"
      "<title>{2}</title>\n<text x=\"{3:.1f}\" y=\"20\" font-size=\"14\" font-weight=\"bold\">{2}"
      "</text>\n",
      kWidth, height, html_escape(title), kLeft);
}

std::string x_axis(const Frame& f, const std::vector<double>& ticks, const std::string& label) {
  std::string out = fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#000\"/>\n",
                                f.x(f.x_low), f.y(f.y_low), f.x(f.x_high), f.y(f.y_low));
  for (const double t : ticks) {
    out += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#ddd\"/>"
                       "<text x=\"{0:.1f}\" y=\"{3:.1f}\" text-anchor=\"middle\">{4:g}</text>\n",
                       f.x(t), f.y(f.y_low), kTop, f.y(f.y_low) + 16, t);
  }
  out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n",
                     (f.x(f.x_low) + f.x(f.x_high)) / 2, f.height - 10, html_escape(label));
  return out;
}

std::string y_axis(const Frame& f, const std::vector<double>& ticks, const std::string& label) {
  std::string out = fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#000\"/>\n",
                                kLeft, f.y(f.y_low), f.y(f.y_high));
  for (const double t : ticks) {
    out += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" y2=\"{1:.1f}\" stroke=\"#ddd\"/>"
                       "<text x=\"{3:.1f}\" y=\"{4:.1f}\" text-anchor=\"end\">{5:g}</text>\n",
                       kLeft, f.y(t), kWidth - kRight, kLeft - 6, f.y(t) + 4, t);
  }
  out += fmt::format("<text transform=\"translate(16 {:.1f}) rotate(-90)\" text-anchor=\"middle\">{}</text>\n",
                     (f.y(f.y_low) + f.y(f.y_high)) / 2, html_escape(label));
  return out;
}

std::string legend(const std::vector<std::string>& labels) {
  std::string out;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    const double y = kTop + 8 + 18.0 * static_cast<double>(i);
    out += fmt::format("<rect x=\"{0:.1f}\" y=\"{1:.1f}\" width=\"12\" height=\"12\" fill=\"{2}\"/>"
                       "<text x=\"{3:.1f}\" y=\"{4:.1f}\">{5}</text>\n",
                       kWidth - kRight + 14, y - 10, colour(i), kWidth - kRight + 32, y, html_escape(labels[i]));
  }
  return out;
}

std::pair<double, double> extent(const std::vector<double>& values) {
  double low = 0.0;
  double high = 0.0;
  for (const double v : values) {
    if (!std::isfinite(v)) continue;
    low = std::min(low, v);
    high = std::max(high, v);
  }
  return {low, high};
}

std::string polyline(const Frame& f, const ChartSeries& s, std::size_t index) {
  std::string points;
  for (const auto& [x, y] : s.points) {
    if (!std::isfinite(x) || !std::isfinite(y)) continue;
    points += fmt::format("{}{:.1f},{:.1f}", points.empty() ? "" : " ", f.x(x), f.y(y));
  }
  return fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"1.8\" points=\"{}\"/>\n",
                     colour(index), points);
}

}  // namespace

std::vector<double> nice_ticks(double low, double high) {
  if (!(high > low)) high = low + 1.0;
  const double step = nice_step(high - low);
  std::vector<double> ticks;
  const double first = std::floor(low / step + 1e-9);
  for (double k = first; ticks.empty() || ticks.back() < high - 1e-9 * step; k += 1.0) {
    ticks.push_back(k * step);
  }
  if (ticks.size() < 2) ticks.push_back(ticks.back() + step);
  return ticks;
}

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string svg_line_chart(const LineChart& chart) {
  std::vector<double> xs;
  std::vector<double> ys;
  std::vector<std::string> labels;
  for (const auto& s : chart.series) {
    labels.push_back(s.label);
    for (const auto& [x, y] : s.points) {
      xs.push_back(x);
      ys.push_back(y);
    }
  }
  const auto [x_low, x_high] = extent(xs);
  const auto [y_low, y_high] = extent(ys);
  const std::vector<double> x_ticks = nice_ticks(x_low, x_high);
  const std::vector<double> y_ticks = chart.y_max > 0.0 ? nice_ticks(0.0, chart.y_max) : nice_ticks(y_low, y_high);
  const Frame f{300.0, x_ticks.front(), x_ticks.back(), y_ticks.front(), y_ticks.back()};
  std::string out = open_svg(f.height, chart.title) + x_axis(f, x_ticks, chart.x_label) +
                    y_axis(f, y_ticks, chart.y_label);
  for (std::size_t i = 0; i < chart.series.size(); ++i) out += polyline(f, chart.series[i], i);
  return out + legend(labels) + "</svg>\n";
}

std::string svg_bar_chart(const BarChart& chart) {
  std::vector<double> totals;
  for (const auto& bar : chart.bars) {
    double total = 0.0;
    for (const double v : bar.values) total += v;
    totals.push_back(total);
  }
  const std::vector<double> ticks = nice_ticks(0.0, extent(totals).second);
  const double height = kTop + kBottom + 28.0 * static_cast<double>(std::max<std::size_t>(chart.bars.size(), 2));
  const Frame f{height, ticks.front(), ticks.back(), 0.0, 1.0};
  std::string out = open_svg(height, chart.title) + x_axis(f, ticks, chart.x_label);
  for (std::size_t b = 0; b < chart.bars.size(); ++b) {
    const double y = kTop + 6 + 28.0 * static_cast<double>(b);
    out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n", kLeft - 6, y + 14,
                       html_escape(chart.bars[b].label));
    double start = 0.0;
    for (std::size_t s = 0; s < chart.bars[b].values.size(); ++s) {
      const double end = start + chart.bars[b].values[s];
      out += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"20\" fill=\"{}\"/>\n",
                         f.x(start), y, f.x(end) - f.x(start), colour(s));
      start = end;
    }
  }
  return out + legend(chart.segments) + "</svg>\n";
}

}  // namespace lynxsim::report
