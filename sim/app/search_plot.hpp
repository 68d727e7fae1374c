#pragma once
// search.svg: every configuration that met the targets as a point, $/hour of the deployment
// across, goodput per GPU (requests per second) up, coloured by method, with the Pareto front
// joined by a line (search_report.hpp). A plain SVG file: no script, no external resource.

#include <string>

#include "sim/app/search_report.hpp"

namespace lynxsim::app {

std::string search_svg(const SearchTable& table, const std::string& title);

}  // namespace lynxsim::app
