#include "sim/app/input_errors.hpp"

#include <filesystem>

#include "sim/core/unit_parse.hpp"
#include "sim/report/results_target.hpp"
#include "sim/scenario/scenario_error.hpp"

namespace lynxsim::app {

bool is_input_error(const std::exception& error) {
  return dynamic_cast<const InputError*>(&error) != nullptr ||
         dynamic_cast<const scenario::ScenarioError*>(&error) != nullptr ||
         dynamic_cast<const UnitError*>(&error) != nullptr ||
         dynamic_cast<const report::OutputRefused*>(&error) != nullptr ||
         dynamic_cast<const std::invalid_argument*>(&error) != nullptr ||
         dynamic_cast<const std::filesystem::filesystem_error*>(&error) != nullptr;
}

int exit_code_of(const std::exception& error) {
  if (dynamic_cast<const InternalError*>(&error) != nullptr) return kInternalErrorExit;
  const bool broken_invariant = dynamic_cast<const std::logic_error*>(&error) != nullptr &&
                                dynamic_cast<const std::invalid_argument*>(&error) == nullptr;
  if (broken_invariant) return kInternalErrorExit;
  return is_input_error(error) ? 2 : 1;
}

}  // namespace lynxsim::app
