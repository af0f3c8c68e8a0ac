// For tests of the Frenet planner through the Simulator: a vehicle's parameters and a planning
// behaviour along a path, at the 0.1 s step vehicles use.
#pragma once

#include <cmath>
#include <numbers>
#include <vector>

#include <crowd/simulator.hpp>

namespace crowd::test {

inline SimulatorConfig planningConfig(int threads = 2) {
  SimulatorConfig config;
  config.timeStep = 0.1f;
  config.threads = threads;
  config.removeArrived = false;
  return config;
}

/// A car-sized disc at car-park speeds, looking 2 s ahead at others and 1 s at obstacles (ORCA
/// leaves the swerving round parked cars to the plan).
inline AgentParams vehicle() {
  AgentParams p;
  p.radius = 0.8f;
  p.prefSpeed = 3.0f;
  p.maxSpeed = 4.0f;
  p.neighborDist = 12.0f;
  p.maxNeighbors = 10;
  p.timeHorizon = 2.0f;
  p.timeHorizonObst = 1.0f;
  return p;
}

/// The Frenet planner along `path`, lanes 2.5 either side of the line.
inline Behavior planner(int path) {
  Behavior b;
  b.planner = LocalPlanner::Frenet;
  b.path = path;
  b.frenet.laneHalfWidth = 2.5f;
  return b;
}

/// The straight lane of the planner tests: 80 m along y = 0 (a new path), a vehicle at x = 2
/// with its goal at x = 79, and, when `parked`, a disc of radius 1 on the centre line at x = 40.
inline AgentId addLaneVehicle(Simulator& sim, bool parked) {
  const int path = sim.addPath(std::vector<Vec2>{{0, 0}, {80, 0}}, false);
  if (parked) sim.addCircle(Vec2(40, 0), 1.0f);
  AgentDef def;
  def.position = Vec2(2, 0);
  def.goal = Vec2(79, 0);
  def.params = vehicle();
  def.behavior = planner(path);
  return sim.addAgent(def);
}

/// A hairpin: 30 m out along y = 0, a U-turn of radius 1.5, 30 m back along y = 3; far sharper
/// than the planner's curvature limit allows at speed.
inline std::vector<Vec2> hairpin() {
  std::vector<Vec2> points{{0, 0}, {30, 0}};
  for (int i = 1; i < 8; ++i) {
    const double a = -std::numbers::pi / 2 + std::numbers::pi * i / 8;
    points.push_back(
        Vec2(static_cast<float>(30 + 1.5 * std::cos(a)), static_cast<float>(1.5 + 1.5 * std::sin(a))));
  }
  points.push_back(Vec2(30, 3));
  points.push_back(Vec2(0, 3));
  return points;
}

}  // namespace crowd::test
