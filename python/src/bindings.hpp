// The parts of the module crowd._crowd, each registering its names (module.cpp calls them in
// this order: a part may name the types of those before it).
#pragma once

#include <string>

#include <pybind11/pybind11.h>

#include <crowd/simulator_config.hpp>

namespace crowd::python {

namespace py = pybind11;

/// The backend named "auto", "cpu" or "cuda"; std::invalid_argument (ValueError) for another name.
BackendKind backendNamed(const std::string& name);

/// ScenarioError, InputError, SimulationError (errors.cpp).
void bindErrors(py::module_& m);
/// Config and AgentParams (config.cpp).
void bindConfig(py::module_& m);
/// Simulator and Simulator3 (simulator.cpp).
void bindSimulators(py::module_& m);
/// builtin, load, builtin_names (scenarios.cpp).
void bindScenarios(py::module_& m);

}  // namespace crowd::python
