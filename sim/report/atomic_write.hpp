#pragma once
// Writing results so that a reader never sees a partial file or a partial folder.
//
// write_file_atomic: the content goes to "<file>.tmp-<pid>" in the same directory, is flushed and
// closed, then renamed over <file> (rename within one filesystem is atomic on POSIX).
//
// StagedFolder: files are written into "<out>.tmp-<pid>" beside the target folder; commit() renames
// the staging folder to <out>. An existing <out> is first renamed to "<out>.old-<pid>" and removed
// only after the new folder is in place (if the final rename fails, the old folder is restored).
// A StagedFolder destroyed without commit() removes its staging folder, so a failed run leaves the
// previous results untouched and no partial folder behind. Errors throw ReportWriteError.

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace lynxsim::report {

class ReportWriteError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

void write_file_atomic(const std::filesystem::path& file, std::string_view content);

class StagedFolder {
public:
  explicit StagedFolder(std::filesystem::path target);
  ~StagedFolder();
  StagedFolder(const StagedFolder&) = delete;
  StagedFolder& operator=(const StagedFolder&) = delete;

  // Writes <staging>/<name>; name is a plain file name.
  void write(const std::string& name, std::string_view content);
  void commit();

  const std::filesystem::path& staging_path() const { return staging_; }
  const std::filesystem::path& target_path() const { return target_; }

private:
  std::filesystem::path target_;
  std::filesystem::path staging_;
  bool committed_ = false;
};

}  // namespace lynxsim::report
