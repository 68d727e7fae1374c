#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>

#include "sim/io/input_file.hpp"

using namespace lynxsim::io;
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

TEST_CASE("an empty path is refused without touching the current folder") {
  CHECK(error_of("", 64) == "an empty path names no file");
}

TEST_CASE("reads at an offset stay inside the file, and a file that shrank is reported, not short-read") {
  const fs::path file = scratch("offsets.bin");
  std::ofstream(file) << "0123456789";
  const InputFile in(file, 64);
  CHECK(in.size() == 10);
  char bytes[4] = {};
  in.read_at(6, bytes, 4);
  CHECK(std::string(bytes, 4) == "6789");
  CHECK_THROWS_WITH_AS(in.read_at(8, bytes, 4), doctest::Contains("run past its end"), InputFileError);
  CHECK_THROWS_AS(in.read_at(~0ull, bytes, 1), InputFileError);
  fs::resize_file(file, 5);
  CHECK_THROWS_WITH_AS(in.read_at(4, bytes, 4), doctest::Contains("truncated while reading"), InputFileError);
}

TEST_CASE("a file that grows past its limit while it is read is cut off with an error") {
  const fs::path file = scratch("grows.txt");
  std::ofstream(file) << "abc";
  const InputFile in(file, 8);
  std::ofstream(file, std::ios::app) << "defghijkl";
  CHECK_THROWS_WITH_AS(in.read_all(), doctest::Contains("more than the 8 bytes"), InputFileError);
}
