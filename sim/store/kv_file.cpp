#include "sim/store/kv_file.hpp"

#include <filesystem>
#include <stdexcept>

#include "sim/store/npy_format.hpp"
#include "sim/store/safetensors_format.hpp"

namespace lynxsim::store {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw std::invalid_argument("KV file " + path + ": " + what);
}

std::map<std::string, TensorInfo> npy_directory(const std::string& path) {
  std::map<std::string, TensorInfo> out;
  for (const auto& entry : fs::directory_iterator(path)) {
    const std::string file = entry.path().filename().string();
    if (entry.path().extension() != ".npy") continue;
    const std::string stem = entry.path().stem().string();
    const std::size_t underscore = stem.find('_');
    if (underscore == std::string::npos) fail(path, "unexpected file " + file + " (expected k_{l}.npy, v_{l}.npy, q_{l}.npy)");
    const std::string name = stem.substr(0, underscore) + "." + stem.substr(underscore + 1);
    out[name] = read_npy_header(entry.path().string(), name);
  }
  return out;
}

std::string identity_of(const std::string& path) {
  std::uintmax_t size = 0;
  if (fs::is_directory(path)) {
    for (const auto& entry : fs::directory_iterator(path)) {
      if (entry.is_regular_file()) size += entry.file_size();
    }
  } else {
    size = fs::file_size(path);
  }
  const auto mtime = fs::last_write_time(path).time_since_epoch().count();
  return "kv_file{path=" + fs::absolute(path).lexically_normal().string() + ",size=" + std::to_string(size) +
         ",mtime=" + std::to_string(mtime) + "}";
}

}  // namespace

KvFile KvFile::open(const std::string& path) {
  if (!fs::exists(path)) fail(path, "does not exist");
  KvFile file;
  file.tensors_ = fs::is_directory(path) ? npy_directory(path) : read_safetensors_header(path).tensors;
  file.path_ = path;
  file.check_layout(path);
  file.identity_ = identity_of(path);
  return file;
}

std::shared_ptr<const KvFile> KvFile::open_shared(const std::string& path) {
  return std::make_shared<const KvFile>(open(path));
}

void KvFile::check_layout(const std::string& path) {
  while (tensors_.count("k." + std::to_string(num_layers_)) != 0) ++num_layers_;
  if (num_layers_ == 0) fail(path, "no tensor k.0");
  for (const auto& [name, info] : tensors_) {
    const std::size_t dot = name.find('.');
    const std::string kind = name.substr(0, dot);
    if (dot == std::string::npos || (kind != "k" && kind != "v" && kind != "q")) fail(path, "unexpected tensor " + name);
    const std::string index = name.substr(dot + 1);
    if (index.empty() || index.size() > 9 || index.find_first_not_of("0123456789") != std::string::npos ||
        std::stoi(index) >= num_layers_) {
      fail(path, "tensor " + name + " has a layer index outside 0.." + std::to_string(num_layers_ - 1));
    }
    if (info.shape.size() != 3) fail(path, "tensor " + name + " must have 3 dimensions");
  }
  const TensorInfo& k0 = tensor("k", 0);
  num_kv_heads_ = static_cast<int>(k0.shape[0]);
  tokens_ = static_cast<int>(k0.shape[1]);
  head_dim_ = static_cast<int>(k0.shape[2]);
  const bool queries = tensors_.count("q.0") != 0;
  for (int l = 0; l < num_layers_; ++l) {
    if (tensor("k", l).shape != k0.shape || tensor("v", l).shape != k0.shape) fail(path, "k/v shapes differ at layer " + std::to_string(l));
    if (queries != (tensors_.count("q." + std::to_string(l)) != 0)) fail(path, "q must be present for every layer or none");
    if (queries && (tensor("q", l).shape[2] != head_dim_ || tensor("q", l).shape != tensor("q", 0).shape)) {
      fail(path, "q shape mismatch at layer " + std::to_string(l));
    }
  }
  if (queries) {
    num_query_heads_ = static_cast<int>(tensor("q", 0).shape[0]);
    num_queries_ = static_cast<int>(tensor("q", 0).shape[1]);
    if (num_queries_ > tokens_) fail(path, "more queries than tokens");
  }
}

const TensorInfo& KvFile::tensor(const std::string& kind, int layer) const {
  const auto it = tensors_.find(kind + "." + std::to_string(layer));
  if (it == tensors_.end()) fail(path_, "missing tensor " + kind + "." + std::to_string(layer));
  return it->second;
}

std::vector<float> KvFile::keys(int layer, int kv_head, int tokens) const {
  if (kv_head < 0 || kv_head >= num_kv_heads_ || tokens < 0 || tokens > tokens_) throw std::invalid_argument("KV file: bad head or token count");
  const std::int64_t rows = static_cast<std::int64_t>(tokens_) * head_dim_;
  return read_tensor_slice(tensor("k", layer), kv_head * rows, static_cast<std::int64_t>(tokens) * head_dim_);
}

std::vector<float> KvFile::values(int layer, int kv_head, int tokens) const {
  if (kv_head < 0 || kv_head >= num_kv_heads_ || tokens < 0 || tokens > tokens_) throw std::invalid_argument("KV file: bad head or token count");
  const std::int64_t rows = static_cast<std::int64_t>(tokens_) * head_dim_;
  return read_tensor_slice(tensor("v", layer), kv_head * rows, static_cast<std::int64_t>(tokens) * head_dim_);
}

std::vector<float> KvFile::queries(int layer, int head) const {
  if (head < 0 || head >= num_query_heads_) throw std::invalid_argument("KV file: bad query head");
  const std::int64_t count = static_cast<std::int64_t>(num_queries_) * head_dim_;
  return read_tensor_slice(tensor("q", layer), head * count, count);
}

}  // namespace lynxsim::store
