#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>

#include "report_test_files.hpp"
#include "sim/report/output_path.hpp"
#include "sim/report/results_target.hpp"

using namespace lynxsim::report;
namespace fs = std::filesystem;
using lynxsim::report::testing::fresh_dir;

namespace {

std::string refusal(const fs::path& path, bool file, bool force = false) {
  try {
    if (file) {
      check_output_file(path, "--out", force);
    } else {
      check_output_path(path, "--out");
    }
  } catch (const OutputRefused& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("an output path that cannot name what it should is refused with the option and the path") {
  const fs::path dir = fresh_dir("output_path");
  CHECK(refusal("", false) == "--out: an empty path names no file or folder");
  CHECK(refusal(dir / std::string(300, 'a'), false).find("a name of 300 bytes") != std::string::npos);
  std::ofstream(dir / "file") << "x";
  CHECK(refusal(dir / "file" / "run", false).find("is not a folder") != std::string::npos);
  CHECK(refusal(dir / "new" / "run", false).empty());
  CHECK(refusal(dir / "run", false).empty());
}

TEST_CASE("an existing output file is replaced only with --force, and never when it is not a regular file") {
  const fs::path dir = fresh_dir("output_file");
  std::ofstream(dir / "out.csv") << "x";
  CHECK(refusal(dir / "out.csv", true).find("exists; give --force") != std::string::npos);
  CHECK(refusal(dir / "out.csv", true, true).empty());
  CHECK(refusal(dir / "new.csv", true).empty());
  REQUIRE(::mkfifo((dir / "fifo").c_str(), 0600) == 0);
  CHECK(refusal(dir / "fifo", true, true).find("not a regular file") != std::string::npos);
  fs::create_symlink(dir / "out.csv", dir / "link.csv");
  CHECK(refusal(dir / "link.csv", true, true).find("not a regular file") != std::string::npos);
  CHECK(refusal(dir, true, true).find("not a regular file") != std::string::npos);
}
