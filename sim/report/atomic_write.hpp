#pragma once
// Writing results so that a reader never sees a partial file or a partial folder, and nothing that
// lynxsim did not write is ever removed.
//
// write_file_atomic: the content goes to "<file>.tmp-<n>-<pid>" in the same directory (created
// exclusively, never through a link), is flushed to disk and closed, then renamed over <file>
// (rename within one filesystem is atomic on POSIX); n counts the process's writes, so threads
// writing the same file (two runs measuring one cache entry) never share a temporary file.
//
// StagedFolder: files are written into "<out>.tmp-<pid>" beside the target folder, the manifest of
// results_target.hpp first. The constructor checks the target (check_results_target: an existing
// target must be empty or ours, unless forced) and removes stale staging of dead processes.
// commit() writes the final manifest, then renames the staging folder to <out>: an existing <out>
// is first renamed to "<out>.old-<pid>" and removed only after the new folder is in place (if the
// final rename fails, the old folder is restored); signals are blocked during these renames. A
// StagedFolder destroyed without commit() removes its staging folder, and so does SIGINT, SIGTERM
// or SIGHUP while it lives (signal_cleanup.hpp), so a failed or interrupted run leaves the previous
// results untouched and no partial folder behind. Errors throw ReportWriteError with the system's
// reason (errno text).

#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace lynxsim::report {

class ReportWriteError : public std::runtime_error {
public:
  explicit ReportWriteError(const std::string& what, int error = 0) : std::runtime_error(what), error_(error) {}
  // The errno of the failed call (0 when none).
  int error_number() const { return error_; }
  // The path cannot be written as named (ENOENT, EACCES, ENAMETOOLONG, EROFS, ...): the user's
  // input, unlike a full disk or an I/O error.
  bool caused_by_path() const;

private:
  int error_;
};

class StagingSignalGuard;

void write_file_atomic(const std::filesystem::path& file, std::string_view content);

// Content produced piece by piece: the producer passes each piece to the sink, in order, so a large
// file never has to be held in memory whole.
using ContentSink = std::function<void(std::string_view piece)>;
using ContentProducer = std::function<void(const ContentSink& sink)>;

class StagedFolder {
public:
  // force: replace an existing target even when it is not a lynxsim results folder.
  // signal_cleanup: guard the staging folder against signals (signal_cleanup.hpp); off in a
  // process whose signals belong to someone else (the Python module), where several folders may
  // be staged at once by different threads.
  explicit StagedFolder(std::filesystem::path target, bool force = false, bool signal_cleanup = true);
  ~StagedFolder();
  StagedFolder(const StagedFolder&) = delete;
  StagedFolder& operator=(const StagedFolder&) = delete;

  // Writes <staging>/<name>; name is a plain file name. The other forms write the parts in order.
  void write(const std::string& name, std::string_view content);
  void write(const std::string& name, std::span<const std::string_view> parts);
  void write(const std::string& name, const ContentProducer& produce);
  void commit();

  const std::filesystem::path& staging_path() const { return staging_; }
  const std::filesystem::path& target_path() const { return target_; }

private:
  void create_staging();
  void guard_file(const std::string& name);
  void swap_into_place();

  std::filesystem::path target_;
  std::filesystem::path staging_;
  bool force_ = false;
  bool signal_cleanup_ = true;
  bool committed_ = false;
  std::vector<std::string> files_;
  std::unique_ptr<StagingSignalGuard> guard_;
};

}  // namespace lynxsim::report
