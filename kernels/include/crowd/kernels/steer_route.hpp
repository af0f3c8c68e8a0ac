// Which segment of its own route (a planned polyline through walls, Simulator::setRoute) an agent
// follows. Reynolds' nearest-normal-point rule picks the wrong one where a route turns round a
// wall: an agent pushed aside by the crowd finds the route's next leg, beyond the wall, nearer
// than its own, steers into the wall, and ORCA holds it there. So a route follower advances to
// the next waypoint only when it has a clear line past it (the classic corridor rule), and falls
// back to an earlier leg when the crowd has pushed it out of sight of its waypoint; the force is
// then Reynolds' path following on that one segment (steer_path.hpp).
#pragma once

#include "config.hpp"
#include "obstacle_query.hpp"
#include "steering_terms.hpp"
#include "vec2.hpp"

namespace crowd {

/// Most waypoints an agent passes, or falls back, in one step.
inline constexpr int kRouteStepsPerStep = 8;

/// Squared distance between segments a-b and c-d (0 when they cross), neither of zero length.
CROWD_HD inline float segmentDistSq(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  const float abC = leftOf(a, b, c);
  const float abD = leftOf(a, b, d);
  const float cdA = leftOf(c, d, a);
  const float cdB = leftOf(c, d, b);
  if (((abC > 0.0f) != (abD > 0.0f)) && ((cdA > 0.0f) != (cdB > 0.0f))) return 0.0f;
  float best = distSqPointSegment(a, b, c);
  const float others[3] = {distSqPointSegment(a, b, d), distSqPointSegment(c, d, a),
                           distSqPointSegment(c, d, b)};
  for (const float v : others) best = v < best ? v : best;
  return best;
}

/// Whether a disc of `radius` can slide from `from` to `to` (or stand there, when they are equal)
/// without touching an obstacle edge.
CROWD_HD inline bool clearPassage(const ObstacleView& obstacles, Vec2 from, Vec2 to, float radius) {
  if (obstacles.edgeCount == 0) return true;
  const Vec2 mid = (from + to) * 0.5f;
  const float reach = 0.5f * length(to - from) + radius;
  const CellRange cells = cellsTouching(obstacles.grid, mid, reach);
  const float radiusSq = radius * radius;
  // Edges whose box stands clear of the passage's box by more than the radius cannot touch it:
  // skipped before the exact test (a little slack keeps the answer the exact test's).
  const float slack = radius * 1.001f + 1e-5f;
  // Plain comparisons, not fminf/fmaxf: those are library calls on the host.
  const auto least = [](float p, float q) { return p < q ? p : q; };
  const auto most = [](float p, float q) { return p > q ? p : q; };
  const Vec2 lo(least(from.x, to.x) - slack, least(from.y, to.y) - slack);
  const Vec2 hi(most(from.x, to.x) + slack, most(from.y, to.y) + slack);
  for (int y = cells.lo.y; y <= cells.hi.y; ++y) {
    for (int x = cells.lo.x; x <= cells.hi.x; ++x) {
      const CellCoord cell{x, y};
      if (!(cellDistSq(obstacles.grid, cell, mid) < reach * reach)) continue;
      const int c = cellIndex(obstacles.grid, cell);
      for (int j = obstacles.cellStart[c]; j < obstacles.cellStart[c + 1]; ++j) {
        const ObstacleEdge& e = obstacles.edges[obstacles.cellEdges[j]];
        const Vec2 a = e.point, b = obstacles.edges[e.next].point;
        if (most(a.x, b.x) < lo.x || least(a.x, b.x) > hi.x || most(a.y, b.y) < lo.y ||
            least(a.y, b.y) > hi.y) {
          continue;
        }
        // A passage of zero length is a disc (the segment formula would divide 0 by 0).
        const float distSq = from == to ? distSqPointSegment(a, b, from) : segmentDistSq(from, to, a, b);
        if (distSq < radiusSq) return false;
      }
    }
  }
  return true;
}

/// The segment of route `path` that an agent at `position` follows, given last step's (`current`,
/// -1 at first): segment k runs from point k to point k + 1. It moves on while the point after
/// the segment's end is in clear view, and back to the latest earlier segment whose end is in
/// view when its own end is not. `radius` is the agent's own: a narrower view let an agent
/// standing at a door jamb see past the jamb to the door, which its body could not reach in a
/// straight line, and press into the corner (three of 10,000 in `evacuation`, held there for
/// good by their neighbours). An agent that ORCA holds against a wall still sees along it.
CROWD_HD inline int routeSegment(const PathView& paths, const ObstacleView& obstacles, int path, int current,
                                 Vec2 position, float radius) {
  const int last = paths.segments(path) - 1;
  int k = current < 0 ? 0 : (current > last ? last : current);
  for (int n = 0; n < kRouteStepsPerStep && k < last; ++n) {
    if (!clearPassage(obstacles, position, paths.point(path, k + 2), radius)) break;
    ++k;
  }
  if (clearPassage(obstacles, position, paths.point(path, k + 1), radius)) return k;
  // Pushed out of sight of its waypoint: the latest earlier one in view, if any (else keep on).
  for (int back = k - 1; back >= 0 && back >= k - kRouteStepsPerStep; --back) {
    if (clearPassage(obstacles, position, paths.point(path, back + 1), radius)) return back;
  }
  return k;
}

}  // namespace crowd
