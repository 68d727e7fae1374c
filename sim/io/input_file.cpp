#include "sim/io/input_file.hpp"

#include <algorithm>
#include <utility>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

namespace lynxsim::io {
namespace {

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

std::string system_error(const char* what) {
  return fmt::format("{}: {}", what, std::strerror(errno));
}

}  // namespace

void InputFile::fail(const std::string& why) const {
  throw InputFileError(fmt::format("{}: {}", path_.string(), why));
}

InputFile::InputFile(const std::filesystem::path& path, std::uint64_t max_bytes)
    : path_(path), max_bytes_(max_bytes) {
  if (path.empty()) throw InputFileError("an empty path names no file");
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) fail(system_error("cannot read the file"));
  if (!S_ISREG(info.st_mode)) fail(fmt::format("cannot read the file: it is {}", kind_of(info.st_mode)));
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd_ < 0) fail(system_error("cannot read the file"));
  if (::fstat(fd_, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd_);
    fail("cannot read the file: it is no longer a regular file");
  }
  size_ = static_cast<std::uint64_t>(info.st_size);
  if (size_ > max_bytes) {
    ::close(fd_);
    fail(fmt::format("the file has {} bytes, more than the {} this input may have", size_, max_bytes));
  }
}

InputFile::~InputFile() {
  if (fd_ >= 0) ::close(fd_);
}

InputFile::InputFile(InputFile&& other) noexcept
    : path_(std::move(other.path_)), max_bytes_(other.max_bytes_), size_(other.size_), fd_(other.fd_) {
  other.fd_ = -1;
}

void InputFile::read_at(std::uint64_t offset, void* out, std::size_t bytes) const {
  if (offset > size_ || bytes > size_ - offset) {
    fail(fmt::format("truncated: {} bytes at offset {} run past its end ({} bytes)", bytes, offset, size_));
  }
  auto* target = static_cast<char*>(out);
  std::size_t done = 0;
  while (done < bytes) {
    const ssize_t n = ::pread(fd_, target + done, bytes - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(system_error("cannot read the file"));
    if (n == 0) fail(fmt::format("truncated while reading: {} bytes at offset {} are missing", bytes - done, offset + done));
    done += static_cast<std::size_t>(n);
  }
}

std::string InputFile::read_all() const {
  std::string text(static_cast<std::size_t>(size_), '\0');
  std::size_t filled = 0;
  while (true) {
    if (filled == text.size()) {
      if (text.size() >= max_bytes_) break;
      text.resize(std::min<std::uint64_t>(max_bytes_, text.size() + 65536));
    }
    const ssize_t n = ::pread(fd_, text.data() + filled, text.size() - filled, static_cast<off_t>(filled));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(system_error("cannot read the file"));
    if (n == 0) break;
    filled += static_cast<std::size_t>(n);
  }
  char probe = 0;
  if (filled == max_bytes_ && ::pread(fd_, &probe, 1, static_cast<off_t>(filled)) > 0) {
    fail(fmt::format("the file has more than the {} bytes this input may have", max_bytes_));
  }
  text.resize(filled);
  return text;
}

std::string read_input_file(const std::filesystem::path& file, std::uint64_t max_bytes) {
  return InputFile(file, max_bytes).read_all();
}

}  // namespace lynxsim::io
