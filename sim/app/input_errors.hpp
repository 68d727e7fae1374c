#pragma once
// Which exceptions mean "the user's input is wrong" (exit code 2) rather than an internal failure.

#include <exception>
#include <stdexcept>

namespace lynxsim::app {

class InputError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

bool is_input_error(const std::exception& error);

}  // namespace lynxsim::app
