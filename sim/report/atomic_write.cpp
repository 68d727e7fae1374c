#include "sim/report/atomic_write.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

#include "sim/report/results_target.hpp"
#include "sim/report/signal_cleanup.hpp"

namespace lynxsim::report {
namespace fs = std::filesystem;
namespace {

fs::path without_trailing_slash(fs::path p) {
  if (!p.has_filename()) p = p.parent_path();
  return p;
}

fs::path sibling(const fs::path& path, std::string_view tag) {
  const fs::path p = without_trailing_slash(path);
  return p.parent_path() / fmt::format("{}.{}-{}", p.filename().string(), tag, ::getpid());
}

[[noreturn]] void fail(std::string_view what, const fs::path& path, int error) {
  throw ReportWriteError(fmt::format("cannot {} {}: {}", what, path.string(), std::strerror(error)), error);
}

void remove_quietly(const fs::path& path) {
  std::error_code ec;
  fs::remove_all(path, ec);
}

void write_piece(int fd, const fs::path& file, std::string_view content) {
  while (!content.empty()) {
    const ssize_t n = ::write(fd, content.data(), content.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail("write", file, errno);
    content.remove_prefix(static_cast<std::size_t>(n));
  }
}

ContentProducer producer_of(std::span<const std::string_view> parts) {
  return [parts](const ContentSink& sink) {
    for (const std::string_view part : parts) sink(part);
  };
}

void write_plain(const fs::path& file, const ContentProducer& produce) {
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) fail("create", file, errno);
  try {
    produce([fd, &file](std::string_view piece) { write_piece(fd, file, piece); });
    if (::fsync(fd) != 0) fail("write", file, errno);
  } catch (...) {
    ::close(fd);
    ::unlink(file.c_str());
    throw;
  }
  if (::close(fd) != 0) {
    const int error = errno;
    ::unlink(file.c_str());
    fail("write", file, error);
  }
}

void write_plain(const fs::path& file, std::span<const std::string_view> parts) {
  write_plain(file, producer_of(parts));
}

void write_plain(const fs::path& file, std::string_view content) {
  write_plain(file, std::span(&content, 1));
}

void rename_or_throw(const fs::path& from, const fs::path& to) {
  if (::rename(from.c_str(), to.c_str()) != 0) {
    const int error = errno;
    throw ReportWriteError(fmt::format("cannot rename {} to {}: {}", from.string(), to.string(),
                                       std::strerror(error)), error);
  }
}

// Blocks SIGINT, SIGTERM and SIGHUP for its lifetime (they are delivered when it ends).
class SignalBlock {
public:
  SignalBlock() {
    sigset_t set;
    ::sigemptyset(&set);
    for (int s : {SIGINT, SIGTERM, SIGHUP}) ::sigaddset(&set, s);
    ::pthread_sigmask(SIG_BLOCK, &set, &previous_);
  }
  ~SignalBlock() { ::pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }
  SignalBlock(const SignalBlock&) = delete;
  SignalBlock& operator=(const SignalBlock&) = delete;

private:
  sigset_t previous_;
};

}  // namespace

bool ReportWriteError::caused_by_path() const {
  switch (error_) {
    case EACCES: case EPERM: case ENOENT: case ENOTDIR: case EISDIR: case ENAMETOOLONG:
    case EROFS: case ELOOP: case EEXIST: case EINVAL: case EXDEV: case ENOTEMPTY: return true;
    default: return false;
  }
}

void write_file_atomic(const fs::path& file, std::string_view content) {
  static std::atomic<std::uint64_t> writes{0};
  const fs::path temp = sibling(file, fmt::format("tmp-{}", writes.fetch_add(1)));
  write_plain(temp, content);
  try {
    rename_or_throw(temp, file);
  } catch (...) {
    ::unlink(temp.c_str());
    throw;
  }
}

StagedFolder::StagedFolder(fs::path target, bool force, bool signal_cleanup)
    : target_(without_trailing_slash(std::move(target))), staging_(sibling(target_, "tmp")),
      force_(force), signal_cleanup_(signal_cleanup) {
  check_results_target(target_, force_);
  remove_stale_staging(target_);
  create_staging();
}

StagedFolder::~StagedFolder() {
  if (!committed_) remove_quietly(staging_);
}

void StagedFolder::create_staging() {
  const fs::path parent = staging_.parent_path();
  std::error_code ec;
  if (!parent.empty()) fs::create_directories(parent, ec);
  if (ec) throw ReportWriteError(fmt::format("cannot create {}: {}", parent.string(), ec.message()), ec.value());
  if (signal_cleanup_) guard_ = std::make_unique<StagingSignalGuard>(staging_);
  if (::mkdir(staging_.c_str(), 0755) != 0) {
    if (errno != EEXIST || !holds_results_manifest(staging_)) fail("create results folder", staging_, errno);
    remove_quietly(staging_);
    if (::mkdir(staging_.c_str(), 0755) != 0) fail("create results folder", staging_, errno);
  }
  guard_file(kResultsManifest);
  try {
    write_plain(staging_ / kResultsManifest, results_manifest({}));
  } catch (...) {
    ::rmdir(staging_.c_str());
    throw;
  }
}

void StagedFolder::guard_file(const std::string& name) {
  if (guard_) guard_->add_file(staging_ / name);
}

void StagedFolder::write(const std::string& name, std::string_view content) {
  write(name, std::span(&content, 1));
}

void StagedFolder::write(const std::string& name, std::span<const std::string_view> parts) {
  write(name, producer_of(parts));
}

void StagedFolder::write(const std::string& name, const ContentProducer& produce) {
  if (committed_) throw ReportWriteError("results folder already committed");
  if (name == kResultsManifest || std::find(files_.begin(), files_.end(), name) != files_.end()) {
    throw ReportWriteError(fmt::format("results folder {}: {} written twice", target_.string(), name));
  }
  guard_file(name);
  write_plain(staging_ / name, produce);
  files_.push_back(name);
}

void StagedFolder::commit() {
  if (committed_) return;
  std::vector<std::string> listed = files_;
  std::sort(listed.begin(), listed.end());
  ::unlink((staging_ / kResultsManifest).c_str());
  write_plain(staging_ / kResultsManifest, results_manifest(listed));
  {
    const SignalBlock block;
    swap_into_place();
    guard_.reset();
  }
}

void StagedFolder::swap_into_place() {
  const fs::path old = sibling(target_, "old");
  std::error_code ec;
  const bool replacing = fs::exists(fs::symlink_status(target_, ec));
  if (replacing) {
    check_results_target(target_, force_);
    if (fs::exists(fs::symlink_status(old, ec))) {
      if (!holds_results_manifest(old)) fail("replace", old, EEXIST);
      remove_quietly(old);
    }
    rename_or_throw(target_, old);
  }
  try {
    rename_or_throw(staging_, target_);
  } catch (...) {
    if (replacing) rename_or_throw(old, target_);
    throw;
  }
  committed_ = true;
  if (replacing) remove_quietly(old);
}

}  // namespace lynxsim::report
