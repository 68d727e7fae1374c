#pragma once
// The one way lynxsim opens a file it reads (scenarios, cards, topologies, traces, length files,
// KV tensor files, GGUF models, texts, cache entries), with the checks a tool that reads
// user-named paths needs:
// - the path must name a regular file: a FIFO, a device such as /dev/zero, a socket or a directory
//   is refused. The path is checked with stat() before it is opened, opened with O_NONBLOCK (so
//   opening a FIFO that appeared since never blocks) and checked again with fstat() on the open
//   descriptor, so reading never blocks or runs forever;
// - its size must not exceed the limit of its kind (below), checked before anything is read or
//   allocated, and again while reading, so a file that grows is cut off too;
// - a read at an offset (headers, tensor slices) must lie inside the file: a truncated file is an
//   error that names it, never a short read.
// Failures throw InputFileError whose message names the file and the reason (the system's errno
// text where there is one).

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace lynxsim::io {

class InputFileError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// Limits of the files lynxsim reads (documented in docs/scenario.md, "Limits").
// Scenarios, cards, topologies, profiles, calibration CSVs, flow lists, KV profiles.
inline constexpr std::uint64_t kMaxConfigFileBytes = 64ull << 20;
// Request traces, bandwidth traces and length files.
inline constexpr std::uint64_t kMaxTraceFileBytes = 2ull << 30;
// Texts that real models read (data/texts/, --text).
inline constexpr std::uint64_t kMaxTextFileBytes = 64ull << 20;
// One entry of a measurement cache (sim/store/cache_file.hpp); the largest written is under 1 MB.
inline constexpr std::uint64_t kMaxCacheEntryBytes = 64ull << 20;
// A GGUF model is read whole into memory: the real models lynxsim runs on the CPU (SmolLM2-135M,
// Gemma 3 270M) are 100-300 MB.
inline constexpr std::uint64_t kMaxModelFileBytes = 16ull << 30;
// A KV tensor file is read by header and slice only, never whole.
inline constexpr std::uint64_t kMaxKvFileBytes = 1ull << 40;
// The JSON header of a safetensors file: the reference reader's MAX_HEADER_SIZE (100,000,000,
// huggingface/safetensors, safetensors/src/tensor.rs).
inline constexpr std::uint64_t kMaxSafetensorsHeaderBytes = 100'000'000;
// The header of a .npy file: numpy's _MAX_HEADER_SIZE (10000, numpy/lib/format.py), above which
// numpy itself refuses to read one.
inline constexpr std::uint64_t kMaxNpyHeaderBytes = 10'000;

// A file opened for reading after the checks above; move-only, closed on destruction.
class InputFile {
public:
  InputFile(const std::filesystem::path& path, std::uint64_t max_bytes);
  ~InputFile();
  InputFile(InputFile&& other) noexcept;
  InputFile& operator=(InputFile&&) = delete;
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::uint64_t size() const { return size_; }
  // Reads exactly `bytes` bytes at `offset`; a range past the end of the file is an error.
  void read_at(std::uint64_t offset, void* out, std::size_t bytes) const;
  // The whole file (at most max_bytes: a file that grew past it is an error).
  std::string read_all() const;

private:
  [[noreturn]] void fail(const std::string& why) const;

  std::filesystem::path path_;
  std::uint64_t max_bytes_ = 0;
  std::uint64_t size_ = 0;
  int fd_ = -1;
};

std::string read_input_file(const std::filesystem::path& file, std::uint64_t max_bytes);

}  // namespace lynxsim::io
