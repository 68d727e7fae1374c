#pragma once
// Paths a user names for lynxsim to write: a run's results folder (--out), the files of
// `llm-logits --out`, `flows --out` and `calibrate-acceptance --out`, the cache folder
// (--cache-dir). They are checked before anything is computed, so a path that cannot be written
// is refused as bad input (OutputRefused, exit 2) naming the option and the path:
// - an empty path (it would name the current folder) is refused;
// - a component longer than NAME_MAX or a path longer than PATH_MAX is refused;
// - a component of the path that exists and is not a folder (a file, a device) is refused.
// check_output_file adds the rule for a single file: an existing file is replaced only with
// --force, and never when it is not a regular file (a device, a FIFO, a folder, a link), since the
// atomic write (atomic_write.hpp) renames over it.

#include <filesystem>
#include <string_view>

namespace lynxsim::report {

void check_output_path(const std::filesystem::path& path, std::string_view option);
void check_output_file(const std::filesystem::path& file, std::string_view option, bool force);

}  // namespace lynxsim::report
