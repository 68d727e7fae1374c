#include "sim/report/results_target.hpp"

#include "sim/core/build_info.hpp"
#include "sim/io/input_file.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>
#include <system_error>
#include <unistd.h>

namespace lynxsim::report {
namespace fs = std::filesystem;
namespace {

constexpr std::uintmax_t kManifestMaxBytes = 1 << 16;

bool is_plain_directory(const fs::path& path) {
  std::error_code ec;
  return fs::symlink_status(path, ec).type() == fs::file_type::directory;
}

bool is_empty_directory(const fs::path& path) {
  std::error_code ec;
  return is_plain_directory(path) && fs::is_empty(path, ec) && !ec;
}

std::string describe(const fs::path& path) {
  std::error_code ec;
  switch (fs::symlink_status(path, ec).type()) {
    case fs::file_type::regular: return "a regular file";
    case fs::file_type::symlink: return "a symbolic link";
    case fs::file_type::directory: return "a folder that is not a lynxsim results folder";
    default: return "not a folder";
  }
}

std::optional<pid_t> staging_pid(std::string_view name, std::string_view stem) {
  for (std::string_view tag : {".tmp-", ".old-"}) {
    if (name.size() <= stem.size() + tag.size() || name.substr(0, stem.size()) != stem) continue;
    if (name.substr(stem.size(), tag.size()) != tag) continue;
    const std::string_view digits = name.substr(stem.size() + tag.size());
    if (digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string_view::npos) continue;
    return static_cast<pid_t>(std::stol(std::string(digits)));
  }
  return std::nullopt;
}

bool process_is_gone(pid_t pid) {
  return pid > 0 && pid != ::getpid() && ::kill(pid, 0) == -1 && errno == ESRCH;
}

}  // namespace

std::string results_manifest(const std::vector<std::string>& files) {
  const nlohmann::json manifest = {{"tool", "lynxsim"},
                                   {"schema_version", 1},
                                   {"lynxsim_version", std::string(lynxsim_version())},
                                   {"lynxsim_commit", std::string(lynxsim_commit())},
                                   {"files", files}};
  return manifest.dump(2) + "\n";
}

// A folder written by a lynxsim from before the manifest: nothing but the files a run writes.
bool is_unmarked_results_folder(const fs::path& folder) {
  if (!is_plain_directory(folder)) return false;
  static const std::vector<std::string> known{"scenario.resolved.json", "summary.json",
                                              "requests.csv", "trace.json"};
  std::error_code ec;
  bool has_summary = false;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (std::find(known.begin(), known.end(), name) == known.end()) return false;
    if (it->symlink_status(ec).type() != fs::file_type::regular) return false;
    has_summary = has_summary || name == "summary.json";
  }
  return !ec && has_summary;
}

bool holds_results_manifest(const fs::path& folder) {
  if (!is_plain_directory(folder)) return false;
  const fs::path file = folder / kResultsManifest;
  std::error_code ec;
  if (fs::symlink_status(file, ec).type() != fs::file_type::regular) return false;
  std::string text;
  try {
    text = io::read_input_file(file, kManifestMaxBytes);
  } catch (const io::InputFileError&) {
    return false;
  }
  const auto manifest = nlohmann::json::parse(text, nullptr, false);
  return manifest.is_object() && manifest.value("tool", "") == "lynxsim";
}

void check_results_target(const fs::path& target, bool force) {
  std::error_code ec;
  const auto status = fs::symlink_status(target, ec);
  if (force || !fs::exists(status)) return;
  if (is_empty_directory(target) || holds_results_manifest(target) || is_unmarked_results_folder(target)) {
    return;
  }
  throw OutputRefused(fmt::format(
      "results folder {}: exists and is {}; lynxsim replaces only folders it wrote (they hold {}). "
      "Choose another --out, or give --force to replace it",
      target.string(), describe(target), kResultsManifest));
}

void remove_stale_staging(const fs::path& target) {
  const fs::path parent = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  const std::string stem = target.filename().string();
  std::error_code ec;
  std::vector<fs::path> stale;
  for (fs::directory_iterator it(parent, ec), end; !ec && it != end; it.increment(ec)) {
    const auto pid = staging_pid(it->path().filename().string(), stem);
    if (!pid || !process_is_gone(*pid)) continue;
    if (holds_results_manifest(it->path()) || is_empty_directory(it->path())) stale.push_back(it->path());
  }
  for (const fs::path& path : stale) fs::remove_all(path, ec);
}

}  // namespace lynxsim::report
