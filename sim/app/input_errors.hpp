#pragma once
// Which exceptions mean "the user's input is wrong" (exit code 2) rather than an internal failure.

#include <exception>
#include <stdexcept>
#include <string>

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

// What a command is building while it lives (the innermost scope of this thread counts), named
// when memory runs out: "loading scenario x.json", "simulating method int8 (10000000 requests)".
class AllocationScope {
public:
  explicit AllocationScope(std::string what);
  ~AllocationScope();
  AllocationScope(const AllocationScope&) = delete;
  AllocationScope& operator=(const AllocationScope&) = delete;

private:
  int exceptions_;  // std::uncaught_exceptions() when it began
};

// An allocation failure (std::bad_alloc, std::length_error): the input asked for more memory than
// this machine has, so it is bad input (exit 2) and its message says what was too big.
bool is_allocation_failure(const std::exception& error);
std::string allocation_failure_message();

// Bad input: the scenario and CLI errors, an unreadable or malformed input file (sim/io, GGUF,
// std::invalid_argument of the readers), an output path that cannot be written as named, an
// allocation failure.
bool is_input_error(const std::exception& error);
// The exit code of a command that ended with `error`: 70 for an InternalError or another broken
// invariant (std::logic_error other than std::invalid_argument and std::length_error), 2 for bad
// input, 1 for anything else (an I/O failure such as a full disk, say).
int exit_code_of(const std::exception& error);
// The message cli.cpp prints for `error` (after "lynxsim: "), control characters escaped.
std::string error_message(const std::exception& error);

}  // namespace lynxsim::app
