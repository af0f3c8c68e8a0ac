// The steering phase in a 3D world: the behaviours that need no per-agent state beyond a target
// and no planar geometry, with the planar code's own forces, combination and integration
// (steering.hpp): goal, seek, flee and arrive (towards or away from the agent's target, else its
// goal), pursue and evade (the target's) and separation. A planar pursuer estimates its target's
// velocity from the target's last two positions; here it reads the target's velocity, which is
// that same displacement over the last step (and, unlike the estimate, known from the first step
// on). The others (wander, path following, obstacle avoidance, the Frenet planner) are planar for
// now; Simulator3 refuses them.
#pragma once

#include "config.hpp"
#include "steering.hpp"
#include "step_view.hpp"
#include "vec3.hpp"

namespace crowd {

/// Whether a 3D world's steering phase computes `kind`.
CROWD_HD inline bool steersIn3d(BehaviorKind kind) {
  return kind == BehaviorKind::Goal || kind == BehaviorKind::Seek || kind == BehaviorKind::Flee ||
         kind == BehaviorKind::Arrive || kind == BehaviorKind::Separation || kind == BehaviorKind::Pursue ||
         kind == BehaviorKind::Evade;
}

/// The sorted slot of agent k's target this step, or -1 when it has none or it is not alive.
CROWD_HD inline int targetSlot3(const StepView3& view, int k) {
  if (view.idCount == 0) return -1;
  const AgentId target = view.target[view.agents.id[k].index];
  if (target.index >= static_cast<std::uint32_t>(view.idCount)) return -1;
  const int slot = view.slotOfId[target.index];
  return slot >= 0 && view.agents.id[slot].generation == target.generation ? slot : -1;
}

/// The steered velocity of a 3D world's agent in sorted slot k, whose profile is not goal-only.
CROWD_HD inline Vec3 steeredVelocity(const StepView3& view, int k, StepTally&) {
  const AgentArrays3& a = view.agents;
  const std::uint32_t p = a.profile[k];
  const SteeringTerms& s = view.steering[p];
  const ProfileTerms& t = view.terms[p];
  const Vec3 position = a.position[k];
  const Vec3 velocity = a.velocity[k];
  // Seek, flee and arrive head for (away from) the target when it is alive, else the goal.
  const int slot = targetSlot3(view, k);
  const bool hasPoint = slot >= 0 || (a.flags[k] & kHasGoal) != 0;
  const Vec3 point = slot >= 0 ? a.position[slot] : a.goal[k];
  const Vec3 force = combinedForce<Vec3>(s, [&](BehaviorKind kind) {
    switch (kind) {
      case BehaviorKind::Separation:
        return separationForce(view.neighbours, a.position, k, s.separationRadius, t.prefSpeed);
      case BehaviorKind::Pursue:
        return slot >= 0 ? pursuitVelocity(s.pursuit, position, velocity, point, a.velocity[slot], t.maxSpeed,
                                           view.invTimeStep) -
                               velocity
                         : Vec3(0.0f);
      case BehaviorKind::Evade:
        return slot >= 0 ? evadeVelocity(position, velocity, point, a.velocity[slot], t.maxSpeed) - velocity
                         : Vec3(0.0f);
      default:
        return hasPoint ? pointForce(kind, s, t, position, velocity, point, view.timeStep) : Vec3(0.0f);
    }
  });
  return integrateSteering(velocity, force, s.maxForce, s.invMass, view.timeStep, t.maxSpeed);
}

}  // namespace crowd
