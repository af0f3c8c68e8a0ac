// Seek, flee and arrive (Reynolds 1999). Each behaviour returns a steering force: the velocity
// it desires minus the agent's velocity. Desired speeds are the agent's prefSpeed (its cruising
// speed); maxSpeed is ORCA's limit.
#pragma once

#include "config.hpp"
#include "vec2.hpp"

namespace crowd {

/// `speed` in the direction of `offset`, or zero for a zero offset.
CROWD_HD inline Vec2 towards(Vec2 offset, float speed) {
  const float distSq = absSq(offset);
  return distSq > 0.0f ? offset * (speed / std::sqrt(distSq)) : Vec2(0.0f, 0.0f);
}

/// Desire full speed straight at `target`.
CROWD_HD inline Vec2 seekForce(Vec2 position, Vec2 velocity, Vec2 target, float speed) {
  return towards(target - position, speed) - velocity;
}

/// Desire full speed straight away from `threat`.
CROWD_HD inline Vec2 fleeForce(Vec2 position, Vec2 velocity, Vec2 threat, float speed) {
  return towards(position - threat, speed) - velocity;
}

/// The slowing radius arrive uses. Integrated with gain dt / mass per step (steering.hpp), arrive
/// is a damped oscillator whose stiffness is speed / radius; it is overdamped (stops without
/// overshoot) when radius >= 4 * mass * speed, so a smaller radius is raised to that. This holds
/// for mass >= dt (arriveStepRadius covers lighter agents) while maxForce does not cut the
/// braking short (maxForce >= speed on a straight approach).
CROWD_HD inline float arriveSlowingRadius(float slowingRadius, float mass, float speed) {
  const float critical = 4.0f * mass * speed;
  return slowingRadius > critical ? slowingRadius : critical;
}

/// The slowing radius arrive uses in a step of `timeStep`. The gain dt / mass is capped at 1
/// (steering.hpp), so an agent lighter than timeStep moves like one of mass timeStep: without
/// this, a light agent with a small radius (0.004 for mass 1e-3 and speed 1) steps past its point
/// and, at dt 0.25, swings round it for ever. `slowingRadius` is arriveSlowingRadius's already.
CROWD_HD inline float arriveStepRadius(float slowingRadius, float timeStep, float speed) {
  return arriveSlowingRadius(slowingRadius, timeStep, speed);
}

/// Seek, with the desired speed falling linearly from `speed` at slowingRadius to 0 on the target.
CROWD_HD inline Vec2 arriveForce(Vec2 position, Vec2 velocity, Vec2 target, float speed, float slowingRadius) {
  const Vec2 offset = target - position;
  const float dist = length(offset);
  if (!(dist > 0.0f)) return -velocity;
  const float desired = dist < slowingRadius ? speed * (dist / slowingRadius) : speed;
  return offset * (desired / dist) - velocity;
}

/// RVO2's goal rule as a force: the velocity it would prefer minus the current one.
CROWD_HD inline Vec2 goalForce(Vec2 position, Vec2 velocity, Vec2 goal, float speed) {
  return clipToLength(goal - position, speed) - velocity;
}

}  // namespace crowd
