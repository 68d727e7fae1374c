#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "report_test_files.hpp"
#include "sample_results.hpp"
#include "sim/report/atomic_write.hpp"
#include "sim/report/results_folder.hpp"

using namespace lynxsim;
using namespace lynxsim::report;
namespace fs = std::filesystem;
using testing::fresh_dir;
using testing::sample_outputs;
using testing::slurp;

namespace {

std::vector<std::string> entries(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

TEST_CASE("write_file_atomic replaces a file and leaves no temporary behind") {
  const fs::path dir = fresh_dir("atomic_file");
  write_file_atomic(dir / "a.txt", "first");
  write_file_atomic(dir / "a.txt", "second");
  CHECK(slurp(dir / "a.txt") == "second");
  CHECK(entries(dir) == std::vector<std::string>{"a.txt"});
}

TEST_CASE("a results folder holds the resolved scenario, summary and requests") {
  const fs::path dir = fresh_dir("folder_complete");
  const auto results = testing::sample_results();
  write_results_folder(dir / "run", sample_outputs(results));
  CHECK(entries(dir) == std::vector<std::string>{"run"});
  CHECK(entries(dir / "run") == std::vector<std::string>{"index.html", "lynxsim-results.json", "requests.csv",
                                                        "scenario.resolved.json", "summary.json"});
  const auto summary = nlohmann::json::parse(slurp(dir / "run" / "summary.json"));
  CHECK(summary.at("scenario") == "demo");
}

TEST_CASE("writing a results folder twice gives the same bytes and replaces the old folder") {
  const fs::path dir = fresh_dir("folder_replace");
  const auto results = testing::sample_results();
  write_results_folder(dir / "run", sample_outputs(results));
  const std::string first = slurp(dir / "run" / "summary.json");
  write_file_atomic(dir / "run" / "stale.txt", "old");
  TraceWriter trace;
  trace.complete_event("prefill", "prefill", 1, 0, Time::zero(), Time::from_ms(1.0));
  auto outputs = sample_outputs(results);
  outputs.trace = &trace;
  write_results_folder(dir / "run", outputs);
  CHECK(slurp(dir / "run" / "summary.json") == first);
  CHECK(entries(dir / "run") ==
        std::vector<std::string>{"index.html", "lynxsim-results.json", "requests.csv",
                                 "scenario.resolved.json", "summary.json", "trace.json"});
  CHECK(entries(dir) == std::vector<std::string>{"run"});
}

TEST_CASE("a failed folder write leaves no partial folder and keeps the old one") {
  const fs::path dir = fresh_dir("folder_fail");
  write_file_atomic(dir / "not_a_dir", "x");
  const auto results = testing::sample_results();
  CHECK_THROWS_AS(write_results_folder(dir / "not_a_dir" / "run", sample_outputs(results)),
                  ReportWriteError);
  CHECK(entries(dir) == std::vector<std::string>{"not_a_dir"});

  write_results_folder(dir / "run", sample_outputs(results));
  {
    StagedFolder staged(dir / "run");
    staged.write("summary.json", "partial");
    CHECK_THROWS_AS(staged.write("missing/sub.json", "x"), ReportWriteError);
  }
  CHECK(entries(dir) == std::vector<std::string>{"not_a_dir", "run"});
  CHECK(slurp(dir / "run" / "summary.json").find("\"demo\"") != std::string::npos);
}
