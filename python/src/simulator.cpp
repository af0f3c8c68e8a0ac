// Simulator (planar) and Simulator3 (3D): the verbs both share, bound once over the world's
// vector type, then each world's own. Agent ids are Python ints (handle.hpp: packId).
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include <pybind11/stl.h>

#include <crowd/scene_geometry.hpp>
#include <crowd/version.hpp>

#include "arrays.hpp"
#include "bindings.hpp"
#include "bulk.hpp"
#include "stepping.hpp"
#include "vectors.hpp"

namespace crowd::python {

namespace {

template <class Sim>
py::dict metricsDict(const SimulatorHandle<Sim>& h) {
  if (!h.metrics) {
    throw std::runtime_error(
        "metrics: not collected; call start_metrics() first (or load with metrics=True)");
  }
  const RunFacts facts{h.scenarioName,      h.scenarioSeed,
                       h.warnings,          std::is_same_v<Sim, Simulator3> ? 3 : 2,
                       h.sim.backendName(), h.sim.config().timeStep};
  return py::module_::import("json").attr("loads")(runMetricsJson(h.metrics->result(), facts));
}

template <class Sim, class Vector>
void bindShared(py::class_<SimulatorHandle<Sim>>& c) {
  using H = SimulatorHandle<Sim>;
  c.def(py::init([](const SimulatorConfig& config) { return std::make_unique<H>(Sim(config)); }),
        py::arg("config") = SimulatorConfig{},
        "An empty world. Raises ValueError for settings outside their limits, RuntimeError when the backend\n"
        "asked for cannot run.")
      .def_property_readonly(
          "config", [](const H& h) { return h.sim.config(); },
          "A copy of the settings (change them with set_config).")
      .def(
          "set_config", [](H& h, const SimulatorConfig& config) { h.sim.setConfig(config); },
          py::arg("config"),
          "Changes the settings between steps; the backend stays the one chosen at construction.")
      .def(
          "add_agent",
          [](H& h, py::handle position, py::object goal, py::object velocity, py::object prefVelocity,
             const std::optional<AgentParams>& params, float startTime) {
            requireNoViews(h, "add_agent");
            AgentDefOf<Vector> def;
            def.position = toVector<Vector>(position, "position");
            if (!velocity.is_none()) def.velocity = toVector<Vector>(velocity, "velocity");
            if (!goal.is_none()) def.goal = toVector<Vector>(goal, "goal");
            if (!prefVelocity.is_none()) def.prefVelocity = toVector<Vector>(prefVelocity, "pref_velocity");
            if (params) def.params = *params;
            def.startTime = startTime;
            return packId(h.sim.addAgent(def));
          },
          py::arg("position"), py::kw_only(), py::arg("goal") = py::none(), py::arg("velocity") = py::none(),
          py::arg("pref_velocity") = py::none(), py::arg("params") = py::none(), py::arg("start_time") = 0.0f,
          "Adds an agent and returns its id (an int, stable until it is removed). With a goal the preferred\n"
          "velocity heads there; without one it is pref_velocity. Raises ValueError for values outside "
          "their\n"
          "limits, BufferError while views of the arrays are alive.")
      .def(
          "remove_agent",
          [](H& h, std::uint64_t id) {
            requireNoViews(h, "remove_agent");
            return h.sim.removeAgent(unpackId(id));
          },
          py::arg("id"),
          "Removes an agent; False if the id names no live agent. BufferError while views are alive.")
      .def(
          "contains", [](const H& h, std::uint64_t id) { return h.sim.contains(unpackId(id)); },
          py::arg("id"))
      .def("__contains__", [](const H& h, std::uint64_t id) { return h.sim.contains(unpackId(id)); })
      .def("__len__", [](const H& h) { return h.sim.agentCount(); })
      .def_property_readonly(
          "agent_count", [](const H& h) { return h.sim.agentCount(); }, "Live agents.")
      .def(
          "position", [](const H& h, std::uint64_t id) { return fromVector(h.sim.position(unpackId(id))); },
          py::arg("id"), "In the simulator's frame (see Config.origin). IndexError for an unknown id.")
      .def(
          "velocity", [](const H& h, std::uint64_t id) { return fromVector(h.sim.velocity(unpackId(id))); },
          py::arg("id"))
      .def(
          "preferred_velocity",
          [](const H& h, std::uint64_t id) { return fromVector(h.sim.prefVelocity(unpackId(id))); },
          py::arg("id"))
      .def(
          "goal",
          [](const H& h, std::uint64_t id) -> py::object {
            const auto goal = h.sim.goal(unpackId(id));
            return goal ? py::object(fromVector(*goal)) : py::none();
          },
          py::arg("id"))
      .def(
          "has_arrived", [](const H& h, std::uint64_t id) { return h.sim.hasArrived(unpackId(id)); },
          py::arg("id"))
      .def(
          "set_goal",
          [](H& h, std::uint64_t id, py::handle goal) {
            h.sim.setGoal(unpackId(id), toVector<Vector>(goal, "goal"));
          },
          py::arg("id"), py::arg("goal"))
      .def(
          "set_position",
          [](H& h, std::uint64_t id, py::handle p) {
            h.sim.setPosition(unpackId(id), toVector<Vector>(p, "position"));
          },
          py::arg("id"), py::arg("position"))
      .def(
          "set_preferred_velocity",
          [](H& h, std::uint64_t id, py::handle v) {
            h.sim.setPrefVelocity(unpackId(id), toVector<Vector>(v, "preferred velocity"));
          },
          py::arg("id"), py::arg("velocity"), "Sets one agent's preferred velocity; clears its goal.")
      .def(
          "set_preferred_velocities",
          [](H& h, const FloatRows& rows) {
            h.sim.setPrefVelocities(vectorRows<Vector>(rows, "velocities"));
          },
          py::arg("velocities"),
          "Sets every agent's preferred velocity from an (N, D) array in the order of ids (float32, or\n"
          "converted), clearing their goals. Raises ValueError, changing nothing, for a wrong shape or a\n"
          "non-finite or too large vector.")
      .def(
          "params", [](const H& h, std::uint64_t id) { return h.sim.params(unpackId(id)); }, py::arg("id"))
      .def(
          "set_params",
          [](H& h, std::uint64_t id, const AgentParams& p) { h.sim.setParams(unpackId(id), p); },
          py::arg("id"), py::arg("params"))
      .def_property_readonly(
          "positions", &positionsView<Sim>,
          "Every agent's position, (N, D) float32 in the order of ids: a read-only view of the\n"
          "simulator's memory, not a copy, that shows each later step. While any view is alive,\n"
          "add_agent and remove_agent raise BufferError.")
      .def_property_readonly("velocities", &velocitiesView<Sim>, "As positions, the velocities.")
      .def_property_readonly("ids", &idsView<Sim>,
                             "Every agent's id, uint64, in the order of positions (a view).")
      .def("step", &stepOnce<Sim>,
           "Advances every agent by one time step. Raises SimulationError, leaving the state as it was,\n"
           "if a velocity or position would not be finite.")
      .def("run", &runSteps<Sim>, py::kw_only(), py::arg("until") = py::none(), py::arg("steps") = py::none(),
           py::arg("callback") = py::none(), py::arg("progress") = py::none(),
           "Steps `steps` times, or until `until` seconds of simulated time, or (neither) the scenario's\n"
           "steps, ending early once everyone with a goal has arrived. callback(sim) runs after each step\n"
           "and ends the run by returning False. progress: a line on stderr (default: when it is a\n"
           "terminal). Returns the steps run.")
      .def_property_readonly("step_count", [](const H& h) { return h.sim.stepCount(); })
      .def_property_readonly(
          "time", [](const H& h) { return h.sim.time(); }, "Seconds simulated.")
      .def_property_readonly("time_step", [](const H& h) { return h.sim.config().timeStep; })
      .def_property_readonly("arrived_count", [](const H& h) { return h.sim.arrivedCount(); })
      .def_property_readonly(
          "backend", [](const H& h) { return h.sim.backendName(); }, "\"cpu\" or \"cuda\".")
      .def_property_readonly(
          "origin",
          [](const H& h) {
            return std::pair<double, double>(h.sim.config().origin.x, h.sim.config().origin.y);
          },
          "Where the frame sits in the world: world = origin + position.")
      .def_property_readonly(
          "warnings", [](const H& h) { return h.warnings; }, "The scenario's warnings.")
      .def_property_readonly(
          "scenario_steps", [](const H& h) { return h.scenarioSteps; },
          "Steps run() takes by default (0: none).")
      .def(
          "last_step_ms", [](const H& h) { return h.sim.lastStepTimes().total(); },
          "Milliseconds the last step took.")
      .def(
          "state_hash", [](const H& h) { return h.sim.stateHash(); },
          "A hash of every id, position and velocity: equal hashes mean identical states.")
      .def("__repr__",
           [](const H& h) {
             const char* world = std::is_same_v<Sim, Simulator3> ? "Simulator3" : "Simulator";
             char time[32];
             std::snprintf(time, sizeof time, "%.2f", h.sim.time());
             return "<crowd." + std::string(world) + ": " + std::to_string(h.sim.agentCount()) +
                    " agents, step " + std::to_string(h.sim.stepCount()) + ", " + time + " s, " +
                    h.sim.backendName() + ">";
           })
      .def(
          "start_metrics",
          [](H& h) {
            h.metrics.emplace();
            h.metrics->observe(h.sim);
          },
          "Starts collecting the run's metrics from the current state (what crowdsim run's summary reports).")
      .def("metrics", &metricsDict<Sim>,
           "The metrics collected so far as a dict, as crowdsim run --metrics writes them.");
}

}  // namespace

void bindSimulators(py::module_& m) {
  py::class_<PlanarHandle> planar(m, "Simulator", "A planar world: agents (discs), obstacles, ORCA.");
  bindShared<Simulator, Vec2>(planar);
  bindBulk<Simulator, Vec2>(planar);
  planar
      .def(
          "add_obstacle",
          [](PlanarHandle& h, const FloatRows& vertices) {
            const std::span<const Vec2> points = vectorRows<Vec2>(vertices, "vertices");
            return h.sim.addObstacle(points);
          },
          py::arg("vertices"),
          "Adds a polygon (counter-clockwise: solid; clockwise: a boundary that keeps agents in) or a wall\n"
          "of two vertices; returns its number.")
      .def(
          "add_circle",
          [](PlanarHandle& h, py::handle center, float radius) {
            return h.sim.addCircle(toVector<Vec2>(center, "center"), radius);
          },
          py::arg("center"), py::arg("radius"))
      .def(
          "walkable_area_wkt",
          [](const PlanarHandle& h, double margin) { return walkableAreaWkt(walkableArea(h.sim, margin)); },
          py::arg("margin") = 1.0,
          "The walkable area as a WKT POLYGON in world coordinates (pedpy.WalkableArea(wkt)), as\n"
          "crowdsim geometry writes it.");

  py::class_<Handle3> world3(m, "Simulator3", "A 3D world: spheres avoiding each other by ORCA.");
  bindShared<Simulator3, Vec3>(world3);
  bindBulk<Simulator3, Vec3>(world3);
}

}  // namespace crowd::python
