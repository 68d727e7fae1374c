#include "sim/report/atomic_write.hpp"

#include <fmt/format.h>
#include <fstream>
#include <system_error>
#include <unistd.h>

namespace lynxsim::report {
namespace fs = std::filesystem;
namespace {

fs::path sibling(const fs::path& path, std::string_view tag) {
  fs::path p = path;
  if (!p.has_filename()) p = p.parent_path();
  return p.parent_path() / fmt::format("{}.{}-{}", p.filename().string(), tag, ::getpid());
}

void remove_quietly(const fs::path& path) {
  std::error_code ec;
  fs::remove_all(path, ec);
}

void write_plain(const fs::path& file, std::string_view content) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  if (!out) throw ReportWriteError(fmt::format("cannot create {}", file.string()));
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  out.close();
  if (!out) throw ReportWriteError(fmt::format("cannot write {}", file.string()));
}

void rename_or_throw(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::rename(from, to, ec);
  if (ec) {
    throw ReportWriteError(
        fmt::format("cannot rename {} to {}: {}", from.string(), to.string(), ec.message()));
  }
}

}  // namespace

void write_file_atomic(const fs::path& file, std::string_view content) {
  const fs::path temp = sibling(file, "tmp");
  try {
    write_plain(temp, content);
    rename_or_throw(temp, file);
  } catch (...) {
    remove_quietly(temp);
    throw;
  }
}

StagedFolder::StagedFolder(fs::path target)
    : target_(std::move(target)), staging_(sibling(target_, "tmp")) {
  if (!target_.has_filename()) target_ = target_.parent_path();
  remove_quietly(staging_);
  std::error_code ec;
  fs::create_directories(staging_, ec);
  if (ec) {
    throw ReportWriteError(
        fmt::format("cannot create results folder {}: {}", staging_.string(), ec.message()));
  }
}

StagedFolder::~StagedFolder() {
  if (!committed_) remove_quietly(staging_);
}

void StagedFolder::write(const std::string& name, std::string_view content) {
  if (committed_) throw ReportWriteError("results folder already committed");
  write_plain(staging_ / name, content);
}

void StagedFolder::commit() {
  if (committed_) return;
  const fs::path old = sibling(target_, "old");
  std::error_code ec;
  const bool replacing = fs::exists(fs::symlink_status(target_, ec));
  if (replacing) {
    remove_quietly(old);
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
