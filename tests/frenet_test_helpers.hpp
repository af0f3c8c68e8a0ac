// For tests of the Frenet planner through the Simulator: a vehicle's parameters and a planning
// behaviour along a path, at the 0.1 s step vehicles use.
#pragma once

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

}  // namespace crowd::test
