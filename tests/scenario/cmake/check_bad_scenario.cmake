# Runs `lynxsim validate FILE` and passes when it exits with exactly code 2 (bad input) and its
# error output names EXPECTED (a JSON pointer or message fragment); then runs the file
# (`lynxsim --scenario FILE --out OUT`), which must refuse it the same way and create nothing.
#   cmake -DLYNXSIM=<binary> -DFILE=<scenario> -DEXPECTED=<text> -DOUT=<folder> -P check_bad_scenario.cmake
include("${CMAKE_CURRENT_LIST_DIR}/../../cmake/expect_refusal.cmake")

expect_refusal("validate" validate "${FILE}")
file(REMOVE_RECURSE "${OUT}")
expect_refusal("run" --scenario "${FILE}" --out "${OUT}" --quiet)
if(EXISTS "${OUT}")
  message(FATAL_ERROR "run: a refused scenario created ${OUT}")
endif()
