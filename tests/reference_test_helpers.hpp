// Shared helpers for the reference simulator's tests (test_reference_sim.cpp and
// test_reference_obstacles.cpp).
#pragma once

#include <gtest/gtest.h>

#include "reference/reference_sim.hpp"

namespace reference_test {

using crowd_reference::RefAgent;
using crowd_reference::V2;

inline RefAgent makeAgent(V2 position, V2 velocity, V2 prefVelocity) {
  RefAgent agent;
  agent.position = position;
  agent.velocity = velocity;
  agent.prefVelocity = prefVelocity;
  agent.radius = 0.5;
  agent.maxSpeed = 2.0;
  agent.prefSpeed = 1.0;
  agent.neighborDist = 15.0;
  agent.maxNeighbors = 10;
  agent.timeHorizon = 2.0;
  agent.timeHorizonObst = 2.0;
  return agent;
}

inline void expectNear(V2 actual, V2 expected, double tolerance) {
  EXPECT_NEAR(actual.x, expected.x, tolerance);
  EXPECT_NEAR(actual.y, expected.y, tolerance);
}

}  // namespace reference_test
