// The 2D linear program that turns ORCA half-planes into a velocity (van den Berg et al.,
// "Reciprocal n-body collision avoidance", 2011, section 5.2). Three stages, as in RVO2:
//   solveOnLine  (lp1): the best point on one line, bounded by the earlier lines and the circle;
//   solveIncremental (lp2): Seidel-style incremental solve inside the max-speed circle;
//   solveLeastViolation (lp3): when lp2 finds no feasible point, the velocity that minimises the
//   largest violation of the agent half-planes, obstacle half-planes staying hard.
#pragma once

#include <cmath>

#include "config.hpp"
#include "vec2.hpp"

namespace crowd {

/// A directed line; the permitted half-plane is to its left: det(direction, v - point) >= 0.
struct OrcaLine {
  Vec2 point;
  Vec2 direction;  ///< Unit length.
};

/// lp1: optimises along line `lineNo` subject to lines [0, lineNo) and |v| <= radius.
/// With `directionOpt`, `optVelocity` is a unit direction to go furthest along; otherwise the
/// point to get closest to. Returns false when that line has no feasible point.
CROWD_HD inline bool solveOnLine(const OrcaLine* lines, int lineNo, float radius, Vec2 optVelocity,
                                 bool directionOpt, Vec2& result) {
  const OrcaLine& line = lines[lineNo];
  const float dotProduct = dot(line.point, line.direction);
  const float discriminant = sqr(dotProduct) + sqr(radius) - absSq(line.point);
  if (discriminant < 0.0f) return false;  // The max-speed circle misses this line entirely.

  const float sqrtDiscriminant = std::sqrt(discriminant);
  float tLeft = -dotProduct - sqrtDiscriminant;
  float tRight = -dotProduct + sqrtDiscriminant;

  for (int i = 0; i < lineNo; ++i) {
    const float denominator = det(line.direction, lines[i].direction);
    const float numerator = det(lines[i].direction, line.point - lines[i].point);
    if (std::fabs(denominator) <= kOrcaEpsilon) {
      // Parallel lines: either line i excludes all of this line, or it constrains nothing.
      if (numerator < 0.0f) return false;
      continue;
    }
    const float t = numerator / denominator;
    if (denominator >= 0.0f) {
      tRight = tRight < t ? tRight : t;  // Line i bounds this line on the right.
    } else {
      tLeft = tLeft > t ? tLeft : t;  // Line i bounds this line on the left.
    }
    if (tLeft > tRight) return false;
  }

  if (directionOpt) {
    result = line.point + (dot(optVelocity, line.direction) > 0.0f ? tRight : tLeft) * line.direction;
  } else {
    const float t = dot(line.direction, optVelocity - line.point);
    const float clamped = t < tLeft ? tLeft : (t > tRight ? tRight : t);
    result = line.point + clamped * line.direction;
  }
  return true;
}

/// lp2: the velocity closest to `optVelocity` (or furthest along it, with `directionOpt`) that
/// satisfies every line and |v| <= radius. Returns `lineCount` on success, otherwise the index
/// of the first line that could not be satisfied; `result` then holds the last feasible point.
CROWD_HD inline int solveIncremental(const OrcaLine* lines, int lineCount, float radius, Vec2 optVelocity,
                                     bool directionOpt, Vec2& result) {
  if (directionOpt) {
    result = optVelocity * radius;  // optVelocity is a unit vector here.
  } else if (absSq(optVelocity) > sqr(radius)) {
    result = normalize(optVelocity) * radius;
  } else {
    result = optVelocity;
  }

  for (int i = 0; i < lineCount; ++i) {
    if (det(lines[i].direction, lines[i].point - result) > 0.0f) {
      // The current result violates line i: the new optimum lies on line i.
      const Vec2 previous = result;
      if (!solveOnLine(lines, i, radius, optVelocity, directionOpt, result)) {
        result = previous;
        return i;
      }
    }
  }
  return lineCount;
}

/// lp3: lines [0, obstacleLineCount) are obstacle lines and stay hard; among the agent lines
/// from `beginLine` on, minimise the largest violation distance. Each violated line i becomes
/// the objective of a 2D program over the bisectors of line i and the earlier agent lines,
/// which is how RVO2 does it. `result` comes in as lp2's last feasible point.
CROWD_HD inline void solveLeastViolation(const OrcaLine* lines, int lineCount, int obstacleLineCount,
                                         int beginLine, float radius, Vec2& result) {
  OrcaLine projected[kMaxOrcaLines];
  float distance = 0.0f;

  for (int i = beginLine; i < lineCount; ++i) {
    if (det(lines[i].direction, lines[i].point - result) <= distance) continue;

    int projectedCount = 0;
    for (int j = 0; j < obstacleLineCount; ++j) projected[projectedCount++] = lines[j];

    for (int j = obstacleLineCount; j < i; ++j) {
      OrcaLine bisector;
      const float determinant = det(lines[i].direction, lines[j].direction);
      if (std::fabs(determinant) <= kOrcaEpsilon) {
        // Parallel lines pointing the same way add nothing; opposite ones meet half-way.
        if (dot(lines[i].direction, lines[j].direction) > 0.0f) continue;
        bisector.point = 0.5f * (lines[i].point + lines[j].point);
      } else {
        bisector.point =
            lines[i].point +
            (det(lines[j].direction, lines[i].point - lines[j].point) / determinant) * lines[i].direction;
      }
      bisector.direction = normalize(lines[j].direction - lines[i].direction);
      projected[projectedCount++] = bisector;
    }

    const Vec2 previous = result;
    // Optimise in the direction that reduces line i's violation fastest: its inward normal.
    if (solveIncremental(projected, projectedCount, radius, perpLeft(lines[i].direction), true, result) <
        projectedCount) {
      // In exact arithmetic this cannot fail; with rounding it can, so keep the last point.
      result = previous;
    }
    distance = det(lines[i].direction, lines[i].point - result);
  }
}

/// Solves the full ORCA program for one agent: lp2, falling back to lp3 when infeasible.
CROWD_HD inline Vec2 solveOrcaProgram(const OrcaLine* lines, int lineCount, int obstacleLineCount,
                                      float maxSpeed, Vec2 prefVelocity) {
  Vec2 result(0.0f, 0.0f);
  const int failed = solveIncremental(lines, lineCount, maxSpeed, prefVelocity, false, result);
  if (failed < lineCount) {
    solveLeastViolation(lines, lineCount, obstacleLineCount, failed, maxSpeed, result);
  }
  return result;
}

}  // namespace crowd
