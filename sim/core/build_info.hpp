#pragma once
// What this lynxsim build is: the project version and the git commit it was configured from
// ("unknown" outside a git checkout; "-dirty" appended when the work tree had uncommitted changes).
// Results folders and summaries record both, so every number can be traced to the code that made it.

#include <string_view>

namespace lynxsim {

std::string_view lynxsim_version();
std::string_view lynxsim_commit();

}  // namespace lynxsim
