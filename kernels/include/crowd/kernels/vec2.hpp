// 2D vector helpers over glm::vec2, written to round exactly as RVO2's Vector2 does:
// a division by a scalar is a multiplication by its reciprocal, and normalisation multiplies
// by 1/sqrt(|v|^2). Keeping that order is what lets results match RVO2 to the last bit.
#pragma once

#include <cmath>

#include <glm/vec2.hpp>

#include "config.hpp"

namespace crowd {

using Vec2 = glm::vec2;

CROWD_HD inline float dot(Vec2 a, Vec2 b) {
  return a.x * b.x + a.y * b.y;
}

CROWD_HD inline float absSq(Vec2 v) {
  return v.x * v.x + v.y * v.y;
}

CROWD_HD inline float length(Vec2 v) {
  return std::sqrt(absSq(v));
}

/// 2D cross product: positive when b is counter-clockwise of a.
CROWD_HD inline float det(Vec2 a, Vec2 b) {
  return a.x * b.y - a.y * b.x;
}

/// v / s as v * (1 / s).
CROWD_HD inline Vec2 divide(Vec2 v, float s) {
  const float inv = 1.0f / s;
  return Vec2(v.x * inv, v.y * inv);
}

CROWD_HD inline Vec2 normalize(Vec2 v) {
  return divide(v, length(v));
}

/// Signed area test: positive when c lies to the left of the directed line a -> b.
CROWD_HD inline float leftOf(Vec2 a, Vec2 b, Vec2 c) {
  return det(a - c, b - a);
}

/// Rotates v by +90 degrees.
CROWD_HD inline Vec2 perpLeft(Vec2 v) {
  return Vec2(-v.y, v.x);
}

CROWD_HD inline float sqr(float s) {
  return s * s;
}

/// Neither coordinate is infinite or NaN (x - x is 0 exactly for every finite x, NaN otherwise).
CROWD_HD inline bool isFinite(Vec2 v) {
  return v.x - v.x == 0.0f && v.y - v.y == 0.0f;
}

/// Squared distance from point c to the segment a-b.
CROWD_HD inline float distSqPointSegment(Vec2 a, Vec2 b, Vec2 c) {
  const Vec2 ab = b - a;
  const float r = dot(c - a, ab) / absSq(ab);
  if (r < 0.0f) return absSq(c - a);
  if (r > 1.0f) return absSq(c - b);
  return absSq(c - (a + r * ab));
}

/// Unit directions of the two tangents from the origin to the disc of radius `radius` centred
/// at `p` (|p|^2 = distSq > radius^2), given leg = sqrt(distSq - radius^2): the left one (the
/// disc on its right) and the right one. These are the legs of a velocity obstacle's cone.
CROWD_HD inline Vec2 leftTangent(Vec2 p, float distSq, float radius, float leg) {
  return divide(Vec2(p.x * leg - p.y * radius, p.x * radius + p.y * leg), distSq);
}
CROWD_HD inline Vec2 rightTangent(Vec2 p, float distSq, float radius, float leg) {
  return divide(Vec2(p.x * leg + p.y * radius, -p.x * radius + p.y * leg), distSq);
}

/// `local` given in the frame whose x axis is the unit vector `heading` (y to its left), in world
/// coordinates.
CROWD_HD inline Vec2 toWorld(Vec2 local, Vec2 heading) {
  return Vec2(heading.x * local.x - heading.y * local.y, heading.y * local.x + heading.x * local.y);
}

/// The preferred-velocity rule of RVO2's examples: head for the goal, no faster than prefSpeed.
CROWD_HD inline Vec2 clipToLength(Vec2 v, float maxLength) {
  if (absSq(v) > maxLength * maxLength) return normalize(v) * maxLength;
  return v;
}

}  // namespace crowd
