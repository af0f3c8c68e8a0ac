// The steering phase in a 3D world: the behaviours that need no planar geometry, with the planar
// code's own forces, combination and integration (steering.hpp): goal, seek, flee and arrive
// (towards or away from the agent's target, else its goal), pursue and evade (the target's),
// separation, and wander. A planar pursuer estimates its target's velocity from the target's last
// two positions; here it reads the target's velocity, which is that same displacement over the
// last step (and, unlike the estimate, known from the first step on). Path following, obstacle
// avoidance and the Frenet planner are planar for now; Simulator3 refuses them.
#pragma once

#include "config.hpp"
#include "counter_random.hpp"
#include "steering.hpp"
#include "step_view.hpp"
#include "vec3.hpp"

namespace crowd {

/// Whether a 3D world's steering phase computes `kind`.
CROWD_HD inline bool steersIn3d(BehaviorKind kind) {
  return kind == BehaviorKind::Goal || kind == BehaviorKind::Seek || kind == BehaviorKind::Flee ||
         kind == BehaviorKind::Arrive || kind == BehaviorKind::Separation || kind == BehaviorKind::Pursue ||
         kind == BehaviorKind::Evade || kind == BehaviorKind::Wander;
}

/// The agent's heading: its direction of motion, or, at rest, a direction drawn from its id.
CROWD_HD inline Vec3 headingOf3(Vec3 velocity, std::uint64_t seed, std::uint32_t id) {
  const float speedSq = absSq(velocity);
  if (speedSq > 0.0f) return velocity * (1.0f / std::sqrt(speedSq));
  const std::uint64_t bits = counterRandom(seed, id, 0, kWanderStream);
  const Vec3 d(signedUnit(bits), signedUnit(bits << 24), signedUnit(bits << 48));
  return absSq(d) > 0.0f ? normalize(d) : Vec3(1.0f, 0.0f, 0.0f);
}

/// This step's wander direction in a 3D world: Reynolds' own construction, where the planar
/// wander turns by an angle. The last step's direction (the heading at first) moves by a random
/// displacement of up to jitter * timeStep in each coordinate, drawn from (seed, agent, step), and
/// is pulled back onto the unit sphere. The direction is kept in the world's frame: a sphere has
/// no "left" to keep it in its own.
CROWD_HD inline Vec3 jitterWander3(Vec3 previous, Vec3 heading, float jitter, float timeStep,
                                   std::uint64_t seed, std::uint32_t id, std::int64_t step) {
  const Vec3 start = absSq(previous) > 0.0f ? previous : heading;
  const std::uint64_t bits = counterRandom(seed, id, step, kWanderStream);
  const Vec3 moved =
      start + (jitter * timeStep) * Vec3(signedUnit(bits), signedUnit(bits << 24), signedUnit(bits << 48));
  return absSq(moved) > 0.0f ? normalize(moved) : start;
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
  const std::uint32_t self = a.id[k].index;
  const int slot = targetSlot(view, view.state.target[self]);
  const bool hasPoint = slot >= 0 || (a.flags[k] & kHasGoal) != 0;
  const Vec3 point = slot >= 0 ? a.position[slot] : a.goal[k];
  // The wander state moves on only where the profile wanders; the others keep theirs.
  Vec3 wander = view.state.wanderIn[self];
  Vec3 heading(0.0f);
  for (int i = 0; i < s.count; ++i) {
    if (s.kind[i] != BehaviorKind::Wander) continue;
    heading = headingOf3(velocity, view.seed, self);
    wander = jitterWander3(wander, heading, s.wanderJitter, view.timeStep, view.seed, self, view.step);
  }
  view.state.wanderOut[self] = wander;
  const Vec3 force = combinedForce<Vec3>(s, [&](BehaviorKind kind) {
    switch (kind) {
      case BehaviorKind::Separation:
        return separationForce(view.neighbours, a.position, k, s.separationRadius, t.prefSpeed);
      case BehaviorKind::Wander:
        // The wander target: on a sphere of wanderRadius, wanderDistance ahead.
        return seekForce(position, velocity, position + heading * s.wanderDistance + wander * s.wanderRadius,
                         t.prefSpeed);
      case BehaviorKind::Pursue:
        return slot >= 0 ? pursuitVelocity(s.pursuit, position, velocity, point, a.velocity[slot], t.maxSpeed,
                                           view.invTimeStep) -
                               velocity
                         : Vec3(0.0f);
      case BehaviorKind::Evade:
        return slot >= 0 ? evadeVelocity(position, point, a.velocity[slot], t.maxSpeed) - velocity
                         : Vec3(0.0f);
      default:
        return hasPoint ? pointForce(kind, s, t, position, velocity, point, view.timeStep) : Vec3(0.0f);
    }
  });
  return integrateSteering(velocity, force, s.maxForce, s.invMass, view.timeStep, t.maxSpeed);
}

}  // namespace crowd
