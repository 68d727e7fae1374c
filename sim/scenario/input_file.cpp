#include "sim/scenario/input_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

namespace lynxsim::scenario {
namespace {

[[noreturn]] void fail(const std::filesystem::path& file, const std::string& why) {
  throw InputFileError(fmt::format("{}: {}", file.string(), why));
}

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

class Descriptor {
public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() { ::close(fd_); }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }

private:
  int fd_;
};

}  // namespace

std::string read_input_file(const std::filesystem::path& file, std::uint64_t max_bytes) {
  struct stat info {};
  if (::stat(file.c_str(), &info) != 0) fail(file, fmt::format("cannot read the file: {}", std::strerror(errno)));
  if (!S_ISREG(info.st_mode)) fail(file, fmt::format("cannot read the file: it is {}", kind_of(info.st_mode)));
  const auto size = static_cast<std::uint64_t>(info.st_size);
  if (size > max_bytes) {
    fail(file, fmt::format("the file has {} bytes, more than the {} this input may have", size, max_bytes));
  }
  const Descriptor fd(::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (fd.get() < 0) fail(file, fmt::format("cannot read the file: {}", std::strerror(errno)));
  std::string text;
  text.resize(static_cast<std::size_t>(size));
  std::size_t filled = 0;
  while (true) {
    if (filled == text.size()) {
      if (text.size() >= max_bytes) break;
      text.resize(std::min<std::uint64_t>(max_bytes, text.size() + 65536));
    }
    const ssize_t n = ::read(fd.get(), text.data() + filled, text.size() - filled);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(file, fmt::format("cannot read the file: {}", std::strerror(errno)));
    if (n == 0) break;
    filled += static_cast<std::size_t>(n);
  }
  char probe = 0;
  if (filled == max_bytes && ::read(fd.get(), &probe, 1) > 0) {
    fail(file, fmt::format("the file has more than the {} bytes this input may have", max_bytes));
  }
  text.resize(filled);
  return text;
}

}  // namespace lynxsim::scenario
