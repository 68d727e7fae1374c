# Runs lynxsim with ARGS (comma-separated) and passes when it exits with exactly code 2 (bad
# input), prints nothing on stdout and its error output names EXPECTED.
#   cmake -DLYNXSIM=<binary> -DARGS=<arg,arg,...> -DEXPECTED=<text> -P check_refusal.cmake
string(REPLACE "," ";" args "${ARGS}")
execute_process(COMMAND "${LYNXSIM}" ${args}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc STREQUAL "2")
  message(FATAL_ERROR "expected exit code 2, got ${rc}\nstdout: ${out}\nstderr: ${err}")
endif()
if(NOT out STREQUAL "")
  message(FATAL_ERROR "a refused command printed a result:\n${out}")
endif()
string(FIND "${err}" "${EXPECTED}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the error does not name \"${EXPECTED}\":\n${err}")
endif()
