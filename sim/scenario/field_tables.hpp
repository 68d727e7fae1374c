#pragma once
// The key tables defined outside scenario_fields.cpp, for scenario_field_sections() to list.

#include <span>

#include "sim/scenario/field_table.hpp"
#include "sim/scenario/input_limits.hpp"

namespace lynxsim::scenario {

// Bounds the tables share, as the doubles a Field holds.
inline constexpr double kTokensBound = static_cast<double>(kMaxTokensPerRequest);
inline constexpr double kRequestsBound = static_cast<double>(kMaxRequests);

std::span<const Field> workload_trace_fields();
std::span<const Field> workload_synthetic_fields();
std::span<const Field> workload_closed_loop_fields();
std::span<const Field> length_fields();
std::span<const Field> method_fields();
std::span<const Field> cachegen_fields();

}  // namespace lynxsim::scenario
