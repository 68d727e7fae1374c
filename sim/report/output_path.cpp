#include "sim/report/output_path.hpp"

#include <climits>
#include <fmt/format.h>
#include <system_error>

#include "sim/report/results_target.hpp"

namespace lynxsim::report {
namespace fs = std::filesystem;
namespace {

[[noreturn]] void refuse(std::string_view option, const fs::path& path, std::string_view why) {
  throw OutputRefused(fmt::format("{} {}: {}", option, path.string(), why));
}

void check_folders_on_the_way(const fs::path& path, std::string_view option) {
  fs::path prefix;
  const fs::path folder = path.parent_path();
  for (const fs::path& part : folder) {
    prefix /= part;
    std::error_code ec;
    const fs::file_status status = fs::status(prefix, ec);
    if (!fs::exists(status)) return;
    if (!fs::is_directory(status)) refuse(option, path, fmt::format("{} is not a folder", prefix.string()));
  }
}

}  // namespace

void check_output_path(const fs::path& path, std::string_view option) {
  if (path.empty()) throw OutputRefused(fmt::format("{}: an empty path names no file or folder", option));
  if (path.native().size() >= PATH_MAX) refuse(option, path, fmt::format("longer than {} bytes", PATH_MAX - 1));
  for (const fs::path& part : path) {
    if (part.native().size() > NAME_MAX) {
      refuse(option, path, fmt::format("a name of {} bytes, more than the {} a file name may have",
                                       part.native().size(), NAME_MAX));
    }
  }
  check_folders_on_the_way(path, option);
}

void check_output_file(const fs::path& file, std::string_view option, bool force) {
  check_output_path(file, option);
  if (!file.has_filename()) refuse(option, file, "names a folder, not a file");
  std::error_code ec;
  const fs::file_status status = fs::symlink_status(file, ec);
  if (!fs::exists(status)) return;
  if (!fs::is_regular_file(status)) refuse(option, file, "exists and is not a regular file; lynxsim replaces only regular files");
  if (!force) refuse(option, file, "exists; give --force to replace it");
}

}  // namespace lynxsim::report
