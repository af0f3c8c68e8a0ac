// Small builders shared by the steering tests.
#pragma once

#include <initializer_list>

#include <crowd/behavior.hpp>
#include <crowd/simulator.hpp>

namespace crowd::test {

inline Behavior behaviorOf(std::initializer_list<BehaviorKind> kinds) {
  Behavior b;
  b.behaviors.clear();
  for (const BehaviorKind kind : kinds) b.behaviors.push_back(WeightedBehavior{kind, 1.0f});
  return b;
}

inline SimulatorConfig configWith(float timeStep, int threads = 2) {
  SimulatorConfig config;
  config.timeStep = timeStep;
  config.threads = threads;
  return config;
}

}  // namespace crowd::test
