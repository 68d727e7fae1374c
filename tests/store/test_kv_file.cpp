#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <vector>

#include "../accuracy/accuracy_test_util.hpp"
#include "sim/accuracy/accuracy_run.hpp"
#include "sim/io/input_file.hpp"
#include "sim/store/accuracy_cache.hpp"
#include "sim/store/kv_file.hpp"
#include "sim/store/npy_format.hpp"
#include "sim/store/safetensors_format.hpp"
#include "sim/accuracy/kv/synthetic_kv.hpp"
#include "sim/quant/half_precision.hpp"

using namespace lynxsim::accuracy;
using namespace lynxsim::store;

namespace {

constexpr int kLayers = 2;
constexpr int kKvHeads = 2;
constexpr int kHeads = 4;
constexpr int kTokens = 256;
constexpr int kDim = 64;

KvGeometry file_geometry() { return KvGeometry{"tiny", kLayers, kKvHeads, kHeads, kDim, 10000.0}; }

std::vector<float> ramp(std::size_t n, float scale) {
  std::vector<float> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = scale * static_cast<float>(static_cast<int>(i % 97) - 48) / 7.0F;
  return out;
}

std::vector<TensorData> kv_tensors(TensorDtype dtype, bool queries) {
  std::vector<TensorData> out;
  const auto kv = static_cast<std::size_t>(kKvHeads) * kTokens * kDim;
  for (int l = 0; l < kLayers; ++l) {
    out.push_back({"k." + std::to_string(l), dtype, {kKvHeads, kTokens, kDim}, ramp(kv, 1.0F + l)});
    out.push_back({"v." + std::to_string(l), dtype, {kKvHeads, kTokens, kDim}, ramp(kv, 0.5F)});
    if (queries) out.push_back({"q." + std::to_string(l), dtype, {kHeads, 8, kDim}, ramp(static_cast<std::size_t>(kHeads) * 8 * kDim, 0.1F)});
  }
  return out;
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace

TEST_CASE("safetensors KV files round-trip in F32, F16 and BF16") {
  const std::string dir = testing::scratch_dir("safetensors");
  for (const auto dtype : {TensorDtype::f32, TensorDtype::f16, TensorDtype::bf16}) {
    const std::string path = dir + "/kv_" + to_string(dtype) + ".safetensors";
    write_safetensors(path, kv_tensors(dtype, true), {{"model", "tiny"}});
    const KvFile file = KvFile::open(path);
    CHECK(file.num_layers() == kLayers);
    CHECK(file.num_kv_heads() == kKvHeads);
    CHECK(file.tokens() == kTokens);
    CHECK(file.head_dim() == kDim);
    CHECK(file.num_queries() == 8);
    const auto k = file.keys(1, 1, 10);
    const auto expected = ramp(static_cast<std::size_t>(kKvHeads) * kTokens * kDim, 2.0F);
    for (std::size_t i = 0; i < k.size(); ++i) {
      const float x = expected[static_cast<std::size_t>(kTokens) * kDim + i];
      const float want = dtype == TensorDtype::f32 ? x : dtype == TensorDtype::f16 ? lynxsim::quant::round_to_fp16(x) : lynxsim::quant::round_to_bf16(x);
      CHECK(k[i] == want);
    }
  }
}

TEST_CASE("a directory of .npy files reads like the safetensors file") {
  const std::string dir = testing::scratch_dir("npy");
  for (const auto& t : kv_tensors(TensorDtype::bf16, false)) {
    const std::string name = t.name.substr(0, 1) + "_" + t.name.substr(2) + ".npy";
    write_npy(dir + "/" + name, t);
  }
  const KvFile file = KvFile::open(dir);
  CHECK(file.num_layers() == kLayers);
  CHECK_FALSE(file.has_queries());
  const auto v = file.values(0, 0, kTokens);
  CHECK(v.size() == static_cast<std::size_t>(kTokens) * kDim);
  CHECK(v[5] == lynxsim::quant::round_to_bf16(ramp(10, 0.5F)[5]));
}

TEST_CASE("malformed KV files are rejected with a clear error") {
  const std::string dir = testing::scratch_dir("malformed");
  write_bytes(dir + "/short.safetensors", std::string("\x10\x00", 2));
  CHECK_THROWS_AS(KvFile::open(dir + "/short.safetensors"), std::invalid_argument);
  write_bytes(dir + "/huge.safetensors", std::string("\xff\x00\x00\x00\x00\x00\x00\x00{}", 10));
  CHECK_THROWS_WITH_AS(KvFile::open(dir + "/huge.safetensors"), doctest::Contains("header length"), std::invalid_argument);
  const std::string bad_dtype = R"({"k.0":{"dtype":"I8","shape":[1,1,2],"data_offsets":[0,2]}})";
  write_bytes(dir + "/dtype.safetensors", std::string(1, static_cast<char>(bad_dtype.size())) + std::string(7, '\0') + bad_dtype + "ab");
  CHECK_THROWS_WITH_AS(KvFile::open(dir + "/dtype.safetensors"), doctest::Contains("unsupported dtype"), std::invalid_argument);
  const std::string bad_size = R"({"k.0":{"dtype":"F32","shape":[1,1,2],"data_offsets":[0,4]}})";
  write_bytes(dir + "/size.safetensors", std::string(1, static_cast<char>(bad_size.size())) + std::string(7, '\0') + bad_size + "abcd");
  CHECK_THROWS_WITH_AS(KvFile::open(dir + "/size.safetensors"), doctest::Contains("do not match"), std::invalid_argument);
  auto tensors = kv_tensors(TensorDtype::f32, false);
  tensors.pop_back();
  write_safetensors(dir + "/missing_v.safetensors", tensors);
  CHECK_THROWS_AS(KvFile::open(dir + "/missing_v.safetensors"), std::invalid_argument);
  write_bytes(dir + "/bad.npy", "not numpy");
  CHECK_THROWS_AS(read_npy_header(dir + "/bad.npy", "k.0"), std::invalid_argument);
}

TEST_CASE("measurements run on a captured file and reject a mismatched geometry") {
  const std::string dir = testing::scratch_dir("measure_file");
  const KvGeometry g = file_geometry();
  std::vector<TensorData> tensors;
  for (int l = 0; l < kLayers; ++l) {
    std::vector<float> k;
    std::vector<float> v;
    for (int h = 0; h < kKvHeads; ++h) {
      const auto block = generate_synthetic_head(g, default_kv_profile(), l, h, kTokens, {kTokens - 1}, 1);
      k.insert(k.end(), block.keys.begin(), block.keys.end());
      v.insert(v.end(), block.values.begin(), block.values.end());
    }
    tensors.push_back({"k." + std::to_string(l), TensorDtype::bf16, {kKvHeads, kTokens, kDim}, k});
    tensors.push_back({"v." + std::to_string(l), TensorDtype::bf16, {kKvHeads, kTokens, kDim}, v});
  }
  const std::string path = dir + "/kv.safetensors";
  write_safetensors(path, tensors);
  AccuracyRequest r;
  r.geometry = g;
  r.context = kTokens;
  r.kv_file = KvFile::open_shared(path);
  r.sampling.needle_min_context = 64;
  r.methods = {method_from_name("bf16"), method_from_name("int8"), method_from_name("int4")};
  const AccuracyResult result = measure_accuracy(r);
  CHECK(result.source == "file:" + path);
  CHECK(result.row("bf16").key_snr_db == doctest::Approx(200.0));
  CHECK(result.row("int8").key_snr_db > result.row("int4").key_snr_db + 15.0);
  CHECK(accuracy_cache_key(r).find("size=") != std::string::npos);
  r.geometry.num_kv_heads = 4;
  r.geometry.num_heads = 8;
  CHECK_THROWS_WITH_AS(measure_accuracy(r), doctest::Contains("KV heads"), std::invalid_argument);
}

TEST_CASE("KV files are opened through the checked opener: no FIFO, device or oversized header") {
  const std::string dir = testing::scratch_dir("kv_checked");
  std::filesystem::remove(dir + "/fifo.safetensors");
  REQUIRE(::mkfifo((dir + "/fifo.safetensors").c_str(), 0600) == 0);
  CHECK_THROWS_WITH_AS(KvFile::open(dir + "/fifo.safetensors"), doctest::Contains("a FIFO"), lynxsim::io::InputFileError);
  std::filesystem::remove(dir + "/zero.safetensors");
  std::filesystem::create_symlink("/dev/zero", dir + "/zero.safetensors");
  CHECK_THROWS_WITH_AS(KvFile::open(dir + "/zero.safetensors"), doctest::Contains("a device"), lynxsim::io::InputFileError);
  {
    std::ofstream big(dir + "/big.safetensors", std::ios::binary | std::ios::trunc);
    big.write("\x00\xe2\xf5\x05\x00\x00\x00\x00", 8);  // 100,000,000 + 256 header bytes claimed
    big.seekp(200'000'000);
    big.put('\0');
  }
  CHECK_THROWS_WITH_AS(KvFile::open(dir + "/big.safetensors"), doctest::Contains("more than the 100000000"),
                       std::invalid_argument);
  write_bytes(dir + "/npy_header.npy", std::string("\x93NUMPY\x02\x00\x00\x00\x10\x00", 12) + std::string(64, ' '));
  CHECK_THROWS_WITH_AS(read_npy_header(dir + "/npy_header.npy", "k.0"), doctest::Contains(".npy header may have"),
                       std::invalid_argument);
  const std::string npy_dims = "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999, 2), }";
  write_bytes(dir + "/dims.npy", std::string("\x93NUMPY\x01\x00", 8) + std::string(1, static_cast<char>(npy_dims.size())) +
                                     std::string(1, '\0') + npy_dims);
  CHECK_THROWS_WITH_AS(read_npy_header(dir + "/dims.npy", "k.0"), doctest::Contains("out of range"), std::invalid_argument);
}

TEST_CASE("a slice beyond the end of a tensor file that shrank is an error naming the file") {
  const std::string dir = testing::scratch_dir("kv_shrunk");
  write_safetensors(dir + "/kv.safetensors", kv_tensors(TensorDtype::f32, false));
  const KvFile file = KvFile::open(dir + "/kv.safetensors");
  std::filesystem::resize_file(dir + "/kv.safetensors", 64);
  CHECK_THROWS_WITH_AS(file.keys(0, 0, file.tokens()), doctest::Contains("kv.safetensors"), lynxsim::io::InputFileError);
}
