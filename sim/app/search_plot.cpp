#include "sim/app/search_plot.hpp"

#include <algorithm>
#include <array>
#include <map>

#include <fmt/format.h>

namespace lynxsim::app {
namespace {

constexpr double kWidth = 720;
constexpr double kHeight = 480;
constexpr double kLeft = 70;
constexpr double kBottom = 50;
constexpr double kTop = 40;
constexpr double kRight = 160;
constexpr std::array kColours{"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};

std::string escape(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else out += c;
  }
  return out;
}

struct Axes {
  double x_max = 0.0;
  double y_max = 0.0;
  double x(double v) const { return kLeft + v / x_max * (kWidth - kLeft - kRight); }
  double y(double v) const { return kHeight - kBottom - v / y_max * (kHeight - kTop - kBottom); }
};

std::string axes_text(const Axes& a) {
  std::string out = fmt::format(R"(<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" stroke="black"/>)"
                                R"(<line x1="{0}" y1="{1}" x2="{0}" y2="{3}" stroke="black"/>)",
                                kLeft, kHeight - kBottom, kWidth - kRight, kTop);
  for (int t = 0; t <= 4; ++t) {
    const double xv = a.x_max * t / 4;
    const double yv = a.y_max * t / 4;
    out += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" font-size="11" text-anchor="middle">{:.3g}</text>)",
                       a.x(xv), kHeight - kBottom + 16, xv);
    out += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" font-size="11" text-anchor="end">{:.3g}</text>)", kLeft - 6,
                       a.y(yv) + 4, yv);
  }
  out += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" font-size="12" text-anchor="middle">deployment $/hour</text>)",
                     (kLeft + kWidth - kRight) / 2, kHeight - 12);
  out += fmt::format(R"svg(<text x="16" y="{:.1f}" font-size="12" text-anchor="middle" transform="rotate(-90 16 {:.1f})">)svg"
                     "goodput per GPU (req/s)</text>", (kTop + kHeight - kBottom) / 2, (kTop + kHeight - kBottom) / 2);
  return out;
}

}  // namespace

std::string search_svg(const SearchTable& t, const std::string& title) {
  Axes a;
  std::map<std::string, std::size_t> colour;
  for (std::size_t i = 0; i < t.configs.size(); ++i) {
    if (t.outcomes[i].status != PointStatus::found) continue;
    a.x_max = std::max(a.x_max, t.outcomes[i].usd_per_hour * 1.1);
    a.y_max = std::max(a.y_max, t.outcomes[i].goodput_per_gpu * 1.1);
    colour.emplace(t.configs[i].method, colour.size() % kColours.size());
  }
  if (a.x_max <= 0.0) a.x_max = 1.0;
  if (a.y_max <= 0.0) a.y_max = 1.0;
  std::string out = fmt::format(R"(<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}">)"
                                R"(<rect width="100%" height="100%" fill="white"/>)"
                                R"(<text x="{}" y="22" font-size="14">{}: Pareto front of cost against goodput per GPU</text>)",
                                kWidth, kHeight, kLeft, escape(title));
  out += axes_text(a);
  std::string line;
  for (const std::size_t i : t.front) {
    line += fmt::format("{:.1f},{:.1f} ", a.x(t.outcomes[i].usd_per_hour), a.y(t.outcomes[i].goodput_per_gpu));
  }
  out += fmt::format(R"(<polyline points="{}" fill="none" stroke="black" stroke-dasharray="4 3"/>)", line);
  for (std::size_t i = 0; i < t.configs.size(); ++i) {
    if (t.outcomes[i].status != PointStatus::found) continue;
    out += fmt::format(R"(<circle cx="{:.1f}" cy="{:.1f}" r="4" fill="{}"><title>#{} {}</title></circle>)",
                       a.x(t.outcomes[i].usd_per_hour), a.y(t.outcomes[i].goodput_per_gpu),
                       kColours[colour.at(t.configs[i].method)], i, escape(t.configs[i].key()));
  }
  double y = kTop + 10;
  for (const auto& [method, c] : colour) {
    out += fmt::format(R"(<circle cx="{0}" cy="{1:.1f}" r="4" fill="{2}"/><text x="{3}" y="{4:.1f}" font-size="12">{5}</text>)",
                       kWidth - kRight + 20, y, kColours[c], kWidth - kRight + 30, y + 4, escape(method));
    y += 18;
  }
  return out + "</svg>\n";
}

}  // namespace lynxsim::app
