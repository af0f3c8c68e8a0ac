// Generating the agents of 3D groups, shared by 3D scenario files and the 3D built-ins: agents
// spread over a sphere heading for the antipodal point, and agents in a box.
#pragma once

#include <cmath>
#include <cstddef>
#include <numbers>
#include <vector>

#include <crowd/simulator3.hpp>
#include <crowd/stop_request.hpp>

#include "scenario/group_generation.hpp"

namespace crowd::scenario_detail {

/// Point `index` of `count` spread evenly over the unit sphere: the Fibonacci lattice (heights
/// evenly spaced, each turned by the golden angle from the one before), in double.
inline Vec3 fibonacciSpherePoint(std::size_t index, std::size_t count) {
  const double z = 1.0 - (2.0 * static_cast<double>(index) + 1.0) / static_cast<double>(count);
  const double ring = std::sqrt(1.0 - z * z);
  const double angle = static_cast<double>(index) * std::numbers::pi * (3.0 - std::sqrt(5.0));
  return Vec3(static_cast<float>(ring * std::cos(angle)), static_cast<float>(ring * std::sin(angle)),
              static_cast<float>(z));
}

/// `count` agents over the sphere of `radius` around `center`, each heading for the antipodal
/// point.
inline void addSphereGroup(std::vector<AgentDef3>& out, std::size_t count, float radius, Vec3 center,
                           const AgentParams& params) {
  for (std::size_t i = 0; i < count; ++i) {
    const Vec3 offset = radius * fibonacciSpherePoint(i, count);
    AgentDef3 agent;
    agent.position = center + offset;
    agent.goal = center - offset;
    agent.params = params;
    out.push_back(agent);
  }
}

/// How the agents of a box group move.
enum class BoxGoal { none, point, offset, box, prefVelocity };

/// Layers of a lattice that holds `count` points in a box, each layer a latticeShape: about
/// as many layers as the spacing the box's volume (or area) per point gives fit in its depth.
struct Lattice3 {
  LatticeShape layer;
  std::size_t layers = 1;
};

inline Lattice3 lattice3(std::size_t count, Vec3 extent) {
  Lattice3 lattice;
  if (count <= 1) return lattice;
  double measure = 1.0;
  int dimensions = 0;
  for (const float e : {extent.x, extent.y, extent.z}) {
    if (e > 0.0f) {
      measure *= e;
      ++dimensions;
    }
  }
  if (extent.z > 0.0f) {
    const double spacing = std::pow(measure / static_cast<double>(count), 1.0 / dimensions);
    const double layers = std::round(static_cast<double>(extent.z) / spacing);
    lattice.layers = static_cast<std::size_t>(std::clamp(layers, 1.0, static_cast<double>(count)));
  }
  lattice.layer = latticeShape((count + lattice.layers - 1) / lattice.layers, extent.x, extent.y);
  return lattice;
}

/// `count` agents in [min, max], on a lattice filled layer by layer, row by row (`random`
/// false) or uniformly at random; goals as `goal` says (`vector` is the point, offset or
/// preferred velocity; goals of BoxGoal::box are drawn from [goalMin, goalMax]).
inline void addBoxGroup(std::vector<AgentDef3>& out, std::size_t count, Vec3 min, Vec3 max, bool random,
                        BoxGoal goal, Vec3 vector, Vec3 goalMin, Vec3 goalMax, const AgentParams& params,
                        ScenarioRandom& draws) {
  auto drawIn = [&draws](Vec3 lo, Vec3 hi) {
    const float x = draws.floatBetween(lo.x, hi.x);
    const float y = draws.floatBetween(lo.y, hi.y);
    return Vec3(x, y, draws.floatBetween(lo.z, hi.z));
  };
  const Lattice3 lattice = lattice3(count, max - min);
  const std::size_t perLayer = lattice.layer.columns * lattice.layer.rows;
  auto latticePoint = [&](std::size_t k) {
    const std::size_t inLayer = k % perLayer;
    return Vec3(static_cast<float>(
                    latticeCoordinate(inLayer % lattice.layer.columns, lattice.layer.columns, min.x, max.x)),
                static_cast<float>(
                    latticeCoordinate(inLayer / lattice.layer.columns, lattice.layer.rows, min.y, max.y)),
                static_cast<float>(latticeCoordinate(k / perLayer, lattice.layers, min.z, max.z)));
  };
  for (std::size_t i = 0; i < count; ++i) {
    throwIfStopRequested("while placing agents");
    AgentDef3 agent;
    agent.position = random ? drawIn(min, max) : latticePoint(i);
    agent.params = params;
    switch (goal) {
      case BoxGoal::none:
        break;
      case BoxGoal::point:
        agent.goal = vector;
        break;
      case BoxGoal::offset:
        agent.goal = agent.position + vector;
        break;
      case BoxGoal::box:
        agent.goal = drawIn(goalMin, goalMax);
        break;
      case BoxGoal::prefVelocity:
        agent.prefVelocity = vector;
        break;
    }
    out.push_back(agent);
  }
}

}  // namespace crowd::scenario_detail
