#include "sim/app/input_errors.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <new>
#include <vector>

#include "sim/core/printable.hpp"
#include "sim/core/unit_parse.hpp"
#include "sim/io/input_file.hpp"
#include "sim/llm/gguf_value.hpp"
#include "sim/report/atomic_write.hpp"
#include "sim/report/results_target.hpp"
#include "sim/scenario/scenario_error.hpp"

namespace lynxsim::app {
namespace {

thread_local std::vector<std::string> allocation_scopes;
// The innermost scope an exception left (scopes end while the stack unwinds, before cli.cpp's
// handler reads them); cleared by the next scope that starts.
thread_local std::string unwound_scope;

bool is_unwritable_path(const std::exception& error) {
  const auto* write = dynamic_cast<const report::ReportWriteError*>(&error);
  return write != nullptr && write->caused_by_path();
}

}  // namespace

AllocationScope::AllocationScope(std::string what) : exceptions_(std::uncaught_exceptions()) {
  unwound_scope.clear();
  allocation_scopes.push_back(std::move(what));
}

AllocationScope::~AllocationScope() {
  if (std::uncaught_exceptions() > exceptions_ && unwound_scope.empty()) unwound_scope = allocation_scopes.back();
  allocation_scopes.pop_back();
}

bool is_allocation_failure(const std::exception& error) {
  return dynamic_cast<const std::bad_alloc*>(&error) != nullptr ||
         dynamic_cast<const std::length_error*>(&error) != nullptr;
}

std::string allocation_failure_message() {
  std::string what = allocation_scopes.empty() ? "running this command" : allocation_scopes.back();
  if (!unwound_scope.empty()) what = unwound_scope;
  return fmt::format("out of memory while {}: the input asks for more memory than this machine "
                     "has (make it smaller: fewer requests, methods or tokens, a smaller file)",
                     what);
}

bool is_input_error(const std::exception& error) {
  return dynamic_cast<const InputError*>(&error) != nullptr ||
         dynamic_cast<const scenario::ScenarioError*>(&error) != nullptr ||
         dynamic_cast<const UnitError*>(&error) != nullptr ||
         dynamic_cast<const report::OutputRefused*>(&error) != nullptr ||
         dynamic_cast<const io::InputFileError*>(&error) != nullptr ||
         dynamic_cast<const llm::GgufError*>(&error) != nullptr ||
         dynamic_cast<const std::invalid_argument*>(&error) != nullptr ||
         dynamic_cast<const std::filesystem::filesystem_error*>(&error) != nullptr ||
         is_unwritable_path(error) || is_allocation_failure(error);
}

int exit_code_of(const std::exception& error) {
  if (dynamic_cast<const InternalError*>(&error) != nullptr) return kInternalErrorExit;
  const bool broken_invariant = dynamic_cast<const std::logic_error*>(&error) != nullptr &&
                                dynamic_cast<const std::invalid_argument*>(&error) == nullptr &&
                                !is_allocation_failure(error);
  if (broken_invariant) return kInternalErrorExit;
  return is_input_error(error) ? 2 : 1;
}

std::string error_message(const std::exception& error) {
  if (is_allocation_failure(error)) return allocation_failure_message();
  const std::string text = terminal_text(error.what(), true);
  return exit_code_of(error) == kInternalErrorExit ? "internal error: " + text : text;
}

}  // namespace lynxsim::app
