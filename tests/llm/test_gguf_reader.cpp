#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>

#include "sim/llm/dequantize.hpp"
#include "sim/llm/gguf_file.hpp"
#include "sim/llm/gguf_writer.hpp"
#include "tiny_gguf.hpp"

using namespace lynxsim::llm;

namespace {

std::vector<std::uint8_t> q8_block(float scale, int first) {
  std::vector<std::uint8_t> block(34);
  const std::uint16_t d = float_to_f16(scale);
  block[0] = static_cast<std::uint8_t>(d & 0xFF);
  block[1] = static_cast<std::uint8_t>(d >> 8);
  for (int j = 0; j < 32; ++j) {
    block[static_cast<std::size_t>(2 + j)] =
        static_cast<std::uint8_t>(static_cast<std::int8_t>(first + j));
  }
  return block;
}

std::vector<std::uint8_t> sample_file() {
  GgufWriter w;
  w.add_string("general.architecture", "llama");
  w.add_u32("test.count", 7);
  w.add_i32("test.negative", -3);
  w.add_f32("test.ratio", 0.25f);
  w.add_bool("test.flag", true);
  w.add_string_array("test.words", {"a", "bc", ""});
  w.add_i32_array("test.numbers", {1, -2, 3});
  const std::vector<float> matrix{1, 2, 3, 4, 5, 6, 7, 8};
  w.add_f32_tensor("matrix", {4, 2}, matrix);
  w.add_tensor("codes", {32}, GgmlType::Q8_0, q8_block(0.5f, -16));
  return w.bytes();
}

// Byte offset of the u32 field that follows the first occurrence of `name` (a length-prefixed
// string) in the file.
std::size_t after_string(const std::vector<std::uint8_t>& bytes, const std::string& name) {
  for (std::size_t p = 8; p + name.size() <= bytes.size(); ++p) {
    if (std::memcmp(bytes.data() + p, name.data(), name.size()) == 0) {
      return p + name.size();
    }
  }
  FAIL("string not found: " << name);
  return 0;
}

void put_u32(std::vector<std::uint8_t>& bytes, std::size_t at, std::uint32_t v) {
  for (int k = 0; k < 4; ++k) {
    bytes[at + static_cast<std::size_t>(k)] = static_cast<std::uint8_t>(v >> (8 * k));
  }
}

}  // namespace

TEST_CASE("a generated GGUF file reads back with its metadata and tensors") {
  const GgufFile f = GgufFile::parse(sample_file());
  CHECK(f.version() == 3);
  CHECK(f.keys().size() == 7);
  CHECK(f.value("general.architecture").as_string() == "llama");
  CHECK(f.value("test.count").as_int() == 7);
  CHECK(f.value("test.negative").as_int() == -3);
  CHECK(f.value("test.ratio").as_float() == 0.25);
  CHECK(f.value("test.flag").as_bool());
  CHECK(f.value("test.words").as_string_array() == std::vector<std::string>{"a", "bc", ""});
  CHECK(f.value("test.numbers").as_int_array() == std::vector<std::int64_t>{1, -2, 3});
  CHECK_THROWS_AS(f.value("test.count").as_string(), GgufError);
  CHECK_THROWS_AS(f.value("missing.key"), GgufError);
  REQUIRE(f.tensors().size() == 2);
  CHECK(f.tensor("matrix").dims == std::vector<std::uint64_t>{4, 2});
  CHECK(f.dequantize_tensor("matrix") == std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8});
  const std::vector<float> codes = f.dequantize_tensor("codes");
  CHECK(codes.front() == -8.0f);
  CHECK(codes.back() == 7.5f);
  CHECK(f.data_offset() % 32 == 0);
  CHECK(f.tensor("codes").offset % 32 == 0);
  CHECK_THROWS_AS(f.tensor("absent"), GgufError);
}

TEST_CASE("a GGUF file written to disk reads back from the path") {
  const auto dir = std::filesystem::path(LYNXSIM_BINARY_DIR) / "test_llm_gguf";
  std::filesystem::create_directories(dir);
  GgufWriter w;
  w.add_u32("k", 1);
  w.write(dir / "small.gguf");
  CHECK(GgufFile::read(dir / "small.gguf").value("k").as_int() == 1);
  CHECK_THROWS_AS(GgufFile::read(dir / "does-not-exist.gguf"), GgufError);
}

TEST_CASE("every truncation of a GGUF file is rejected with a GGUF error") {
  const std::vector<std::uint8_t> full = sample_file();
  for (std::size_t length = 0; length < full.size(); ++length) {
    std::vector<std::uint8_t> cut(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(length));
    CHECK_THROWS_AS(GgufFile::parse(std::move(cut)), GgufError);
  }
}

TEST_CASE("a wrong magic, version, value type or tensor type is rejected") {
  std::vector<std::uint8_t> bytes = sample_file();
  SUBCASE("magic") {
    bytes[0] = 'X';
    CHECK_THROWS_WITH_AS(GgufFile::parse(bytes), doctest::Contains("wrong magic"), GgufError);
  }
  SUBCASE("version") {
    put_u32(bytes, 4, 1);
    CHECK_THROWS_WITH_AS(GgufFile::parse(bytes), doctest::Contains("version"), GgufError);
  }
  SUBCASE("metadata value type") {
    put_u32(bytes, after_string(bytes, "test.count"), 99);
    CHECK_THROWS_WITH_AS(GgufFile::parse(bytes), doctest::Contains("value type 99"), GgufError);
  }
  SUBCASE("tensor type") {
    const std::size_t dims_at = after_string(bytes, "codes");
    put_u32(bytes, dims_at + 4 + 8, 13);
    CHECK_THROWS_WITH_AS(GgufFile::parse(bytes), doctest::Contains("unsupported type 13"),
                         GgufError);
  }
  SUBCASE("bool value") {
    bytes[after_string(bytes, "test.flag") + 4] = 2;
    CHECK_THROWS_AS(GgufFile::parse(bytes), GgufError);
  }
}

TEST_CASE("misplaced tensor data and duplicate names are rejected") {
  std::vector<std::uint8_t> bytes = sample_file();
  const std::size_t offset_at = after_string(bytes, "codes") + 4 + 8 + 4;
  SUBCASE("misaligned") {
    put_u32(bytes, offset_at, 33);
    CHECK_THROWS_WITH_AS(GgufFile::parse(bytes), doctest::Contains("aligned"), GgufError);
  }
  SUBCASE("overlapping") {
    put_u32(bytes, offset_at, 0);
    CHECK_THROWS_WITH_AS(GgufFile::parse(bytes), doctest::Contains("overlap"), GgufError);
  }
  SUBCASE("past the end") {
    put_u32(bytes, offset_at, 4096);
    CHECK_THROWS_WITH_AS(GgufFile::parse(bytes), doctest::Contains("past the end"), GgufError);
  }
  SUBCASE("duplicate key") {
    GgufWriter w;
    w.add_u32("same", 1);
    w.add_u32("same", 2);
    CHECK_THROWS_WITH_AS(GgufFile::parse(w.bytes()), doctest::Contains("duplicate"), GgufError);
  }
}

TEST_CASE("randomly corrupted GGUF files either parse or fail with a GGUF error") {
  const std::vector<std::uint8_t> full = sample_file();
  std::uint64_t state = 12345;
  int rejected = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::vector<std::uint8_t> bytes = full;
    const int flips = 1 + static_cast<int>(test::splitmix(state) % 4);
    for (int k = 0; k < flips; ++k) {
      bytes[test::splitmix(state) % bytes.size()] =
          static_cast<std::uint8_t>(test::splitmix(state));
    }
    try {
      const GgufFile f = GgufFile::parse(std::move(bytes));
      for (const GgufTensorInfo& t : f.tensors()) {
        CHECK(f.dequantize_tensor(t.name).size() == t.element_count);
      }
    } catch (const GgufError&) {
      ++rejected;
    }
  }
  CHECK(rejected > 300);
}
