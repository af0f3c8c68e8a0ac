// The 3D linear program that turns ORCA half-spaces into a velocity: the 2D program of
// linear_program.hpp one dimension up, with RVO2-3D's four stages:
//   solveOnLine3        (lp1): the best point on a line (two planes meeting), bounded by the
//                             earlier planes and the max-speed sphere;
//   solveOnPlane        (lp2): the best point on one plane, bounded likewise, falling back to
//                             lp1 where an earlier plane cuts it;
//   solveIncremental3   (lp3): Seidel-style incremental solve inside the max-speed sphere;
//   solveLeastViolation3 (lp4): when lp3 finds no feasible point, the velocity that minimises
//                             the largest violation, found as an lp3 over the bisecting planes.
// A plane's permitted side is the one its normal points to: dot(v - point, normal) >= 0.
#pragma once

#include <cmath>

#include "config.hpp"
#include "vec3.hpp"

namespace crowd {

/// Most half-spaces one agent has in 3D: one per neighbour (there are no 3D obstacles).
inline constexpr int kMaxOrcaPlanes = kMaxNeighbors;

struct OrcaPlane {
  Vec3 point;
  Vec3 normal;  ///< Unit length, towards the permitted side.
};

/// A line as the meeting of two planes: point + t * direction.
struct Line3 {
  Vec3 point;
  Vec3 direction;  ///< Unit length.
};

/// lp1: the best point on `line` subject to planes [0, planeCount) and |v| <= radius. With
/// `directionOpt`, `optVelocity` is a unit direction to go furthest along; otherwise the point to
/// get closest to. Returns false when no point of the line is feasible.
CROWD_HD inline bool solveOnLine3(const OrcaPlane* planes, int planeCount, const Line3& line, float radius,
                                  Vec3 optVelocity, bool directionOpt, Vec3& result) {
  const float along = dot(line.point, line.direction);
  const float discriminant = along * along + radius * radius - absSq(line.point);
  if (discriminant < 0.0f) return false;  // The line misses the max-speed sphere.
  const float half = std::sqrt(discriminant);
  float tLeft = -along - half;
  float tRight = -along + half;
  for (int i = 0; i < planeCount; ++i) {
    const float numerator = dot(planes[i].point - line.point, planes[i].normal);
    const float denominator = dot(line.direction, planes[i].normal);
    if (denominator * denominator <= kOrcaEpsilon) {
      // The line runs along plane i: all on its permitted side, or none of it.
      if (numerator > 0.0f) return false;
      continue;
    }
    const float t = numerator / denominator;
    if (denominator >= 0.0f) {
      tLeft = tLeft > t ? tLeft : t;  // Plane i bounds the line from below.
    } else {
      tRight = tRight < t ? tRight : t;
    }
    if (tLeft > tRight) return false;
  }
  float t;
  if (directionOpt) {
    t = dot(optVelocity, line.direction) > 0.0f ? tRight : tLeft;
  } else {
    t = dot(line.direction, optVelocity - line.point);
    t = t < tLeft ? tLeft : (t > tRight ? tRight : t);
  }
  result = line.point + t * line.direction;
  return true;
}

/// lp2: the best point on plane `planeNo` subject to planes [0, planeNo) and |v| <= radius.
/// Returns false when none is feasible.
CROWD_HD inline bool solveOnPlane(const OrcaPlane* planes, int planeNo, float radius, Vec3 optVelocity,
                                  bool directionOpt, Vec3& result) {
  const OrcaPlane& plane = planes[planeNo];
  const float planeDist = dot(plane.point, plane.normal);
  const float planeDistSq = planeDist * planeDist;
  const float radiusSq = radius * radius;
  if (planeDistSq > radiusSq) return false;  // The plane misses the max-speed sphere.
  // The plane cuts the sphere in a disc around planeCentre.
  const float discRadiusSq = radiusSq - planeDistSq;
  const Vec3 planeCentre = planeDist * plane.normal;
  if (directionOpt) {
    // Furthest along optVelocity within the disc: along its projection onto the plane.
    const Vec3 inPlane = optVelocity - dot(optVelocity, plane.normal) * plane.normal;
    const float inPlaneSq = absSq(inPlane);
    result =
        inPlaneSq <= kOrcaEpsilon ? planeCentre : planeCentre + std::sqrt(discRadiusSq / inPlaneSq) * inPlane;
  } else {
    // Nearest to optVelocity: its projection onto the plane, pulled into the disc.
    result = optVelocity + dot(plane.point - optVelocity, plane.normal) * plane.normal;
    if (absSq(result) > radiusSq) {
      const Vec3 fromCentre = result - planeCentre;
      result = planeCentre + std::sqrt(discRadiusSq / absSq(fromCentre)) * fromCentre;
    }
  }
  for (int i = 0; i < planeNo; ++i) {
    if (dot(planes[i].normal, planes[i].point - result) <= 0.0f) continue;  // Plane i holds.
    // The optimum lies on the line where plane i meets this one.
    const Vec3 meet = cross(planes[i].normal, plane.normal);
    if (absSq(meet) <= kOrcaEpsilon) return false;  // Parallel, and the result breaks plane i.
    Line3 line;
    line.direction = normalize(meet);
    // From plane.point, within this plane, straight towards plane i.
    const Vec3 across = cross(line.direction, plane.normal);
    line.point =
        plane.point +
        (dot(planes[i].point - plane.point, planes[i].normal) / dot(across, planes[i].normal)) * across;
    if (!solveOnLine3(planes, i, line, radius, optVelocity, directionOpt, result)) return false;
  }
  return true;
}

/// lp3: the velocity nearest `optVelocity` (or furthest along it, with `directionOpt`) within
/// |v| <= radius and every plane. Returns planeCount on success, else the plane at which it
/// failed, `result` then holding the best velocity for the planes before it.
CROWD_HD inline int solveIncremental3(const OrcaPlane* planes, int planeCount, float radius, Vec3 optVelocity,
                                      bool directionOpt, Vec3& result) {
  if (directionOpt) {
    result = optVelocity * radius;  // optVelocity is a unit vector here.
  } else if (absSq(optVelocity) > radius * radius) {
    result = normalize(optVelocity) * radius;
  } else {
    result = optVelocity;
  }
  for (int i = 0; i < planeCount; ++i) {
    if (dot(planes[i].normal, planes[i].point - result) <= 0.0f) continue;
    const Vec3 before = result;
    if (!solveOnPlane(planes, i, radius, optVelocity, directionOpt, result)) {
      result = before;
      return i;
    }
  }
  return planeCount;
}

/// lp4: from the planes [0, beginPlane) that lp3 satisfied, the velocity within |v| <= radius
/// that minimises the largest violation of all the planes. `result` holds lp3's best on entry.
CROWD_HD inline void solveLeastViolation3(const OrcaPlane* planes, int planeCount, int beginPlane,
                                          float radius, Vec3& result) {
  float distance = 0.0f;  // The largest violation reached so far.
  OrcaPlane projected[kMaxOrcaPlanes];
  for (int i = beginPlane; i < planeCount; ++i) {
    if (dot(planes[i].normal, planes[i].point - result) <= distance) continue;
    // Keep plane i's violation no worse than each earlier plane's: for each, the plane halfway
    // between the two, through the line where they meet.
    int count = 0;
    for (int j = 0; j < i; ++j) {
      OrcaPlane bisector;
      const Vec3 meet = cross(planes[j].normal, planes[i].normal);
      if (absSq(meet) <= kOrcaEpsilon) {
        // Parallel planes facing the same way: j's violation is never the larger one.
        if (dot(planes[i].normal, planes[j].normal) > 0.0f) continue;
        bisector.point = 0.5f * (planes[i].point + planes[j].point);
      } else {
        const Vec3 across = cross(meet, planes[i].normal);
        bisector.point = planes[i].point + (dot(planes[j].point - planes[i].point, planes[j].normal) /
                                            dot(across, planes[j].normal)) *
                                               across;
      }
      bisector.normal = normalize(planes[j].normal - planes[i].normal);
      projected[count++] = bisector;
    }
    const Vec3 before = result;
    // Furthest into plane i's permitted side within the bisectors.
    if (solveIncremental3(projected, count, radius, planes[i].normal, true, result) < count) {
      // In principle impossible (the bisectors always leave a point); rounding can still fail.
      result = before;
    }
    distance = dot(planes[i].normal, planes[i].point - result);
  }
}

/// The ORCA velocity: lp3 towards `prefVelocity`, and lp4 where the half-spaces leave no room.
CROWD_HD inline Vec3 solveOrca3(const OrcaPlane* planes, int planeCount, float maxSpeed, Vec3 prefVelocity) {
  Vec3 result(0.0f);
  const int failed = solveIncremental3(planes, planeCount, maxSpeed, prefVelocity, false, result);
  if (failed < planeCount) solveLeastViolation3(planes, planeCount, failed, maxSpeed, result);
  return result;
}

}  // namespace crowd
