# The Python module's prerequisites (CROWD_PYTHON): Python 3 with its headers and pybind11's CMake
# package (Debian's python3-dev and pybind11-dev). Sets CROWD_HAVE_PYTHON; python/CMakeLists.txt
# then makes the library position-independent, as a shared object that links it needs.
macro(crowd_find_python)
  set(CROWD_HAVE_PYTHON OFF)
  set(CROWD_PYTHON_WHY "")
  if(CROWD_SANITIZE AND CROWD_PYTHON STREQUAL "AUTO")
    # An interpreter built without the sanitizers cannot load a module built with them.
    set(CROWD_PYTHON_WHY "not under sanitizers")
  elseif(CROWD_PYTHON STREQUAL "OFF")
    set(CROWD_PYTHON_WHY "CROWD_PYTHON=OFF")
  else()
    # Debian's interpreter is the one python3-numpy, python3-pandas and python3-pytest install for;
    # an interpreter found first on PATH (pyenv, conda) usually has none of them. Python_EXECUTABLE
    # chooses another (the wheel's build passes the interpreter that runs pip).
    if(NOT DEFINED Python_EXECUTABLE AND EXISTS /usr/bin/python3)
      set(Python_EXECUTABLE /usr/bin/python3)
    endif()
    find_package(Python 3.8 QUIET COMPONENTS Interpreter Development.Module)
    if(Python_FOUND)
      set(PYBIND11_FINDPYTHON ON)
      find_package(pybind11 2.10 CONFIG QUIET)
    endif()
    if(Python_FOUND AND pybind11_FOUND)
      set(CROWD_HAVE_PYTHON ON)
    elseif(CROWD_PYTHON STREQUAL "ON")
      message(FATAL_ERROR "CROWD_PYTHON=ON but Python 3 with its headers or pybind11 was not found "
                          "(apt-get install python3-dev pybind11-dev)")
    endif()
  endif()
  if(CROWD_HAVE_PYTHON)
    message(STATUS "crowd: Python module ON (Python ${Python_VERSION}, ${Python_EXECUTABLE}; pybind11 ${pybind11_VERSION})")
  elseif(CROWD_PYTHON_WHY)
    message(STATUS "crowd: Python module OFF (${CROWD_PYTHON_WHY})")
  else()
    message(STATUS "crowd: Python module OFF (needs Python 3 with its headers and pybind11: "
                   "apt-get install python3-dev pybind11-dev)")
  endif()
endmacro()
