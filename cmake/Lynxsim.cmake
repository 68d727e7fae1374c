# Project-wide build helpers.
#
# Every layer of sim/ is one static library, lynxsim_<layer>. Its headers are reachable only as
# "sim/<layer>/x.hpp" through a private include tree made for that layer alone, so a layer sees the
# headers of the layers it links and no others: an include across the dependency direction of
# docs/design.md ("Layers") fails to compile. System libraries are checked when CMake configures: a layer whose
# files include <nlohmann/...>, <CLI/...>, <Eigen/...> or <boost/...> must name that library in its
# EXTERNAL list, so only the layers that declare JSON (the config layer, report, ...) can parse it.
# A layer marked NO_FILES (the model layers) may not include <fstream> or call fopen/open: its
# inputs are typed structs, and files are read by the configuration layer (sim/scenario) through
# the checked opener of sim/io.

function(lynxsim_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
      -Wold-style-cast -Woverloaded-virtual -Wnull-dereference -Wimplicit-fallthrough>)
endfunction()

function(lynxsim_sanitize target)
  if(LYNXSIM_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined -fno-omit-frame-pointer
      -fno-sanitize-recover=undefined)
    target_link_options(${target} PUBLIC -fsanitize=address,undefined)
  endif()
  if(LYNXSIM_FUZZ)
    target_compile_options(${target} PRIVATE -fsanitize=fuzzer-no-link)
  endif()
endfunction()

function(lynxsim_layer_include layer out_var)
  set(root "${CMAKE_BINARY_DIR}/layer_include/${layer}")
  file(MAKE_DIRECTORY "${root}/sim")
  if(NOT EXISTS "${root}/sim/${layer}")
    file(CREATE_LINK "${CMAKE_SOURCE_DIR}/sim/${layer}" "${root}/sim/${layer}" SYMBOLIC)
  endif()
  set(${out_var} "${root}" PARENT_SCOPE)
endfunction()

function(lynxsim_check_external_includes layer files externals)
  set(libraries "nlohmann=nlohmann_json::nlohmann_json" "CLI=CLI11::CLI11" "Eigen=Eigen3::Eigen"
    "boost=Boost::headers")
  foreach(file IN LISTS files)
    file(STRINGS "${file}" includes REGEX "^#include <(nlohmann|CLI|Eigen|boost)/")
    foreach(line IN LISTS includes)
      string(REGEX REPLACE "^#include <([A-Za-z]+)/.*" "\\1" prefix "${line}")
      foreach(pair IN LISTS libraries)
        string(REPLACE "=" ";" pair "${pair}")
        list(GET pair 0 name)
        list(GET pair 1 library)
        if(prefix STREQUAL name AND NOT library IN_LIST externals)
          message(FATAL_ERROR "${file} includes <${prefix}/...> but layer ${layer} does not list "
            "${library} in its EXTERNAL libraries")
        endif()
      endforeach()
    endforeach()
  endforeach()
endfunction()

function(lynxsim_check_no_files layer files)
  foreach(file IN LISTS files)
    file(STRINGS "${file}" uses REGEX "^#include <fstream>|[^a-z_]fopen\\(|std::(i|o)?fstream")
    if(uses)
      message(FATAL_ERROR "${file}: layer ${layer} opens no files; read the file in sim/scenario "
        "and pass a typed struct")
    endif()
  endforeach()
endfunction()

# lynxsim_add_layer(<layer> [NO_FILES] [DEPS lynxsim_x ...] [EXTERNAL target ...])
function(lynxsim_add_layer layer)
  cmake_parse_arguments(ARG "NO_FILES" "" "DEPS;EXTERNAL" ${ARGN})
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/sim/${layer}/*.cpp")
  file(GLOB_RECURSE headers CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/sim/${layer}/*.hpp")
  # A layer's sources include its concept subfolders; sim/<layer>/main/ holds executables' entry
  # points, which are not part of the library.
  list(FILTER sources EXCLUDE REGEX "/sim/${layer}/main/")
  set(target lynxsim_${layer})
  lynxsim_check_external_includes(${layer} "${sources};${headers}" "${ARG_EXTERNAL}")
  if(ARG_NO_FILES)
    lynxsim_check_no_files(${layer} "${sources};${headers}")
  endif()
  if(sources)
    add_library(${target} STATIC ${sources} ${headers})
    set(scope PUBLIC)
  else()
    add_library(${target} INTERFACE)
    set(scope INTERFACE)
  endif()
  lynxsim_layer_include(${layer} inc)
  target_include_directories(${target} ${scope} "${inc}")
  target_link_libraries(${target} ${scope} ${ARG_DEPS} ${ARG_EXTERNAL})
  if(sources)
    lynxsim_warnings(${target})
    lynxsim_sanitize(${target})
    if(lynxsim_python_module)
      set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
    endif()
  endif()
endfunction()

# lynxsim_add_tests(<layer> [DEPS extra targets ...]): tests/<layer>/*.cpp become test_<layer>.
function(lynxsim_add_tests layer)
  cmake_parse_arguments(ARG "" "" "DEPS" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/tests/${layer}/*.cpp")
  if(NOT sources)
    return()
  endif()
  set(target test_${layer})
  add_executable(${target} ${sources})
  target_link_libraries(${target} PRIVATE lynxsim_test_main lynxsim_${layer} ${ARG_DEPS})
  target_compile_definitions(${target} PRIVATE
    LYNXSIM_SOURCE_DIR="${CMAKE_SOURCE_DIR}" LYNXSIM_BINARY_DIR="${CMAKE_BINARY_DIR}")
  lynxsim_warnings(${target})
  lynxsim_sanitize(${target})
  add_test(NAME ${layer} COMMAND ${target})
endfunction()
