# Runs `lynxsim validate FILE` and passes when it exits with exactly code 2 (bad input) and its
# error output names EXPECTED (a JSON pointer or message fragment); then runs the file
# (`lynxsim --scenario FILE --out OUT`), which must refuse it the same way and create nothing.
#   cmake -DLYNXSIM=<binary> -DFILE=<scenario> -DEXPECTED=<text> -DOUT=<folder> -P check_bad_scenario.cmake
function(expect_refusal what)
  execute_process(COMMAND "${LYNXSIM}" ${ARGN}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc STREQUAL "2")
    message(FATAL_ERROR "${what}: expected exit code 2, got ${rc}\nstdout: ${out}\nstderr: ${err}")
  endif()
  string(FIND "${err}" "${EXPECTED}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${what}: the errors do not name \"${EXPECTED}\":\n${err}")
  endif()
endfunction()

expect_refusal("validate" validate "${FILE}")
file(REMOVE_RECURSE "${OUT}")
expect_refusal("run" --scenario "${FILE}" --out "${OUT}" --quiet)
if(EXISTS "${OUT}")
  message(FATAL_ERROR "run: a refused scenario created ${OUT}")
endif()
