// 3D vector helpers over glm::vec3, for ORCA in three dimensions (orca_agents_3d.hpp). Like the
// 2D helpers (vec2.hpp) they divide by multiplying with the reciprocal, and normalise by
// multiplying with 1/sqrt(|v|^2), the order RVO2-3D rounds in.
#pragma once

#include <cmath>

#include <glm/vec3.hpp>

#include "config.hpp"

namespace crowd {

using Vec3 = glm::vec3;

CROWD_HD inline float dot(Vec3 a, Vec3 b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}

CROWD_HD inline float absSq(Vec3 v) {
  return v.x * v.x + v.y * v.y + v.z * v.z;
}

CROWD_HD inline float length(Vec3 v) {
  return std::sqrt(absSq(v));
}

CROWD_HD inline Vec3 cross(Vec3 a, Vec3 b) {
  return Vec3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

/// v / s as v * (1 / s).
CROWD_HD inline Vec3 divide(Vec3 v, float s) {
  const float inv = 1.0f / s;
  return Vec3(v.x * inv, v.y * inv, v.z * inv);
}

CROWD_HD inline Vec3 normalize(Vec3 v) {
  return divide(v, length(v));
}

/// No coordinate is infinite or NaN.
CROWD_HD inline bool isFinite(Vec3 v) {
  return v.x - v.x == 0.0f && v.y - v.y == 0.0f && v.z - v.z == 0.0f;
}

/// The preferred-velocity rule of RVO2-3D's examples: head for the goal, no faster than
/// prefSpeed (for prefSpeed 1, "normalise if longer than 1", as its Sphere example does).
CROWD_HD inline Vec3 clipToLength(Vec3 v, float maxLength) {
  if (absSq(v) > maxLength * maxLength) return normalize(v) * maxLength;
  return v;
}

}  // namespace crowd
