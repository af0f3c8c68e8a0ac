// The parts of the module crowd._crowd, each registering its names (module.cpp calls them in
// this order: a part may name the types of those before it).
#pragma once

#include <pybind11/pybind11.h>

namespace crowd::python {

namespace py = pybind11;

/// ScenarioError, InputError, SimulationError (errors.cpp).
void bindErrors(py::module_& m);
/// Config and AgentParams (config.cpp).
void bindConfig(py::module_& m);
/// Simulator and Simulator3 (simulator.cpp).
void bindSimulators(py::module_& m);
/// builtin, load, builtin_names (scenarios.cpp).
void bindScenarios(py::module_& m);

}  // namespace crowd::python
