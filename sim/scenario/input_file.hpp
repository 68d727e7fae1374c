#pragma once
// The configuration layer reads every file (scenario, card, topology, trace, length distribution)
// through sim/io's checked opener (sim/io/input_file.hpp: regular files only, a size limit per
// kind, never blocking); these names keep its errors and limits at hand in sim/scenario.

#include "sim/io/input_file.hpp"

namespace lynxsim::scenario {

using io::InputFileError;
using io::kMaxConfigFileBytes;
using io::kMaxTraceFileBytes;
using io::read_input_file;

}  // namespace lynxsim::scenario
