#pragma once
// The lynxsim command line. Exit codes: 0 success, 2 bad input (a malformed scenario, unknown name,
// unreadable file: the message names the file and JSON path), 1 an internal error.

namespace lynxsim::app {

int run_cli(int argc, char** argv);

}  // namespace lynxsim::app
