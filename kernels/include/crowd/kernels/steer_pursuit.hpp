// Pursuit and evasion, the three rules of the classic game-AI literature. Each returns the
// velocity the pursuer desires; the steering phase turns it into a force (desired - velocity).
//   chase      each axis moves towards the target's coordinate (the pursuer runs diagonally
//              until one coordinate matches, then straight): speed maxSpeed per axis, landing on
//              the coordinate when it is less than a step away, the whole clipped to maxSpeed.
//   sight      straight at the target's current position at full speed.
//   intercept  the target's velocity vT (in a planar world estimated from its positions in the
//              last two steps; a 3D one reads its velocity: steering_3d.hpp); the
//              closing velocity vT - vP, the closing distance pT - pP, the closing time
//              tc = |pT - pP| / |vT - vP|; full speed at the target's position after tc,
//              pT + vT * tc.
//   evade      flee the pursuer's position predicted after the look-ahead time
//              T = |pP - pE| / (evader's maxSpeed + pursuer's speed) (Reynolds, Buckland).
// The closing time is exact once the pursuer flies the interception course (then
// pP + vP tc = pT + vT tc), but read literally it misleads a pursuer that is off that course: one
// that has caught up and passed its target (|vT - vP| large, pointing away) keeps aiming ahead
// of it and runs off. So intercept takes the time at which the pursuer, at full speed, meets the
// target (the fixed point the closing time converges to, solved in closed form), and falls back
// to the closing time only when no meeting is possible (a slower pursuer the target outruns).
// Evasion does not take the closing time: a faster pursuer coming from behind closes slowly, and
// its position after that time lies ahead of the evader, which would then turn round into it.
// The look-ahead T never carries the pursuer farther than the gap (|vP| T < |pP - pE|).
// Vector is Vec2 or Vec3: the rules are the same in a planar and a 3D world.
#pragma once

#include "config.hpp"
#include "steer_seek.hpp"
#include "steering_terms.hpp"
#include "vec2.hpp"
#include "vec3.hpp"

namespace crowd {

CROWD_HD inline float clampAxis(float v, float limit) {
  return v > limit ? limit : (v < -limit ? -limit : v);
}

/// Coordinate chase.
template <class Vector>
CROWD_HD inline Vector chaseVelocity(Vector position, Vector target, float maxSpeed, float invTimeStep) {
  Vector perAxis = (target - position) * invTimeStep;  // Lands on the coordinate in one step.
  for (int i = 0; i < Vector::length(); ++i) perAxis[i] = clampAxis(perAxis[i], maxSpeed);
  return clipToLength(perAxis, maxSpeed);
}

/// Line of sight.
template <class Vector>
CROWD_HD inline Vector sightVelocity(Vector position, Vector target, float maxSpeed) {
  return towards(target - position, maxSpeed);
}

/// The closing time of the intercept rule. When the closing speed is nearly zero (the pair moves
/// alike) the prediction would run to infinity: the closing speed is then taken as at least a
/// tenth of the pursuer's maxSpeed, which bounds tc by ten times the time to cover the gap.
template <class Vector>
CROWD_HD inline float closingTime(Vector position, Vector velocity, Vector target, Vector targetVelocity,
                                  float maxSpeed) {
  const float distance = length(target - position);
  const float closing = length(targetVelocity - velocity);
  const float floor = 0.1f * maxSpeed;
  const float speed = closing > floor ? closing : floor;
  return speed > 0.0f ? distance / speed : 0.0f;
}

/// The earliest time t >= 0 at which a pursuer leaving `position` at `speed` in a straight line
/// can meet a target at `target` moving at `targetVelocity`: the smallest non-negative root of
/// |Sr + vT t| = speed t, i.e. (|vT|^2 - speed^2) t^2 + 2 (Sr . vT) t + |Sr|^2 = 0; -1 if none.
template <class Vector>
CROWD_HD inline float meetingTime(Vector position, Vector target, Vector targetVelocity, float speed) {
  const Vector gap = target - position;
  const float a = absSq(targetVelocity) - speed * speed;
  const float b = 2.0f * dot(gap, targetVelocity);
  const float c = absSq(gap);
  if (a == 0.0f) return b < 0.0f ? c / -b : -1.0f;
  const float discriminant = b * b - 4.0f * a * c;
  if (discriminant < 0.0f) return -1.0f;
  // The root (-b - sqrt(D)) / 2a: for a < 0 (a faster pursuer) the roots have opposite signs and
  // this is the positive one; for a > 0 both share the sign of -b, and this is the smaller. With
  // b < 0 it is written 2c / (-b + sqrt(D)) (the same root, since the roots' product is c / a):
  // the difference -b - sqrt(D) loses every digit when the speeds are nearly equal (a near 0).
  const float root = std::sqrt(discriminant);
  const float t = b < 0.0f ? 2.0f * c / (root - b) : (-b - root) / (2.0f * a);
  return t >= 0.0f ? t : -1.0f;
}

/// Where the intercept rule aims: the target's position when a full-speed pursuer can meet it, or,
/// if it cannot, after the closing time.
template <class Vector>
CROWD_HD inline Vector interceptPoint(Vector position, Vector velocity, Vector target, Vector targetVelocity,
                                      float maxSpeed) {
  const float meeting = meetingTime(position, target, targetVelocity, maxSpeed);
  const float t =
      meeting >= 0.0f ? meeting : closingTime(position, velocity, target, targetVelocity, maxSpeed);
  return target + targetVelocity * t;
}

/// Intercept.
template <class Vector>
CROWD_HD inline Vector interceptVelocity(Vector position, Vector velocity, Vector target,
                                         Vector targetVelocity, float maxSpeed) {
  return towards(interceptPoint(position, velocity, target, targetVelocity, maxSpeed) - position, maxSpeed);
}

/// Evasion: full speed away from the pursuer's position predicted after the look-ahead time.
template <class Vector>
CROWD_HD inline Vector evadeVelocity(Vector position, Vector pursuer, Vector pursuerVelocity,
                                     float maxSpeed) {
  const float speeds = maxSpeed + length(pursuerVelocity);
  const float lookAhead = speeds > 0.0f ? length(pursuer - position) / speeds : 0.0f;
  return towards(position - (pursuer + pursuerVelocity * lookAhead), maxSpeed);
}

/// The pursuit rule `kind` asks for.
template <class Vector>
CROWD_HD inline Vector pursuitVelocity(PursuitKind kind, Vector position, Vector velocity, Vector target,
                                       Vector targetVelocity, float maxSpeed, float invTimeStep) {
  switch (kind) {
    case PursuitKind::Chase:
      return chaseVelocity(position, target, maxSpeed, invTimeStep);
    case PursuitKind::Sight:
      return sightVelocity(position, target, maxSpeed);
    case PursuitKind::Intercept:
      break;
  }
  return interceptVelocity(position, velocity, target, targetVelocity, maxSpeed);
}

}  // namespace crowd
