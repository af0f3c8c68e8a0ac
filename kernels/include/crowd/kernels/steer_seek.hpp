// Seek, flee and arrive (Reynolds 1999). Each behaviour returns a steering force: the velocity
// it desires minus the agent's velocity. Desired speeds are the agent's prefSpeed (its cruising
// speed); maxSpeed is ORCA's limit. Vector is Vec2 or Vec3: these need no state and work alike
// in a planar and a 3D world.
#pragma once

#include "config.hpp"
#include "vec2.hpp"
#include "vec3.hpp"

namespace crowd {

/// `speed` in the direction of `offset`, or zero for a zero offset.
template <class Vector>
CROWD_HD inline Vector towards(Vector offset, float speed) {
  const float distSq = absSq(offset);
  return distSq > 0.0f ? offset * (speed / std::sqrt(distSq)) : Vector(0.0f);
}

/// Desire full speed straight at `target`.
template <class Vector>
CROWD_HD inline Vector seekForce(Vector position, Vector velocity, Vector target, float speed) {
  return towards(target - position, speed) - velocity;
}

/// Desire full speed straight away from `threat`.
template <class Vector>
CROWD_HD inline Vector fleeForce(Vector position, Vector velocity, Vector threat, float speed) {
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
template <class Vector>
CROWD_HD inline Vector arriveForce(Vector position, Vector velocity, Vector target, float speed,
                                   float slowingRadius) {
  const Vector offset = target - position;
  const float dist = length(offset);
  if (!(dist > 0.0f)) return -velocity;
  const float desired = dist < slowingRadius ? speed * (dist / slowingRadius) : speed;
  return offset * (desired / dist) - velocity;
}

/// RVO2's goal rule as a force: the velocity it would prefer minus the current one.
template <class Vector>
CROWD_HD inline Vector goalForce(Vector position, Vector velocity, Vector goal, float speed) {
  return clipToLength(goal - position, speed) - velocity;
}

}  // namespace crowd
