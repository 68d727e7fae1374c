#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>

#include "sim/scenario/input_file.hpp"

using namespace lynxsim;
using namespace lynxsim::scenario;
namespace fs = std::filesystem;

namespace {

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::path(LYNXSIM_BINARY_DIR) / "test_input_file";
  fs::create_directories(dir);
  fs::remove(dir / name);
  return dir / name;
}

std::string error_of(const fs::path& file, std::uint64_t max_bytes) {
  try {
    read_input_file(file, max_bytes);
  } catch (const InputFileError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a regular file within the limit is read whole") {
  const fs::path file = scratch("small.json");
  std::ofstream(file) << "{\"a\": 1}";
  CHECK(read_input_file(file, 64) == "{\"a\": 1}");
}

TEST_CASE("a file over the limit is refused with its size") {
  const fs::path file = scratch("large.json");
  std::ofstream(file) << std::string(100, 'x');
  CHECK(error_of(file, 99).find("100 bytes, more than the 99") != std::string::npos);
  CHECK(read_input_file(file, 100).size() == 100);
}

TEST_CASE("devices, FIFOs and directories are refused before they are read") {
  CHECK(error_of("/dev/zero", 1 << 20).find("a device") != std::string::npos);
  const fs::path fifo = scratch("pipe");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(error_of(fifo, 1 << 20).find("a FIFO") != std::string::npos);
  CHECK(error_of(fifo.parent_path(), 1 << 20).find("a directory") != std::string::npos);
}

TEST_CASE("a missing file names the system's reason") {
  CHECK(error_of(scratch("absent.json"), 64).find("No such file or directory") != std::string::npos);
}
