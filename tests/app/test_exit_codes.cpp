#include <doctest/doctest.h>

#include <stdexcept>

#include "sim/app/input_errors.hpp"
#include "sim/scenario/scenario_error.hpp"

using namespace lynxsim;

TEST_CASE("bad input exits 2, a broken invariant 70, other failures 1") {
  CHECK(app::exit_code_of(app::InputError("no such model")) == 2);
  CHECK(app::exit_code_of(scenario::ScenarioError("s.json", {{"/model", "unknown"}})) == 2);
  CHECK(app::exit_code_of(std::invalid_argument("tp must be >= 1")) == 2);
  CHECK(app::exit_code_of(app::InternalError("negative queue length")) == 70);
  CHECK(app::exit_code_of(std::runtime_error("disk full")) == 1);
}
