#pragma once
// Strict reading of a JSON object tree: every field read is required and typed, unknown keys are
// errors, and every error is recorded with its JSON path (e.g. "/keys/ar_rho: expected [lo, hi]")
// so that one exception can report all the problems of a document at once.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lynxsim::store {

class JsonChecker {
public:
  explicit JsonChecker(std::string document_name) : document_name_(std::move(document_name)) {}

  // The object at `path` with exactly the keys `allowed` (missing keys are reported when read).
  const nlohmann::json* object(const nlohmann::json& parent, const std::string& key, const std::string& path);
  void expect_keys(const nlohmann::json& object, const std::string& path, const std::vector<std::string>& allowed);

  double number(const nlohmann::json& object, const std::string& key, const std::string& path, double lo, double hi);
  int integer(const nlohmann::json& object, const std::string& key, const std::string& path, int lo, int hi);
  std::string text(const nlohmann::json& object, const std::string& key, const std::string& path);
  // A two-element array [lo, hi] with min <= lo <= hi <= max.
  std::vector<double> pair(const nlohmann::json& object, const std::string& key, const std::string& path, double min,
                           double max);

  void error(const std::string& path, const std::string& message);
  void throw_if_errors() const;  // std::invalid_argument listing every error

private:
  const nlohmann::json* field(const nlohmann::json& object, const std::string& key, const std::string& path);

  std::string document_name_;
  std::vector<std::string> errors_;
};

}  // namespace lynxsim::store
