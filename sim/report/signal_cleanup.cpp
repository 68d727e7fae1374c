#include "sim/report/signal_cleanup.hpp"

#include <array>
#include <csignal>
#include <cstring>
#include <stdexcept>
#include <unistd.h>

namespace lynxsim::report {
namespace {

constexpr std::size_t kMaxPath = 4096;
constexpr std::size_t kMaxFiles = 16;
constexpr std::array<int, 3> kSignals{SIGINT, SIGTERM, SIGHUP};

char g_folder[kMaxPath];
char g_files[kMaxFiles][kMaxPath];
volatile std::sig_atomic_t g_file_count = 0;
volatile std::sig_atomic_t g_active = 0;
struct sigaction g_previous[kSignals.size()];

bool copy_path(char* buffer, const std::filesystem::path& path) {
  const std::string& text = path.native();
  if (text.size() + 1 > kMaxPath) return false;
  std::memcpy(buffer, text.c_str(), text.size() + 1);
  return true;
}

extern "C" void remove_staging_and_reraise(int signal_number) {
  if (g_active != 0) {
    for (std::sig_atomic_t i = 0; i < g_file_count; ++i) ::unlink(g_files[i]);
    ::rmdir(g_folder);
    g_active = 0;
  }
  struct sigaction fallback {};
  fallback.sa_handler = SIG_DFL;
  ::sigemptyset(&fallback.sa_mask);
  ::sigaction(signal_number, &fallback, nullptr);
  ::raise(signal_number);
}

}  // namespace

StagingSignalGuard::StagingSignalGuard(const std::filesystem::path& folder) {
  if (g_active != 0) throw std::logic_error("a staging folder is already guarded");
  g_file_count = 0;
  if (!copy_path(g_folder, folder)) return;
  g_active = 1;
  struct sigaction action {};
  action.sa_handler = remove_staging_and_reraise;
  ::sigemptyset(&action.sa_mask);
  for (std::size_t i = 0; i < kSignals.size(); ++i) ::sigaction(kSignals[i], &action, &g_previous[i]);
}

StagingSignalGuard::~StagingSignalGuard() {
  if (g_active == 0) return;
  for (std::size_t i = 0; i < kSignals.size(); ++i) ::sigaction(kSignals[i], &g_previous[i], nullptr);
  g_active = 0;
  g_file_count = 0;
}

void StagingSignalGuard::add_file(const std::filesystem::path& file) {
  if (g_active == 0 || g_file_count >= static_cast<std::sig_atomic_t>(kMaxFiles)) return;
  if (copy_path(g_files[g_file_count], file)) g_file_count = g_file_count + 1;
}

}  // namespace lynxsim::report
