// What a scenario of either world holds once every agent is generated: its settings, its agents in
// agent-number order, and the warnings found while making it. The planar Scenario
// (crowd/scenario.hpp) adds obstacles, paths and routing; Scenario3 (crowd/scenario3.hpp) is this.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include <crowd/basic_simulator.hpp>

namespace crowd {

template <class Vector>
struct BasicScenario {
  std::string name;  ///< The file path or built-in name it came from.
  /// Seconds per step: RVO2's 0.25 in the plane, RVO2-3D's 0.125 in 3D. [Limit: limits::kTimeStep]
  float timeStep = std::is_same_v<Vector, Vec3> ? 0.125f : 0.25f;
  std::int64_t steps = 1000;   ///< Steps a run takes unless told otherwise. [Limit: >= 0]
  std::uint64_t seed = 1;      ///< Seeds every random choice made while generating it.
  bool removeArrived = false;  ///< Remove agents once they reach their goal.
  /// A run ends early once every agent with a goal has arrived, as when everyone has one, though
  /// others have none (wanderers, path followers and pursuers, which would go on for ever).
  bool endWhenGoalsReached = false;
  /// In agent-number order. A target is given by agent number: AgentDefOf::target->index is the
  /// number of the agent targeted (makeSimulator turns it into that agent's id).
  std::vector<AgentDefOf<Vector>> agents;
  std::vector<std::string> warnings;  ///< Legal but suspicious, e.g. agents that start overlapping.
};

}  // namespace crowd
