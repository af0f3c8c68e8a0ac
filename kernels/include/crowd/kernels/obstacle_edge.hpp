// Static obstacles as RVO2 stores them: each polygon vertex starts one directed edge to the
// next vertex. Solid polygons are counter-clockwise, so an agent outside sees an edge with the
// solid on its left; a clockwise polygon is a boundary that keeps agents inside it. A 2-vertex
// polygon is a wall segment with an edge in each direction.
#pragma once

#include "config.hpp"
#include "vec2.hpp"

namespace crowd {

/// One vertex of an obstacle polygon and the edge that leaves it. 32 bytes.
struct ObstacleEdge {
  Vec2 point;    ///< The vertex; the edge runs from here to `next`'s point.
  Vec2 unitDir;  ///< Unit direction of the edge.
  int next;      ///< Index of the next vertex of the same polygon.
  int prev;      ///< Index of the previous vertex of the same polygon.
  int isConvex;  ///< Nonzero when the polygon turns left (or goes straight) at this vertex.
  int circle;    ///< The circular obstacle this polygon stands for, or -1 (steer_avoid.hpp).
};

/// Squared distance from `position` to the edge starting at vertex `edge`, or a negative value
/// when the agent cannot see the edge because it is not strictly on its right (outer) side.
/// This is RVO2's rule for which obstacle edges are neighbours.
CROWD_HD inline float visibleEdgeDistSq(const ObstacleEdge* edges, int edge, Vec2 position) {
  const Vec2 a = edges[edge].point;
  const Vec2 b = edges[edges[edge].next].point;
  if (leftOf(a, b, position) >= 0.0f) return -1.0f;
  return distSqPointSegment(a, b, position);
}

/// The obstacle range of an agent: edges closer than this can matter within timeHorizonObst.
CROWD_HD inline float obstacleRange(float timeHorizonObst, float maxSpeed, float radius) {
  return timeHorizonObst * maxSpeed + radius;
}

}  // namespace crowd
