#include <doctest/doctest.h>

#include <csignal>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

#include "report_test_files.hpp"
#include "sample_results.hpp"
#include "sim/report/atomic_write.hpp"
#include "sim/report/results_folder.hpp"
#include "sim/report/results_target.hpp"

using namespace lynxsim;
using namespace lynxsim::report;
namespace fs = std::filesystem;
using testing::fresh_dir;
using testing::sample_outputs;
using testing::slurp;

namespace {

void put(const fs::path& file, const std::string& text) { std::ofstream(file) << text; }

pid_t dead_pid() {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ::waitpid(child, nullptr, 0);
  return child;
}

}  // namespace

TEST_CASE("a regular file, a foreign folder and a link are refused and left as they were") {
  const fs::path dir = fresh_dir("refuse");
  const auto results = testing::sample_results();
  put(dir / "notes.txt", "mine");
  fs::create_directories(dir / "documents");
  put(dir / "documents" / "thesis.tex", "chapter");
  fs::create_directory_symlink(dir / "documents", dir / "link");
  for (const char* name : {"notes.txt", "documents", "link"}) {
    CHECK_THROWS_AS(write_results_folder(dir / name, sample_outputs(results)), OutputRefused);
  }
  CHECK(slurp(dir / "notes.txt") == "mine");
  CHECK(slurp(dir / "documents" / "thesis.tex") == "chapter");
  CHECK(fs::is_symlink(dir / "link"));
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 3);
}

TEST_CASE("an empty folder is written into; force replaces a foreign folder") {
  const fs::path dir = fresh_dir("accept");
  const auto results = testing::sample_results();
  fs::create_directories(dir / "empty");
  write_results_folder(dir / "empty", sample_outputs(results));
  CHECK(holds_results_manifest(dir / "empty"));
  fs::create_directories(dir / "documents");
  put(dir / "documents" / "thesis.tex", "chapter");
  write_results_folder(dir / "documents", sample_outputs(results), true);
  CHECK(holds_results_manifest(dir / "documents"));
  CHECK_FALSE(fs::exists(dir / "documents" / "thesis.tex"));
}

TEST_CASE("the manifest lists every file of the folder") {
  const fs::path dir = fresh_dir("manifest");
  const auto results = testing::sample_results();
  write_results_folder(dir / "run", sample_outputs(results));
  const auto manifest = nlohmann::json::parse(slurp(dir / "run" / kResultsManifest));
  CHECK(manifest.at("tool") == "lynxsim");
  CHECK(manifest.at("files") ==
        nlohmann::json::array({"index.html", "requests.csv", "scenario.resolved.json", "summary.json"}));
}

TEST_CASE("stale staging of a dead process is removed only when it is lynxsim's") {
  const fs::path dir = fresh_dir("stale");
  const pid_t pid = dead_pid();
  const fs::path ours = dir / fmt::format("run.tmp-{}", pid);
  fs::create_directories(ours);
  put(ours / kResultsManifest, results_manifest({}));
  const fs::path empty = dir / fmt::format("run.old-{}", pid);
  fs::create_directories(empty);
  const fs::path lookalike = dir / fmt::format("run.tmp-{}", pid + 1000000);
  fs::create_directories(lookalike);
  put(lookalike / "data.txt", "user");
  const fs::path alive = dir / fmt::format("run.tmp-{}", ::getppid());
  fs::create_directories(alive);
  put(alive / kResultsManifest, results_manifest({}));
  remove_stale_staging(dir / "run");
  CHECK_FALSE(fs::exists(ours));
  CHECK_FALSE(fs::exists(empty));
  CHECK(fs::exists(lookalike / "data.txt"));
  CHECK(fs::exists(alive));
}

TEST_CASE("SIGTERM while a folder is staged removes the staging folder") {
  const fs::path dir = fresh_dir("signal");
  const pid_t child = ::fork();
  if (child == 0) {
    StagedFolder staged(dir / "run");
    staged.write("summary.json", "partial");
    ::raise(SIGTERM);
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGTERM);
  CHECK(fs::is_empty(dir));
}

TEST_CASE("a write error names the system's reason") {
  const fs::path dir = fresh_dir("errno");
  put(dir / "file", "x");
  try {
    StagedFolder staged(dir / "file" / "run");
    FAIL("expected ReportWriteError");
  } catch (const ReportWriteError& e) {
    CHECK(std::string(e.what()).find("Not a directory") != std::string::npos);
  }
}

TEST_CASE("a results folder of an older lynxsim is replaced, one with any other file is not") {
  const fs::path dir = fresh_dir("unmarked");
  const auto results = testing::sample_results();
  fs::create_directories(dir / "old");
  for (const char* name : {"summary.json", "requests.csv", "scenario.resolved.json"}) put(dir / "old" / name, "{}");
  write_results_folder(dir / "old", sample_outputs(results));
  CHECK(holds_results_manifest(dir / "old"));
  fs::create_directories(dir / "mixed");
  put(dir / "mixed" / "summary.json", "{}");
  put(dir / "mixed" / "notes.txt", "mine");
  CHECK_THROWS_AS(write_results_folder(dir / "mixed", sample_outputs(results)), OutputRefused);
  CHECK(slurp(dir / "mixed" / "notes.txt") == "mine");
}
