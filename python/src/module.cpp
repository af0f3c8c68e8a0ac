// The module crowd._crowd: the library's simulators, scenarios and errors for Python. The
// package crowd (python/crowd/__init__.py) re-exports it; its stubs are python/crowd/_crowd.pyi.
#include <pybind11/pybind11.h>

#include <crowd/version.hpp>

#include "bindings.hpp"

PYBIND11_MODULE(_crowd, m) {
  m.doc() = "crowd's simulators, scenarios and errors (the C++ library crowd, bound with pybind11)";
  m.attr("__version__") = crowd::version();
  m.attr("git_revision") = crowd::gitRevision();
  crowd::python::bindErrors(m);
  crowd::python::bindConfig(m);
  crowd::python::bindSimulators(m);
  crowd::python::bindScenarios(m);
}
