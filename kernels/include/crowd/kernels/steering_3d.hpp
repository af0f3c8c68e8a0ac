// The steering phase in a 3D world: the behaviours that need no per-agent state and no planar
// geometry, with the planar code's own forces, combination and integration (steering.hpp):
// goal, seek, flee and arrive (towards or away from the agent's goal) and separation. The others
// (wander, path following, pursuit, evasion, obstacle avoidance, targets, the Frenet planner)
// are planar for now; Simulator3 refuses them.
#pragma once

#include "config.hpp"
#include "steering.hpp"
#include "step_view.hpp"
#include "vec3.hpp"

namespace crowd {

/// Whether a 3D world's steering phase computes `kind`.
CROWD_HD inline bool steersIn3d(BehaviorKind kind) {
  return kind == BehaviorKind::Goal || kind == BehaviorKind::Seek || kind == BehaviorKind::Flee ||
         kind == BehaviorKind::Arrive || kind == BehaviorKind::Separation;
}

/// The steered velocity of a 3D world's agent in sorted slot k, whose profile is not goal-only.
CROWD_HD inline Vec3 steeredVelocity(const StepView3& view, int k, StepTally&) {
  const AgentArrays3& a = view.agents;
  const std::uint32_t p = a.profile[k];
  const SteeringTerms& s = view.steering[p];
  const ProfileTerms& t = view.terms[p];
  const Vec3 position = a.position[k];
  const Vec3 velocity = a.velocity[k];
  const bool hasGoal = (a.flags[k] & kHasGoal) != 0;
  const Vec3 force = combinedForce<Vec3>(s, [&](BehaviorKind kind) {
    if (kind == BehaviorKind::Separation) {
      return separationForce(view.neighbours, a.position, k, s.separationRadius, t.prefSpeed);
    }
    return hasGoal ? pointForce(kind, s, t, position, velocity, a.goal[k], view.timeStep) : Vec3(0.0f);
  });
  return integrateSteering(velocity, force, s.maxForce, s.invMass, view.timeStep, t.maxSpeed);
}

}  // namespace crowd
