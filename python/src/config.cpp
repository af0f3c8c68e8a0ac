// Config (crowd::SimulatorConfig) and AgentParams (crowd::AgentParams) with Python's names:
// keyword constructors whose defaults are the library's, fields as attributes.
#include <string>

#include <pybind11/stl.h>

#include <crowd/agent_params.hpp>
#include <crowd/simulator_config.hpp>

#include "bindings.hpp"

namespace crowd::python {

BackendKind backendNamed(const std::string& name) {
  const std::optional<BackendKind> kind = parseBackendKind(name);
  if (!kind)
    throw std::invalid_argument("backend: expected \"auto\", \"cpu\" or \"cuda\", got \"" + name + "\"");
  return *kind;
}

void bindConfig(py::module_& m) {
  m.def(
      "cuda_available",
      [] {
        std::string why;
        const bool available = cudaBackendAvailable(&why);
        return std::pair<bool, std::string>(available, why);
      },
      "(True, \"\") when this build has the CUDA backend and a usable GPU is present; else (False, why).");
  const SimulatorConfig defaults;
  py::class_<SimulatorConfig>(m, "Config",
                              "Whole-simulation settings (crowd::SimulatorConfig); see docs/library.md.")
      .def(py::init([](float timeStep, bool removeArrived, int threads, float cellSize,
                       const std::string& backend, bool exactRvo2, std::uint64_t seed,
                       std::pair<double, double> origin) {
             SimulatorConfig c;
             c.timeStep = timeStep;
             c.removeArrived = removeArrived;
             c.threads = threads;
             c.cellSize = cellSize;
             c.backend = backendNamed(backend);
             c.exactRvo2 = exactRvo2;
             c.seed = seed;
             c.origin = {origin.first, origin.second};
             checkConfig(c);
             return c;
           }),
           py::kw_only(), py::arg("time_step") = defaults.timeStep,
           py::arg("remove_arrived") = defaults.removeArrived, py::arg("threads") = defaults.threads,
           py::arg("cell_size") = defaults.cellSize, py::arg("backend") = backendKindName(defaults.backend),
           py::arg("exact_rvo2") = defaults.exactRvo2, py::arg("seed") = defaults.seed,
           py::arg("origin") = std::pair<double, double>(0.0, 0.0),
           "Raises ValueError for a setting outside its limits.")
      .def_readwrite("time_step", &SimulatorConfig::timeStep, "Seconds per step.")
      .def_readwrite("remove_arrived", &SimulatorConfig::removeArrived,
                     "Remove agents once they reach their goal.")
      .def_readwrite("threads", &SimulatorConfig::threads, "CPU threads; 0 lets the backend choose.")
      .def_readwrite("cell_size", &SimulatorConfig::cellSize, "Agent grid cell side; 0 adapts it.")
      .def_property(
          "backend", [](const SimulatorConfig& c) { return std::string(backendKindName(c.backend)); },
          [](SimulatorConfig& c, const std::string& name) { c.backend = backendNamed(name); },
          "\"cpu\", \"cuda\" or \"auto\"; fixed when a simulator is made.")
      .def_readwrite("exact_rvo2", &SimulatorConfig::exactRvo2, "RVO2's results to the bit.")
      .def_readwrite("seed", &SimulatorConfig::seed, "Seeds the deadlock nudges.")
      .def_property(
          "origin",
          [](const SimulatorConfig& c) { return std::pair<double, double>(c.origin.x, c.origin.y); },
          [](SimulatorConfig& c, std::pair<double, double> o) {
            c.origin = {o.first, o.second};
          },
          "Where the simulator's frame sits in the world: positions are relative to it.")
      .def("__repr__", [](const SimulatorConfig& c) {
        return "Config(time_step=" + std::string(py::str(py::float_(c.timeStep))) +
               ", backend=" + backendKindName(c.backend) + ", threads=" + std::to_string(c.threads) +
               ", exact_rvo2=" + (c.exactRvo2 ? "True" : "False") + ")";
      });

  const AgentParams p;
  py::class_<AgentParams>(m, "AgentParams",
                          "An agent's parameters (crowd::AgentParams), with the library's defaults.")
      .def(py::init([](float radius, float maxSpeed, float prefSpeed, float neighborDist, int maxNeighbors,
                       float timeHorizon, float timeHorizonObst, float goalRadius) {
             return AgentParams{radius,       maxSpeed,    prefSpeed,       neighborDist,
                                maxNeighbors, timeHorizon, timeHorizonObst, goalRadius};
           }),
           py::kw_only(), py::arg("radius") = p.radius, py::arg("max_speed") = p.maxSpeed,
           py::arg("pref_speed") = p.prefSpeed, py::arg("neighbor_dist") = p.neighborDist,
           py::arg("max_neighbors") = p.maxNeighbors, py::arg("time_horizon") = p.timeHorizon,
           py::arg("time_horizon_obst") = p.timeHorizonObst, py::arg("goal_radius") = p.goalRadius)
      .def_readwrite("radius", &AgentParams::radius)
      .def_readwrite("max_speed", &AgentParams::maxSpeed)
      .def_readwrite("pref_speed", &AgentParams::prefSpeed)
      .def_readwrite("neighbor_dist", &AgentParams::neighborDist)
      .def_readwrite("max_neighbors", &AgentParams::maxNeighbors)
      .def_readwrite("time_horizon", &AgentParams::timeHorizon)
      .def_readwrite("time_horizon_obst", &AgentParams::timeHorizonObst)
      .def_readwrite("goal_radius", &AgentParams::goalRadius,
                     "Within this of its goal an agent has arrived; < 0: radius.");
}

}  // namespace crowd::python
