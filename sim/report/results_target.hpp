#pragma once
// Where a results folder may be written, so that writing results never removes what lynxsim did
// not create.
//
// Every folder lynxsim writes carries a manifest, `lynxsim-results.json` ({"tool": "lynxsim",
// "schema_version": 1, "files": [...]}); it is written first into the staging folder, so even a
// staging folder left behind by a killed process is recognisable as ours. A target path is
// accepted when it does not exist, is an empty directory, is a directory holding our manifest, or
// is a results folder of an older lynxsim (no manifest, but nothing besides the regular files a run
// writes: scenario.resolved.json, summary.json, requests.csv, trace.json). Anything else (a regular
// file, a link, a device, a folder holding any other file) is refused with OutputRefused unless the
// caller forces the replacement.
//
// Staging names are "<target>.tmp-<pid>" (being written) and "<target>.old-<pid>" (the previous
// folder, kept until the new one is in place). A staging folder of a process that no longer runs
// (kill(pid, 0) fails with ESRCH) is stale; remove_stale_staging removes the stale ones next to a
// target, and only those that hold our manifest or nothing at all.

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace lynxsim::report {

inline constexpr const char* kResultsManifest = "lynxsim-results.json";

// The target exists and is not ours: bad input (exit 2).
class OutputRefused : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// The manifest's text for a folder holding `files` (besides the manifest itself).
std::string results_manifest(const std::vector<std::string>& files);

bool holds_results_manifest(const std::filesystem::path& folder);

// Throws OutputRefused when `target` exists and may not be replaced (see above); force accepts any.
void check_results_target(const std::filesystem::path& target, bool force);

// Removes "<target>.tmp-<pid>" and "<target>.old-<pid>" of dead processes that are ours.
void remove_stale_staging(const std::filesystem::path& target);

}  // namespace lynxsim::report
