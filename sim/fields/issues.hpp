#pragma once
// The one error type of reading an input file (a scenario, a card, a KV profile, a calibration
// file): every problem found in the file, each with the JSON pointer of the offending value ("/network/bandwidth") and what was expected there.
//
// Loading never stops at the first problem: the parser records an issue and continues with a
// neutral value, so one run of the loader reports everything wrong with a file. what() is one line
// per issue, "<file>: <json path>: <message>". The application exits with code 2 on this error.

#include <stdexcept>
#include <string>
#include <vector>

namespace lynxsim::fields {

struct Issue {
  std::string json_path;
  std::string message;
};

class InputError : public std::runtime_error {
public:
  InputError(std::string file, std::vector<Issue> issues);

  const std::string& file() const { return file_; }
  const std::vector<Issue>& issues() const { return issues_; }

private:
  std::string file_;
  std::vector<Issue> issues_;
};

// Collects issues while a file is read.
class IssueList {
public:
  void add(std::string json_path, std::string message);
  void append(const IssueList& other);
  bool empty() const { return issues_.empty(); }
  std::size_t size() const { return issues_.size(); }
  const std::vector<Issue>& items() const { return issues_; }
  // Throws InputError(file, issues) when any issue was recorded.
  void throw_if_any(const std::string& file) const;

private:
  std::vector<Issue> issues_;
};

}  // namespace lynxsim::fields
