# Whether to build the Python module (python/): LYNXSIM_PYTHON_MODULE is AUTO (when pybind11's CMake
# package, Debian's pybind11-dev, and the headers of the Python that runs lynxsim's tools are found;
# never in a sanitized build), ON (both required) or OFF. The interpreter is the project's
# .venv/bin/python3 when present, else Debian's /usr/bin/python3, unless Python_EXECUTABLE names
# one (scikit-build-core does, for `pip install .`). The module links the layers' static
# libraries, so lynxsim_add_layer builds them position-independent when it is built. Sets
# lynxsim_python_module.

set(LYNXSIM_PYTHON_MODULE AUTO CACHE STRING "Build the Python module lynxsim: AUTO, ON or OFF")
set_property(CACHE LYNXSIM_PYTHON_MODULE PROPERTY STRINGS AUTO ON OFF)
set(lynxsim_python_module FALSE)
if(LYNXSIM_PYTHON_MODULE STREQUAL "AUTO" AND LYNXSIM_SANITIZE)
  message(STATUS "lynxsim: a sanitized build does not build the Python module (a sanitized "
    "extension does not load into an unsanitized python3)")
elseif(NOT LYNXSIM_PYTHON_MODULE STREQUAL "OFF")
  if(NOT Python_EXECUTABLE)
    if(EXISTS "${CMAKE_SOURCE_DIR}/.venv/bin/python3")
      set(Python_EXECUTABLE "${CMAKE_SOURCE_DIR}/.venv/bin/python3")
    elseif(EXISTS /usr/bin/python3)
      set(Python_EXECUTABLE /usr/bin/python3)
    endif()
  endif()
  set(required)
  if(LYNXSIM_PYTHON_MODULE STREQUAL "ON")
    set(required REQUIRED)
  endif()
  find_package(Python 3.9 COMPONENTS Interpreter Development.Module ${required})
  if(Python_FOUND)
    find_package(pybind11 2.10 CONFIG ${required})
  endif()
  if(Python_FOUND AND pybind11_FOUND)
    set(lynxsim_python_module TRUE)
  else()
    message(STATUS "lynxsim: no pybind11 or Python headers (pybind11-dev, python3-dev): the Python module is not built")
  endif()
endif()
