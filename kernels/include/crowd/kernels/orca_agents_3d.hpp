// The ORCA half-space one sphere-shaped agent gets from another in 3D (van den Berg et al. 2011;
// RVO2-3D's semantics). The velocity obstacle of B for A within the time horizon is a cone with
// its apex at the origin, cut off by a sphere of radius (rA + rB) / tau around pB - pA over tau.
// u is the smallest change of the relative velocity that takes it out of the obstacle; A takes
// half of it: the half-space is bounded by the plane through vA + u / 2 with normal u / |u|. The
// three cases: the relative velocity is nearest the cut-off sphere, nearest the cone's side, or
// the agents already overlap (the cut-off then uses the time step, to separate them in one step).
#pragma once

#include <cmath>

#include "config.hpp"
#include "linear_program_3d.hpp"
#include "vec3.hpp"

namespace crowd {

/// One agent as the half-space sees it.
struct Sphere3 {
  Vec3 position;
  Vec3 velocity;
  float radius;
};

/// A unit vector perpendicular to `axis` (non-zero), the same function of it for every agent:
/// the two agents of a pair, whose axes are opposite, get opposite vectors.
CROWD_HD inline Vec3 sideStep(Vec3 axis) {
  const float ax = axis.x < 0.0f ? -axis.x : axis.x;
  const float ay = axis.y < 0.0f ? -axis.y : axis.y;
  const float az = axis.z < 0.0f ? -axis.z : axis.z;
  // Crossed with the coordinate axis it is least aligned with: never near parallel.
  const Vec3 across = ax <= ay && ax <= az ? Vec3(1.0f, 0.0f, 0.0f)
                                           : (ay <= az ? Vec3(0.0f, 1.0f, 0.0f) : Vec3(0.0f, 0.0f, 1.0f));
  return normalize(cross(axis, across));
}

/// The half-space of velocities for `self` that avoid `other` for `1 / invTimeHorizon` seconds,
/// assuming `other` takes the other half of the avoidance. `invTimeStep` is 1 / the step length.
/// `separationHint` (coincidentSeparationHint3) is the direction used when the two agents share
/// both position and velocity.
CROWD_HD inline OrcaPlane agentOrcaPlane3(const Sphere3& self, const Sphere3& other, float invTimeHorizon,
                                          float invTimeStep, Vec3 separationHint) {
  const Vec3 relativePosition = other.position - self.position;
  const Vec3 relativeVelocity = self.velocity - other.velocity;
  const float distSq = absSq(relativePosition);
  const float combinedRadius = self.radius + other.radius;
  const float combinedRadiusSq = combinedRadius * combinedRadius;
  OrcaPlane plane;
  Vec3 u;
  if (distSq > combinedRadiusSq) {
    // From the centre of the cut-off sphere to the relative velocity.
    const Vec3 w = relativeVelocity - invTimeHorizon * relativePosition;
    const float wLengthSq = absSq(w);
    const float dotProduct = dot(w, relativePosition);
    if (dotProduct < 0.0f && dotProduct * dotProduct > combinedRadiusSq * wLengthSq) {
      // Nearest the cut-off sphere: push out along w.
      const float wLength = std::sqrt(wLengthSq);
      const Vec3 unitW = divide(w, wLength);
      plane.normal = unitW;
      u = (combinedRadius * invTimeHorizon - wLength) * unitW;
    } else {
      // Nearest the cone's side: the tangent point is found where the ray from the origin
      // through the relative velocity's foot on the cone meets it, t solving a quadratic.
      const float a = distSq;
      const float b = dot(relativePosition, relativeVelocity);
      const float c = absSq(relativeVelocity) -
                      absSq(cross(relativePosition, relativeVelocity)) / (distSq - combinedRadiusSq);
      // b^2 - ac cancels badly when the relative velocity points almost straight at the other
      // agent: rounding can take it below 0 (RVO2-3D's plane is then NaN). 0 is the nearest value
      // the exact one can have, and where it is positive nothing changes.
      const float discriminant = b * b - a * c;
      const float t = (b + std::sqrt(discriminant > 0.0f ? discriminant : 0.0f)) / a;
      const Vec3 ww = relativeVelocity - t * relativePosition;
      const float wwLength = length(ww);
      // Straight at each other (ww zero): every way round is as near, and RVO2-3D's plane is
      // NaN. Each agent steps aside perpendicular to the line between them, the two opposite ways.
      const Vec3 unitWW = wwLength > 0.0f ? divide(ww, wwLength) : sideStep(relativePosition);
      plane.normal = unitWW;
      u = (combinedRadius * t - wwLength) * unitWW;
    }
  } else {
    // Already overlapping: the cut-off sphere of the time step.
    const Vec3 w = relativeVelocity - invTimeStep * relativePosition;
    const float wLength = length(w);
    // On one point with one velocity, w is zero and has no direction: RVO2-3D's result is NaN.
    // The pair then separates along x, each agent the opposite way (decided by id).
    const Vec3 unitW = wLength > 0.0f ? divide(w, wLength) : separationHint;
    plane.normal = unitW;
    u = (combinedRadius * invTimeStep - wLength) * unitW;
  }
  plane.point = self.velocity + 0.5f * u;
  return plane;
}

/// Opposite directions for the two agents of a coincident pair, decided by their ids.
CROWD_HD inline Vec3 coincidentSeparationHint3(unsigned selfId, unsigned otherId) {
  return selfId < otherId ? Vec3(-1.0f, 0.0f, 0.0f) : Vec3(1.0f, 0.0f, 0.0f);
}

}  // namespace crowd
