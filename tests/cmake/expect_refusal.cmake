# expect_refusal(WHAT ARG...): runs "${LYNXSIM}" ARG... and fails the calling test unless it exits
# with exactly code 2 (bad input) and its error output names "${EXPECTED}". A macro, so the caller
# sees the command's standard output in refusal_out.
macro(expect_refusal what)
  execute_process(COMMAND "${LYNXSIM}" ${ARGN}
    RESULT_VARIABLE refusal_rc OUTPUT_VARIABLE refusal_out ERROR_VARIABLE refusal_err)
  if(NOT refusal_rc STREQUAL "2")
    message(FATAL_ERROR "${what}: expected exit code 2, got ${refusal_rc}\nstdout: ${refusal_out}\nstderr: ${refusal_err}")
  endif()
  string(FIND "${refusal_err}" "${EXPECTED}" refusal_at)
  if(refusal_at EQUAL -1)
    message(FATAL_ERROR "${what}: the errors do not name \"${EXPECTED}\":\n${refusal_err}")
  endif()
endmacro()
