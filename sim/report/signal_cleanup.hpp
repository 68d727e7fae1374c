#pragma once
// Removing a half-written staging folder when the process is interrupted.
//
// While a StagingSignalGuard lives, SIGINT, SIGTERM and SIGHUP first remove the files registered
// with add_file and then the staging folder itself, and only then end the process with the
// signal's default action (so the exit status still says which signal ended it). The handler uses
// only async-signal-safe calls (unlink, rmdir, sigaction, raise) on paths stored in advance in
// fixed buffers; a path too long for them is not registered, and the folder is then left for
// remove_stale_staging (results_target.hpp) to clear on the next run. One guard is active per
// process at a time; the previous handlers are restored when it ends. SIGKILL cannot be caught:
// what it leaves behind is stale staging, removed by the next run.

#include <filesystem>

namespace lynxsim::report {

class StagingSignalGuard {
public:
  explicit StagingSignalGuard(const std::filesystem::path& folder);
  ~StagingSignalGuard();
  StagingSignalGuard(const StagingSignalGuard&) = delete;
  StagingSignalGuard& operator=(const StagingSignalGuard&) = delete;

  // Call before the file is created.
  void add_file(const std::filesystem::path& file);
};

}  // namespace lynxsim::report
