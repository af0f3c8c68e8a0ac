// Shared helpers for the obstacle ORCA kernel tests (test_orca_obstacles.cpp and
// test_orca_obstacle_corners.cpp).
//
// Expectations come from the definition of an obstacle's velocity obstacle: a velocity v is in
// the VO of segment [a, b] when the agent's disc, moving at v from its position, comes closer
// than its radius to the segment within timeHorizonObst. That is checked in double precision by
// a segment-to-segment distance, independent of the kernel. An obstacle does not move, so its
// line must keep all of its VO forbidden; when the current velocity is outside the VO, it must
// stay permitted (the line is a tangent of the convex VO at the velocity's projection).
//
// A line's permitted side is its left: v violates it by det(direction, point - v), as in the LP.
#pragma once

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "crowd/kernels/orca_obstacles.hpp"
#include "kernels/double_vec.hpp"

namespace obstacle_test {

using crowd::ObstacleEdge;
using crowd::OrcaLine;
using crowd::Vec2;

using namespace kernel_test;

/// Builds obstacle polygons the way RVO2's addObstacle does: each vertex starts the edge to the
/// next; a vertex is convex when the polygon turns left (or goes straight) there; the two
/// vertices of a wall segment are both convex.
struct Scene {
  std::vector<ObstacleEdge> edges;

  int addPolygon(const std::vector<Vec2>& vertices) {
    const int first = static_cast<int>(edges.size());
    const int n = static_cast<int>(vertices.size());
    for (int i = 0; i < n; ++i) {
      const int next = (i + 1) % n;
      const int prev = (i + n - 1) % n;
      ObstacleEdge edge;
      edge.point = vertices[i];
      edge.unitDir = crowd::normalize(vertices[next] - vertices[i]);
      edge.next = first + next;
      edge.prev = first + prev;
      edge.isConvex = n == 2 || crowd::leftOf(vertices[prev], vertices[i], vertices[next]) >= 0.0f;
      edge.circle = -1;
      edges.push_back(edge);
    }
    return first;
  }

  D2 start(int e) const { return toD(edges[e].point); }
  D2 end(int e) const { return toD(edges[edges[e].next].point); }

  /// The edges the agent sees within range, nearest first (ties by index), as the simulator's
  /// neighbour search gives them.
  std::vector<int> visibleEdges(Vec2 position, float rangeSq) const {
    std::vector<std::pair<float, int>> found;
    for (int e = 0; e < static_cast<int>(edges.size()); ++e) {
      const float d = crowd::visibleEdgeDistSq(edges.data(), e, position);
      if (d >= 0.0f && d < rangeSq) found.emplace_back(d, e);
    }
    std::sort(found.begin(), found.end());
    std::vector<int> result;
    for (const auto& f : found) result.push_back(f.second);
    return result;
  }
};

inline double distSqPointSegmentD(D2 p, D2 a, D2 b) {
  const D2 ab = b - a;
  const double len = dotD(ab, ab);
  double t = len > 0.0 ? dotD(p - a, ab) / len : 0.0;
  t = std::fmin(std::fmax(t, 0.0), 1.0);
  const D2 gap = p - (a + t * ab);
  return dotD(gap, gap);
}

/// Squared distance between segments [p0, p1] and [a, b].
inline double distSqSegments(D2 p0, D2 p1, D2 a, D2 b) {
  const double o1 = detD(b - a, p0 - a);
  const double o2 = detD(b - a, p1 - a);
  const double o3 = detD(p1 - p0, a - p0);
  const double o4 = detD(p1 - p0, b - p0);
  const bool collinear = o1 == 0.0 && o2 == 0.0;
  if (!collinear && o1 * o2 <= 0.0 && o3 * o4 <= 0.0) return 0.0;  // They cross.
  return std::fmin(std::fmin(distSqPointSegmentD(p0, a, b), distSqPointSegmentD(p1, a, b)),
                   std::fmin(distSqPointSegmentD(a, p0, p1), distSqPointSegmentD(b, p0, p1)));
}

/// Whether moving at v from `position` brings the agent closer than `radius` to [a, b] within
/// `tau`: the definition of the edge's velocity obstacle.
inline bool collidesWithEdge(D2 position, D2 v, D2 a, D2 b, double radius, double tau) {
  return distSqSegments(position, position + tau * v, a, b) < radius * radius;
}

struct Agent {
  Vec2 position;
  Vec2 velocity;
  float radius;
  float tau;
};

/// The lines by RVO2's rules, or with `endOnOwnLeg` (see obstacleOrcaLines).
inline std::vector<OrcaLine> obstacleLines(const Scene& scene, const std::vector<int>& neighbours,
                                           const Agent& agent, bool endOnOwnLeg = false) {
  std::vector<OrcaLine> lines(crowd::kMaxOrcaLines);
  const int count = crowd::obstacleOrcaLines(
      scene.edges.data(), neighbours.data(), static_cast<int>(neighbours.size()), agent.position,
      agent.velocity, agent.radius, 1.0f / agent.tau, endOnOwnLeg, lines.data());
  lines.resize(count);
  for (const OrcaLine& line : lines) {
    EXPECT_TRUE(std::isfinite(line.point.x) && std::isfinite(line.point.y));
    EXPECT_NEAR(crowd::length(line.direction), 1.0f, 1e-5f);
  }
  return lines;
}

/// Over a grid of velocities, every one in the VO of any of `edges` must violate some line
/// (to rounding). Returns how many VO velocities were found, so callers can tell it was tested.
inline int expectVelocityObstaclesForbidden(const Scene& scene, const std::vector<int>& edges,
                                            const Agent& agent, const std::vector<OrcaLine>& lines,
                                            double speedRange = 4.0, double step = 0.02) {
  int inside = 0;
  int reported = 0;
  const int n = static_cast<int>(speedRange / step);
  for (int i = -n; i <= n; ++i) {
    for (int j = -n; j <= n; ++j) {
      const D2 v{i * step, j * step};
      bool collides = false;
      for (const int e : edges) {
        collides = collides || collidesWithEdge(toD(agent.position), v, scene.start(e), scene.end(e),
                                                agent.radius, agent.tau);
      }
      if (!collides) continue;
      ++inside;
      double worst = -INFINITY;
      for (const OrcaLine& line : lines) worst = std::fmax(worst, violation(line, v));
      if (worst < -1e-4 && reported++ < 5) {
        ADD_FAILURE() << "velocity (" << v.x << ", " << v.y << ") collides within the horizon "
                      << "but every line permits it (best violation " << worst << ")";
      }
    }
  }
  return inside;
}

inline bool currentVelocityCollides(const Scene& scene, int e, const Agent& agent) {
  return collidesWithEdge(toD(agent.position), toD(agent.velocity), scene.start(e), scene.end(e),
                          agent.radius, agent.tau);
}

}  // namespace obstacle_test
