#pragma once
// The configuration layer's names for the one input-error type of sim/fields (issues.hpp): a
// ScenarioError is an InputError of a scenario or card file; the application exits with code 2 on it.

#include "sim/fields/issues.hpp"

namespace lynxsim::scenario {

using ScenarioIssue = fields::Issue;
using ScenarioError = fields::InputError;
using fields::IssueList;

}  // namespace lynxsim::scenario
