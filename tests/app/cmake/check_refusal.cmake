# Runs lynxsim with ARGS (comma-separated) and passes when it exits with exactly code 2 (bad
# input), prints nothing on stdout and its error output names EXPECTED.
#   cmake -DLYNXSIM=<binary> -DARGS=<arg,arg,...> -DEXPECTED=<text> -P check_refusal.cmake
include("${CMAKE_CURRENT_LIST_DIR}/../../cmake/expect_refusal.cmake")
string(REPLACE "," ";" args "${ARGS}")
expect_refusal("lynxsim ${ARGS}" ${args})
if(NOT refusal_out STREQUAL "")
  message(FATAL_ERROR "a refused command printed a result:\n${refusal_out}")
endif()
