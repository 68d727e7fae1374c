#pragma once
// The journal of a search: `journal.jsonl` in its results folder, so that a search stopped by
// Ctrl-C (or killed) resumes where it stopped.
//
// The first line is the header: the search file's document and the base scenario's resolved form.
// Each later line is one finished configuration, {"key": SearchConfig::key(), "outcome": {...}},
// appended and flushed as it finishes. On opening, a journal whose header equals the new one is
// read back and its configurations are not evaluated again; a line cut short by a kill is ignored;
// a journal of another search (a different header) is started afresh. Appends from several
// threads are serialized.

#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/app/search_point.hpp"

namespace lynxsim::app {

class SearchJournal {
public:
  SearchJournal(std::filesystem::path file, const nlohmann::json& header);

  std::optional<SearchOutcome> find(const std::string& key) const;
  std::size_t resumed() const { return done_.size(); }
  void append(const std::string& key, const SearchOutcome& outcome);

private:
  std::filesystem::path file_;
  std::map<std::string, SearchOutcome> done_;
  std::mutex lock_;
};

nlohmann::json outcome_json(const SearchOutcome& outcome);
SearchOutcome outcome_from_json(const nlohmann::json& j);

}  // namespace lynxsim::app
