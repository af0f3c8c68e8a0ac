// Scenarios for Python: a built-in by name, a file or a dict, each made into a simulator ready to
// step, with the options crowdsim run takes as keyword arguments. Loading goes through the same
// library calls as crowdsim's (apps/crowdsim/targets.cpp), so a bad file raises ScenarioError with
// the message crowdsim prints.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <pybind11/stl.h>

#include <crowd/scenario.hpp>
#include <crowd/scenario3.hpp>

#include "bindings.hpp"
#include "handle.hpp"

namespace crowd::python {

namespace {

/// crowdsim run's options that shape the simulator.
struct RunChoices {
  std::optional<std::int64_t> steps;
  std::string backend;
  int threads;
  bool exactRvo2;
  bool orca;
  bool metrics;
};

void warnAll(const std::vector<std::string>& warnings) {
  const py::object warn = py::module_::import("warnings").attr("warn");
  for (const std::string& w : warnings) warn(w, py::module_::import("builtins").attr("UserWarning"), 3);
}

template <class World, class Sim>
py::object ready(World scenario, Sim (*make)(const World&, int, BackendKind), const RunChoices& o) {
  if (o.steps) {
    if (*o.steps < 0) throw std::invalid_argument("steps must be >= 0, got " + std::to_string(*o.steps));
    scenario.steps = *o.steps;
  }
  if (o.orca) {
    for (auto& agent : scenario.agents) agent.behavior.avoidance = AvoidanceMode::Orca;
  }
  warnAll(scenario.warnings);
  auto handle = std::make_unique<SimulatorHandle<Sim>>(make(scenario, o.threads, backendNamed(o.backend)));
  SimulatorConfig config = handle->sim.config();
  config.exactRvo2 = o.exactRvo2;
  handle->sim.setConfig(config);
  handle->scenarioSteps = scenario.steps;
  handle->endWhenGoalsReached = scenario.endWhenGoalsReached;
  handle->scenarioName = scenario.name;
  handle->scenarioSeed = scenario.seed;
  handle->warnings = scenario.warnings;
  if (o.metrics) {
    handle->metrics.emplace();
    if constexpr (std::is_same_v<World, Scenario>)
      handle->metrics->setUnreachableAtStart(scenario.unreachableAgents);
    handle->metrics->observe(handle->sim);
  }
  return py::cast(std::move(handle));
}

Simulator makePlanar(const Scenario& s, int threads, BackendKind backend) {
  return makeSimulator(s, threads, backend);
}
Simulator3 make3(const Scenario3& s, int threads, BackendKind backend) {
  return makeSimulator3(s, threads, backend);
}

py::object builtin(const std::string& name, std::optional<std::size_t> agents,
                   std::optional<std::uint64_t> seed, const RunChoices& o) {
  if (isBuiltinScenario3(name)) return ready(builtinScenario3(name, agents, seed.value_or(1)), &make3, o);
  return ready(builtinScenario(name, agents, seed.value_or(1)), &makePlanar, o);
}

/// A file path, or a dict written out as JSON text for the same parser ("<dict>" names it in
/// messages; the JSON paths in them name the keys).
py::object load(py::object source, std::optional<std::uint64_t> seed, const RunChoices& o) {
  std::string text;
  std::string name;
  if (py::isinstance<py::dict>(source)) {
    text = py::module_::import("json").attr("dumps")(source, py::arg("indent") = 1).cast<std::string>();
    name = "<dict>";
  } else {
    name = py::str(py::module_::import("os").attr("fspath")(source)).cast<std::string>();
    try {
      text = readScenarioFileText(name);
    } catch (const ScenarioError& error) {
      // load("circle") meant the built-in, as crowdsim's `run circle` does (apps/crowdsim/targets.cpp).
      const std::vector<std::string> planar = builtinScenarioNames();
      const bool builtinName =
          std::find(planar.begin(), planar.end(), name) != planar.end() || isBuiltinScenario3(name);
      if (!builtinName || py::module_::import("os").attr("path").attr("exists")(name).cast<bool>()) throw;
      throw ScenarioError(std::string(error.what()) + " (for the built-in scenario, call crowd.builtin(\"" +
                          name + "\"))");
    }
  }
  if (scenarioDimensions(text, name) == 3) return ready(parseScenario3(text, name, seed), &make3, o);
  return ready(expandScenario(parseScenarioSpec(text, name), seed), &makePlanar, o);
}

}  // namespace

void bindScenarios(py::module_& m) {
  const char* optionsDoc =
      "The options of crowdsim run: steps (the run's length, run()'s default), backend (\"cpu\", \"cuda\",\n"
      "\"auto\"), threads (0: the backend chooses), exact_rvo2 (RVO2's results to the bit), orca (ORCA\n"
      "for every agent), metrics (collect what crowdsim run reports: Simulator.metrics()). The scenario's\n"
      "warnings are issued as UserWarning. Raises ScenarioError (a ValueError) with crowdsim's message.";
  m.def(
      "builtin",
      [](const std::string& name, std::optional<std::size_t> agents, std::optional<std::uint64_t> seed,
         std::optional<std::int64_t> steps, const std::string& backend, int threads, bool exactRvo2,
         bool orca, bool metrics) {
        return builtin(name, agents, seed, RunChoices{steps, backend, threads, exactRvo2, orca, metrics});
      },
      py::arg("name"), py::kw_only(), py::arg("agents") = py::none(), py::arg("seed") = py::none(),
      py::arg("steps") = py::none(), py::arg("backend") = "cpu", py::arg("threads") = 0,
      py::arg("exact_rvo2") = false, py::arg("orca") = false, py::arg("metrics") = true,
      (std::string(
           "A built-in scenario (builtin_names()) as a Simulator or Simulator3 ready to step; agents:\n"
           "another size, seed: another draw.\n") +
       optionsDoc)
          .c_str());
  m.def(
      "load",
      [](py::object source, std::optional<std::uint64_t> seed, std::optional<std::int64_t> steps,
         const std::string& backend, int threads, bool exactRvo2, bool orca, bool metrics) {
        return load(source, seed, RunChoices{steps, backend, threads, exactRvo2, orca, metrics});
      },
      py::arg("source"), py::kw_only(), py::arg("seed") = py::none(), py::arg("steps") = py::none(),
      py::arg("backend") = "cpu", py::arg("threads") = 0, py::arg("exact_rvo2") = false,
      py::arg("orca") = false, py::arg("metrics") = true,
      (std::string(
           "A scenario file (a path) or a dict in the scenario format (docs/scenario-format.md) as a\n"
           "Simulator or Simulator3 ready to step.\n") +
       optionsDoc)
          .c_str());
  m.def(
      "builtin_names",
      [] {
        std::vector<std::string> names = builtinScenarioNames();
        for (const std::string& n : builtinScenario3Names()) names.push_back(n);
        return names;
      },
      "The built-in scenarios' names, planar then 3D.");
  m.def(
      "describe_builtin",
      [](const std::string& name) {
        return isBuiltinScenario3(name) ? builtinScenario3Description(name)
                                        : builtinScenarioDescription(name);
      },
      py::arg("name"), "What a built-in scenario is, in a sentence.");
}

}  // namespace crowd::python
