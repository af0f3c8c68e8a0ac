// Detection-box obstacle avoidance (Buckland, "Programming Game AI by Example"). A box lies
// ahead of the agent along its heading: as wide as the agent, and longer the faster it goes.
// Obstacles near it are taken into the agent's frame (x ahead, y to the left); the closest one
// that overlaps the box gives a lateral force, stronger the closer it is, and a braking force.
//
// Where this departs from the book's listing, and why:
//  - The lateral force pushes away from the obstacle's side (the listing's r - y pushes towards
//    an obstacle on the positive side); an obstacle dead ahead is passed on the right.
//  - A circle counts until the agent has passed it (x > -r rather than x >= 0): one whose centre
//    is just behind the box's front edge still overlaps the agent's flank.
//  - The braking force is kBrakingWeight times the lateral push, so it grows as the obstacle
//    nears and lies more squarely ahead. The book's (r - x) * 0.2 grows with the obstacle's
//    distance instead: a post that only just enters the far end of the box stops the agent dead
//    (in a forest at avoid weight 4, agents stopped, lost their heading and turned into posts).
//  - Polygon edges take part too: an edge crossing the box pushes along its outward normal.
//  - The box is a fifth wider than the agent (kBoxWidthFactor). The lateral push fades to
//    nothing at the edge of the box's strip; with the box exactly as wide as the agent, that is
//    where the agent touches the obstacle, so any steady pull (a goal just behind a post) held
//    agents grazing it. The margin moves the balance point off the obstacle.
//
// As in the book, the lateral push fades to nothing at the edge of the box's strip, so a steady
// pull towards an obstacle (seek for a goal whose straight line grazes a post) holds the agent
// where the two balance, inside the post by about pull / (avoid weight * multiplier): weigh
// avoidance well above such pulls (a forest crossing needs about 10 to seek's 1). The push is a
// spring of stiffness up to 2 * weight integrated with gain min(dt / mass, 1): keep
// 2 * weight * dt * gain well below 4 (weight 30 at dt 0.25 had agents swinging into posts).
#pragma once

#include "config.hpp"
#include "obstacle_query.hpp"
#include "steering_terms.hpp"
#include "vec2.hpp"

namespace crowd {

/// The box's half width as a multiple of the agent's radius.
inline constexpr float kBoxWidthFactor = 1.2f;

/// How strongly the nearest obstacle brakes the agent, as a fraction of its lateral push (the
/// book's braking weight).
inline constexpr float kBrakingWeight = 0.2f;

/// The box in front of an agent: its frame and size.
struct DetectionBox {
  Vec2 origin;
  Vec2 heading;     ///< Unit.
  float length;     ///< boxLength * (1 + speed / maxSpeed).
  float halfWidth;  ///< kBoxWidthFactor times the agent's radius.

  CROWD_HD Vec2 toLocal(Vec2 p) const {
    const Vec2 d = p - origin;
    return Vec2(dot(d, heading), det(heading, d));
  }
  CROWD_HD Vec2 toWorld(Vec2 local) const { return crowd::toWorld(local, heading); }
};

/// What the closest obstacle in the box contributes, in the box's frame.
struct BoxHit {
  float distance;  ///< Along the box to where it meets the obstacle; INFINITY for no hit.
  Vec2 force;      ///< Local (braking along x, lateral along y).
};

/// A circle's effect on the box, or no hit: it must overlap the box's strip (|y| below the
/// circle's radius plus the half width), not be passed yet, and begin within the box's length.
CROWD_HD inline BoxHit circleInBox(const DetectionBox& box, CircleObstacle circle) {
  BoxHit hit{INFINITY, Vec2(0.0f, 0.0f)};
  const Vec2 c = box.toLocal(circle.center);
  const float reach = circle.radius + box.halfWidth;
  const float side = c.y < 0.0f ? -c.y : c.y;
  if (c.x <= -reach || side >= reach || c.x - reach > box.length) return hit;
  // Where the box's centre line enters the widened circle (the near crossing, or 0 inside it).
  const float half = std::sqrt(reach * reach - c.y * c.y);
  const float enter = c.x - half;
  hit.distance = enter > 0.0f ? enter : 0.0f;
  // The book's multiplier, 1 + (length - x) / length, from 2 at the agent to 1 at the box's end,
  // with x the centre's distance ahead. A circle wider than the box counts while its centre lies
  // far beyond the box's end, where the book's value falls below 0 and turns the push round
  // towards the circle and the braking into a pull: x is taken at most a box length beyond the
  // point where the box meets the circle (so the multiplier fades to 0 as that point nears the
  // box's end), which leaves every circle narrower than the box as the book has it.
  const float ahead = c.x > 0.0f ? c.x : 0.0f;
  const float x = ahead < hit.distance + box.length ? ahead : hit.distance + box.length;
  const float tapered = 1.0f + (box.length - x) / box.length;
  const float multiplier = tapered > 0.0f ? tapered : 0.0f;
  const float push = (reach - side) * multiplier;
  const float lateral = c.y >= 0.0f ? -push : push;  // Away from its side; dead ahead: to the right.
  hit.force = Vec2(-push * kBrakingWeight, lateral);
  return hit;
}

/// An obstacle edge's effect: the part of a-b inside the box (clipped to 0 <= x <= length,
/// |y| <= halfWidth) and the edge's outward normal `outward`, or no hit.
CROWD_HD inline BoxHit edgeInBox(const DetectionBox& box, Vec2 a, Vec2 b, Vec2 outward) {
  BoxHit hit{INFINITY, Vec2(0.0f, 0.0f)};
  const Vec2 p = box.toLocal(a);
  const Vec2 d = box.toLocal(b) - p;
  // Liang-Barsky: clip p + t d, 0 <= t <= 1, to the box.
  float t0 = 0.0f;
  float t1 = 1.0f;
  const float q[4] = {p.x, box.length - p.x, p.y + box.halfWidth, box.halfWidth - p.y};
  const float r[4] = {-d.x, d.x, -d.y, d.y};
  for (int i = 0; i < 4; ++i) {
    if (r[i] == 0.0f) {
      if (q[i] < 0.0f) return hit;
      continue;
    }
    const float t = q[i] / r[i];
    if (r[i] < 0.0f) {
      if (t > t1) return hit;
      if (t > t0) t0 = t;
    } else {
      if (t < t0) return hit;
      if (t < t1) t1 = t;
    }
  }
  const float x0 = p.x + t0 * d.x;
  const float x1 = p.x + t1 * d.x;
  hit.distance = x0 < x1 ? x0 : x1;
  const float multiplier = 1.0f + (box.length - hit.distance) / box.length;
  const Vec2 n(dot(outward, box.heading), det(box.heading, outward));
  hit.force = n * (box.halfWidth * multiplier);
  return hit;
}

/// The avoidance force (world frame) from the closest circle or edge overlapping the box. Edges
/// of a circle's polygon stand for the circle itself. Zero at rest (there is no heading).
CROWD_HD inline Vec2 avoidForce(const ObstacleView& obstacles, const CircleObstacle* circles, Vec2 position,
                                Vec2 velocity, float radius, float maxSpeed, float boxLength) {
  const float speedSq = absSq(velocity);
  if (!(speedSq > 0.0f) || obstacles.edgeCount == 0) return Vec2(0.0f, 0.0f);
  const float speed = std::sqrt(speedSq);
  if (!(boxLength > 0.0f)) return Vec2(0.0f, 0.0f);  // No box, nothing seen (checkBehavior refuses it).
  DetectionBox box{position, velocity * (1.0f / speed),
                   boxLength * (1.0f + (maxSpeed > 0.0f ? speed / maxSpeed : 0.0f)),
                   kBoxWidthFactor * radius};
  BoxHit best{INFINITY, Vec2(0.0f, 0.0f)};
  const float range = box.length + radius;
  const CellRange cells = cellsTouching(obstacles.grid, position, range);
  for (int y = cells.lo.y; y <= cells.hi.y; ++y) {
    for (int x = cells.lo.x; x <= cells.hi.x; ++x) {
      const CellCoord cell{x, y};
      const int c = cellIndex(obstacles.grid, cell);
      if (!(cellDistSq(obstacles.grid, cell, position) < range * range)) continue;
      for (int j = obstacles.cellStart[c]; j < obstacles.cellStart[c + 1]; ++j) {
        const ObstacleEdge& e = obstacles.edges[obstacles.cellEdges[j]];
        BoxHit hit;
        if (e.circle >= 0) {
          hit = circleInBox(box, circles[e.circle]);
        } else {
          const Vec2 b = obstacles.edges[e.next].point;
          if (leftOf(e.point, b, position) >= 0.0f) continue;  // Seen from inside: not in the way.
          hit = edgeInBox(box, e.point, b, Vec2(e.unitDir.y, -e.unitDir.x));
        }
        if (hit.distance < best.distance) best = hit;
      }
    }
  }
  return box.toWorld(best.force);
}

}  // namespace crowd
