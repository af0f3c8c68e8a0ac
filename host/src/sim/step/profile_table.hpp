// The profile table: each interned (parameters, behaviour) pair as the per-agent code reads it
// (ProfileTerms, SteeringTerms), with the maxima the grids are sized by. Rebuilt by the simulator
// core only when a profile is added.
#pragma once

#include <vector>

#include <crowd/agent_params.hpp>
#include <crowd/behavior.hpp>
#include <crowd/kernels/profile_terms.hpp>
#include <crowd/kernels/steering_terms.hpp>

namespace crowd {

struct ProfileTable {
  std::vector<ProfileTerms> terms;
  std::vector<SteeringTerms> steering;  ///< Indexed like terms.
  bool anySteering = false;             ///< Some profile is not goal-only.
  bool anyPlanners = false;             ///< Some profile has a local planner (agents keep tracks).
  bool anyPedestrianModels = false;     ///< Some profile moves by the CSM or the social force model.
  float maxNeighborDist = 0.0f;
  float maxObstacleRange = 0.0f;
  int maxNeighbors = 0;
};

/// The table of `profiles` with `behaviors` (indexed alike).
ProfileTable makeProfileTable(const std::vector<AgentParams>& profiles,
                              const std::vector<Behavior>& behaviors);

}  // namespace crowd
