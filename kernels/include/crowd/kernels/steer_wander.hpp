// Wander (Reynolds 1999): a target on a circle of radius R a distance D ahead of the agent; the
// target's direction on the circle turns by a small random angle each step, so the agent meanders
// smoothly instead of twitching. The direction is kept as a unit vector in the agent's frame
// (x ahead, y to the left) and turned by a rational rotation (no trigonometric functions), so the
// CPU and the GPU compute bit-identical turns from the same random draw.
#pragma once

#include <cstdint>

#include "config.hpp"
#include "counter_random.hpp"
#include "steer_seek.hpp"
#include "vec2.hpp"

namespace crowd {

/// Stream of counterRandom used by wander (the deadlock jitter uses stream 0).
inline constexpr std::uint32_t kWanderStream = 7;

/// `v` turned by the angle whose half-angle tangent is t: cos = (1 - t^2) / (1 + t^2),
/// sin = 2t / (1 + t^2). Exact rotation for any t, and t ~ angle / 2 for small angles.
CROWD_HD inline Vec2 rotateByHalfTangent(Vec2 v, float t) {
  const float inv = 1.0f / (1.0f + t * t);
  const float c = (1.0f - t * t) * inv;
  const float s = 2.0f * t * inv;
  return Vec2(c * v.x - s * v.y, s * v.x + c * v.y);
}

/// The agent's heading: its direction of motion, or, at rest, a direction drawn from its id.
CROWD_HD inline Vec2 headingOf(Vec2 velocity, std::uint64_t seed, std::uint32_t id) {
  const float speedSq = absSq(velocity);
  if (speedSq > 0.0f) return velocity * (1.0f / std::sqrt(speedSq));
  const std::uint64_t bits = counterRandom(seed, id, 0, kWanderStream);
  const Vec2 d(signedUnit(bits), signedUnit(bits << 24));
  return absSq(d) > 0.0f ? normalize(d) : Vec2(1.0f, 0.0f);
}

/// This step's wander direction: last step's (straight ahead at first) turned by up to
/// jitter * timeStep radians, the fraction drawn from (seed, agent, step).
CROWD_HD inline Vec2 jitterWander(Vec2 previous, float jitter, float timeStep, std::uint64_t seed,
                                  std::uint32_t id, std::int64_t step) {
  const Vec2 start = absSq(previous) > 0.0f ? previous : Vec2(1.0f, 0.0f);
  const float turn = signedUnit(counterRandom(seed, id, step, kWanderStream)) * jitter * timeStep;
  const Vec2 turned = rotateByHalfTangent(start, 0.5f * turn);
  return normalize(turned);  // Renormalised so rounding never makes it drift off the unit circle.
}

/// The force towards the wander target for wander direction `direction` (agent frame).
CROWD_HD inline Vec2 wanderForce(Vec2 position, Vec2 velocity, Vec2 heading, Vec2 direction, float radius,
                                 float distance, float speed) {
  const Vec2 target = position + heading * distance + toWorld(direction, heading) * radius;
  return seekForce(position, velocity, target, speed);
}

}  // namespace crowd
