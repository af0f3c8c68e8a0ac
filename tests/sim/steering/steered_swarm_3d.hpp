// A 3D swarm steered by every behaviour 3D agents have, for the tests that run it on several
// thread counts (test_steering_3d.cpp) and on both backends (cuda/test_cuda_backend_3d.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include <crowd/behavior.hpp>
#include <crowd/scenario3.hpp>

namespace crowd::test {

/// One behaviour at weight 1, avoiding others by `avoidance`.
inline Behavior only(BehaviorKind kind, AvoidanceMode avoidance = AvoidanceMode::Orca) {
  Behavior b;
  b.behaviors = {WeightedBehavior{kind, 1.0f}};
  b.avoidance = avoidance;
  return b;
}

/// The built-in swarm with its agents steered: every third arrives, the next seeks with some
/// separation, the next keeps RVO2's goal rule; every fifth wanders instead, and every seventh
/// pursues (even agents) or evades (odd ones) the next agent.
inline Scenario3 steeredSwarm(std::size_t agents, std::uint64_t seed) {
  Scenario3 s = builtinScenario3("swarm", agents, seed);
  for (std::size_t i = 0; i < s.agents.size(); ++i) {
    s.agents[i].behavior =
        only(i % 3 == 0 ? BehaviorKind::Arrive : (i % 3 == 1 ? BehaviorKind::Seek : BehaviorKind::Goal));
    if (i % 3 == 1)
      s.agents[i].behavior.behaviors.push_back(WeightedBehavior{BehaviorKind::Separation, 0.5f});
    if (i % 5 == 0) s.agents[i].behavior = only(BehaviorKind::Wander);
    if (i % 7 == 0) {  // Some pursue the next agent, some evade it.
      s.agents[i].behavior = only(i % 2 == 0 ? BehaviorKind::Pursue : BehaviorKind::Evade);
      s.agents[i].target = AgentId{static_cast<std::uint32_t>(i + 1), 0};
    }
  }
  return s;
}

}  // namespace crowd::test
