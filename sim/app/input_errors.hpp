#pragma once
// Which exceptions mean "the user's input is wrong" (exit code 2) rather than an internal failure.

#include <exception>
#include <stdexcept>

namespace lynxsim::app {

class InputError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// A broken invariant inside lynxsim (a model refusing what the checked scenario should never have
// given it): exit code 70 (EX_SOFTWARE) with "internal error" and what to report, never 2.
class InternalError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};
inline constexpr int kInternalErrorExit = 70;

bool is_input_error(const std::exception& error);
// The exit code of a command that ended with `error`: 70 for an InternalError or another broken
// invariant (std::logic_error other than std::invalid_argument), 2 for bad input,
// 1 for anything else (an I/O failure, say).
int exit_code_of(const std::exception& error);

}  // namespace lynxsim::app
