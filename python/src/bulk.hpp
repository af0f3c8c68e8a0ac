// Many agents at once, from NumPy: add_agents (a row of positions each, goals optional, one set of
// parameters) and set_params_bulk (any parameter, one value per agent in the order of ids, or
// one for all). Both check every row before changing anything, so a refusal leaves the
// simulator as it was; the message names the row.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <crowd/agent_params.hpp>

#include "arrays.hpp"
#include "handle.hpp"

namespace crowd::python {

namespace py = pybind11;

/// One parameter for every agent: a scalar, or an (N,) array in the order of ids.
template <class T>
std::vector<T> perAgent(const py::object& values, std::size_t n, const char* name) {
  const auto array = py::array_t<T, py::array::c_style | py::array::forcecast>::ensure(values);
  if (!array) throw py::type_error(std::string(name) + ": expected a number or an array of numbers");
  if (array.ndim() == 0) return std::vector<T>(n, *array.data());
  if (array.ndim() != 1 || static_cast<std::size_t>(array.shape(0)) != n) {
    throw std::invalid_argument(std::string(name) + ": expected one value or " + std::to_string(n) +
                                " (one per agent), got an array of shape " +
                                std::string(py::str(py::object(array.attr("shape")))));
  }
  return std::vector<T>(array.data(), array.data() + n);
}

template <class Sim, class Vector>
void bindBulk(py::class_<SimulatorHandle<Sim>>& c) {
  using H = SimulatorHandle<Sim>;
  c.def(
      "add_agents",
      [](H& h, const FloatRows& positions, const std::optional<FloatRows>& goals,
         const std::optional<AgentParams>& params) {
        requireNoViews(h, "add_agents");
        const std::span<const Vector> at = vectorRows<Vector>(positions, "positions");
        std::span<const Vector> to;
        if (goals) {
          to = vectorRows<Vector>(*goals, "goals");
          if (to.size() != at.size()) {
            throw std::invalid_argument("goals: " + std::to_string(to.size()) + " rows for " +
                                        std::to_string(at.size()) + " positions");
          }
        }
        py::array_t<std::uint64_t> ids(static_cast<py::ssize_t>(at.size()));
        auto out = ids.mutable_unchecked<1>();
        std::vector<AgentId> added;
        added.reserve(at.size());
        try {
          for (std::size_t k = 0; k < at.size(); ++k) {
            AgentDefOf<Vector> def;
            def.position = at[k];
            if (goals) def.goal = to[k];
            if (params) def.params = *params;
            added.push_back(h.sim.addAgent(def));
            out(static_cast<py::ssize_t>(k)) = packId(added.back());
          }
        } catch (const std::invalid_argument& e) {
          for (const AgentId id : added) h.sim.removeAgent(id);  // All or none.
          throw std::invalid_argument("row " + std::to_string(added.size()) + ": " + e.what());
        }
        return ids;
      },
      py::arg("positions"), py::kw_only(), py::arg("goals") = py::none(), py::arg("params") = py::none(),
      "Adds an agent at each row of an (N, D) array, with the goal in the same row of `goals` if given,\n"
      "and returns their ids (uint64). Adds all or none: ValueError names the first bad row.");

  c.def(
      "set_params_bulk",
      [](H& h, const py::object& radius, const py::object& maxSpeed, const py::object& prefSpeed,
         const py::object& neighborDist, const py::object& maxNeighbors, const py::object& timeHorizon,
         const py::object& timeHorizonObst, const py::object& goalRadius) {
        const std::span<const AgentId> ids = h.sim.ids();
        const std::size_t n = ids.size();
        std::vector<AgentParams> next;
        next.reserve(n);
        for (const AgentId id : ids) next.push_back(h.sim.params(id));
        const auto apply = [&](const py::object& values, float AgentParams::*field, const char* name) {
          if (values.is_none()) return;
          const std::vector<float> v = perAgent<float>(values, n, name);
          for (std::size_t k = 0; k < n; ++k) next[k].*field = v[k];
        };
        apply(radius, &AgentParams::radius, "radius");
        apply(maxSpeed, &AgentParams::maxSpeed, "max_speed");
        apply(prefSpeed, &AgentParams::prefSpeed, "pref_speed");
        apply(neighborDist, &AgentParams::neighborDist, "neighbor_dist");
        apply(timeHorizon, &AgentParams::timeHorizon, "time_horizon");
        apply(timeHorizonObst, &AgentParams::timeHorizonObst, "time_horizon_obst");
        apply(goalRadius, &AgentParams::goalRadius, "goal_radius");
        if (!maxNeighbors.is_none()) {
          const std::vector<std::int64_t> v = perAgent<std::int64_t>(maxNeighbors, n, "max_neighbors");
          for (std::size_t k = 0; k < n; ++k) {
            if (v[k] < 0 || v[k] > INT32_MAX) {
              throw std::invalid_argument("row " + std::to_string(k) + ": max_neighbors out of range, got " +
                                          std::to_string(v[k]));
            }
            next[k].maxNeighbors = static_cast<int>(v[k]);
          }
        }
        for (std::size_t k = 0; k < n; ++k) {
          if (const std::string problem = checkAgentParams(next[k]); !problem.empty()) {
            throw std::invalid_argument("row " + std::to_string(k) + ": " + problem);
          }
        }
        // The ids view is the simulator's; setParams moves no agent, so it stays valid here.
        const std::vector<AgentId> order(ids.begin(), ids.end());
        for (std::size_t k = 0; k < n; ++k) h.sim.setParams(order[k], next[k]);
      },
      py::kw_only(), py::arg("radius") = py::none(), py::arg("max_speed") = py::none(),
      py::arg("pref_speed") = py::none(), py::arg("neighbor_dist") = py::none(),
      py::arg("max_neighbors") = py::none(), py::arg("time_horizon") = py::none(),
      py::arg("time_horizon_obst") = py::none(), py::arg("goal_radius") = py::none(),
      "Sets the parameters named, each one value for all agents or an (N,) array in the order of ids;\n"
      "the others stay as they are. Checks every agent first: ValueError names the first bad row and\n"
      "changes nothing.");
}

}  // namespace crowd::python
