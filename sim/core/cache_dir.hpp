#pragma once
// The default cache folder of lynxsim: $HOME/.cache/lynxsim, or ./.cache/lynxsim when HOME is not
// set. It holds results that are costly to recompute and do not depend on where they are kept
// (accuracy measurements keyed by every input that affects them, downloaded model files), so its
// location never changes a result. Commands take `--cache-dir` to put it elsewhere; the resolved
// scenario names the folder a run used.

#include <filesystem>

namespace lynxsim {

std::filesystem::path default_cache_dir();

}  // namespace lynxsim
