// Bad input files read by the store and configuration layers exit 2 with a message naming the
// file (and the JSON path where the file is JSON).

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "sim/app/input_errors.hpp"
#include "sim/scenario/flow_list_file.hpp"
#include "sim/store/kv_file.hpp"

using namespace lynxsim;

namespace {

std::string scratch_file(const std::string& name, const std::string& content) {
  const std::filesystem::path dir = std::filesystem::path(LYNXSIM_BINARY_DIR) / "test_app_input_files";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / name).string();
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

// The exit code and message the command line gives for what `read` throws.
std::pair<int, std::string> outcome(const auto& read) {
  try {
    read();
  } catch (const std::exception& e) {
    return {app::exit_code_of(e), e.what()};
  }
  return {0, ""};
}

}  // namespace

TEST_CASE("a malformed or missing KV file exits 2 naming the file") {
  const std::string short_file = scratch_file("short.safetensors", "abc");
  const auto [code, message] = outcome([&] { (void)store::KvFile::open(short_file); });
  CHECK(code == 2);
  CHECK(message == "safetensors file " + short_file + ": shorter than the 8-byte header length");
  const std::string bad_header = scratch_file("header.safetensors", std::string("\x05\0\0\0\0\0\0\0{bad}", 13));
  const auto [code2, message2] = outcome([&] { (void)store::KvFile::open(bad_header); });
  CHECK(code2 == 2);
  CHECK(message2.starts_with("safetensors file " + bad_header + ": header is not valid JSON"));
  const auto [code3, message3] = outcome([] { (void)store::KvFile::open("/nonexistent/kv.safetensors"); });
  CHECK(code3 == 2);
  CHECK(message3 == "KV file /nonexistent/kv.safetensors: does not exist");
}

TEST_CASE("a bad flow list exits 2 naming the file and the JSON path") {
  const std::string file = scratch_file("flows.json", R"({"flows": [{"src": "a", "dst": "b", "size": "1MB", "weight": 0}]})");
  const auto [code, message] = outcome([&] { (void)scenario::load_flow_list(file); });
  CHECK(code == 2);
  CHECK(message == file + ": /flows/0/weight: expected a number in [1e-06, 1000000], got 0");
  const std::string csv = scratch_file("flows.csv", "src,dst,size,start\na,b,1MB\n");
  const auto [code2, message2] = outcome([&] { (void)scenario::load_flow_list(csv); });
  CHECK(code2 == 2);
  CHECK(message2 == csv + ":2: expected 4 cells, found 3");
}
