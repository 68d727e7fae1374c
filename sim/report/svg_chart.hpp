#pragma once
// Inline SVG charts for the results pages (results_page.hpp and scripts/sweep.py's sweep page draw
// the same way): a line chart of several series on linear axes and a chart of horizontal stacked
// bars, each with its title, axis labels, ticks and a legend. The output is plain SVG 1.1 text with
// no scripts, fonts or external references, so a page that inlines it opens offline; coordinates
// are printed with fixed precision, so the same input gives the same bytes.
//
// Axes run from 0 (or the data's minimum when it is negative) to the largest value rounded up to a
// tick. Ticks are "nice" steps, 1, 2 or 5 x 10^k, about five per axis (Heckbert, "Nice numbers for
// graph labels", Graphics Gems, 1990).

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lynxsim::report {

struct ChartSeries {
  std::string label;
  std::vector<std::pair<double, double>> points;  // (x, y), drawn in order
};

struct LineChart {
  std::string title;
  std::string x_label;
  std::string y_label;
  std::vector<ChartSeries> series;
  double y_max = 0.0;  // > 0: the top of the y axis (e.g. 1 for a CDF); else from the data
};

struct StackedBar {
  std::string label;
  std::vector<double> values;  // one per segment, drawn left to right
};

struct BarChart {
  std::string title;
  std::string x_label;
  std::vector<std::string> segments;  // the legend, one entry per value of a bar
  std::vector<StackedBar> bars;
};

std::string svg_line_chart(const LineChart& chart);
std::string svg_bar_chart(const BarChart& chart);

// Nice tick values covering [low, high] (ascending, at least two).
std::vector<double> nice_ticks(double low, double high);

// Text with & < > " ' replaced by entities, for HTML and SVG text and attributes.
std::string html_escape(std::string_view text);

}  // namespace lynxsim::report
