#include "sim/app/cli.hpp"

int main(int argc, char** argv) { return lynxsim::app::run_cli(argc, argv); }
