#include "sim/fields/issues.hpp"

#include <fmt/format.h>

namespace lynxsim::fields {
namespace {

std::string describe(const std::string& file, const std::vector<Issue>& issues) {
  std::string text;
  for (const auto& issue : issues) {
    if (!text.empty()) text += "\n";
    text += fmt::format("{}: {}: {}", file, issue.json_path.empty() ? "/" : issue.json_path,
                        issue.message);
  }
  return text;
}

}  // namespace

InputError::InputError(std::string file, std::vector<Issue> issues)
    : std::runtime_error(describe(file, issues)), file_(std::move(file)), issues_(std::move(issues)) {}

void IssueList::add(std::string json_path, std::string message) {
  issues_.push_back({std::move(json_path), std::move(message)});
}

void IssueList::append(const IssueList& other) {
  issues_.insert(issues_.end(), other.issues_.begin(), other.issues_.end());
}

void IssueList::throw_if_any(const std::string& file) const {
  if (!issues_.empty()) throw InputError(file, issues_);
}

}  // namespace lynxsim::fields
