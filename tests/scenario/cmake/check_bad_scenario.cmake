# Runs `lynxsim validate FILE` and passes when it exits with exactly code 2 (bad input) and its
# error output names EXPECTED (a JSON pointer or message fragment).
#   cmake -DLYNXSIM=<binary> -DFILE=<scenario> -DEXPECTED=<text> -P check_bad_scenario.cmake
execute_process(COMMAND "${LYNXSIM}" validate "${FILE}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc STREQUAL "2")
  message(FATAL_ERROR "expected exit code 2, got ${rc}\nstdout: ${out}\nstderr: ${err}")
endif()
string(FIND "${err}" "${EXPECTED}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the errors do not name \"${EXPECTED}\":\n${err}")
endif()
