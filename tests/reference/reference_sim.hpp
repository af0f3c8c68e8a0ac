// An independent reference ORCA simulator used as a test oracle for the project's backends.
//
// It shares no code with kernels/ or host/ and is deliberately plain: double precision,
// brute-force O(N^2) neighbour search, and a direct transcription of the ORCA rules of van den
// Berg, Guy, Lin and Manocha, "Reciprocal n-Body Collision Avoidance" (2011), as RVO2 2.0
// applies them (see shared/ORCA-NOTES.md). Because it works in double while RVO2 and the
// backends work in float, comparisons against it must use a tolerance.
//
// Conventions (RVO2's):
// - A line {point, direction} (direction of unit length) allows the velocities on its left:
//   v is permitted when det(direction, point - v) <= 0.
// - Obstacles are polygons: counter-clockwise vertices for solids, clockwise for an enclosing
//   boundary; a 2-vertex polygon is a wall segment with an edge in each direction. Vertex k of
//   the flattened vertex list (polygons in order, vertices in order) starts edge k.
#pragma once

#include <cstddef>
#include <vector>

#include "reference/reference_common.hpp"

namespace crowd_reference {

struct V2 {
  double x = 0.0;
  double y = 0.0;
};

inline V2 operator+(V2 a, V2 b) {
  return {a.x + b.x, a.y + b.y};
}
inline V2 operator-(V2 a, V2 b) {
  return {a.x - b.x, a.y - b.y};
}
inline V2 operator-(V2 a) {
  return {-a.x, -a.y};
}
inline V2 operator*(double s, V2 a) {
  return {s * a.x, s * a.y};
}
inline V2 operator*(V2 a, double s) {
  return {s * a.x, s * a.y};
}
inline V2 operator/(V2 a, double s) {
  return {a.x / s, a.y / s};
}
inline bool operator==(V2 a, V2 b) {
  return a.x == b.x && a.y == b.y;
}
inline double dot(V2 a, V2 b) {
  return a.x * b.x + a.y * b.y;
}
/// The 2D cross product: positive when b points to the left of a.
inline double det(V2 a, V2 b) {
  return a.x * b.y - a.y * b.x;
}
inline double absSq(V2 a) {
  return dot(a, a);
}
double length(V2 a);
V2 normalize(V2 a);
/// RVO2's side test: positive when c lies to the left of the directed line a -> b.
double leftOf(V2 a, V2 b, V2 c);
/// Squared distance from point c to the segment a-b.
double distSqPointSegment(V2 a, V2 b, V2 c);

/// A planar agent: RVO2's parameters (radius 0.5 by default) and its obstacle time horizon.
struct RefAgent : RefAgentOf<V2> {
  RefAgent() : RefAgentOf(0.5) {}
  double timeHorizonObst = 10.0;
};

struct RefWorld {
  double timeStep = 0.25;
  std::vector<RefAgent> agents;
  std::vector<std::vector<V2>> obstacles;
};

/// A half-plane constraint on an agent's new velocity (see the conventions above).
struct RefLine {
  V2 point;
  V2 direction;
};

/// One polygon vertex and the edge that leaves it, indices into the flattened vertex list.
struct RefObstacleVertex {
  V2 point;
  V2 unitDir;   ///< Unit direction from this vertex to the next one.
  bool convex;  ///< leftOf(prev, this, next) >= 0; always true for a 2-vertex wall.
  int prev;
  int next;
  int polygon;  ///< Which entry of RefWorld::obstacles the vertex belongs to.
};

/// Flattens the world's polygons into vertices/edges. Throws std::invalid_argument for a
/// polygon with fewer than 2 vertices.
std::vector<RefObstacleVertex> obstacleVertices(const RefWorld& world);

/// Indices (into obstacleVertices) of the edges that are obstacle neighbours of agent i, by
/// ascending squared distance, ties by index.
std::vector<int> obstacleNeighbourEdges(const RefWorld& world, int i);

/// Agent i's ORCA lines: obstacle lines first, then one per agent neighbour.
std::vector<RefLine> orcaLines(const RefWorld& world, int i);

/// How many of orcaLines(world, i) come from obstacles (they lead the list).
std::size_t obstacleLineCount(const RefWorld& world, int i);

/// Signed amount by which v violates the line: > 0 when v is on the forbidden (right) side.
double violation(const RefLine& line, V2 v);

/// RVO2's velocity selection: the velocity closest to prefVelocity within the disc of radius
/// maxSpeed satisfying all lines, or, when none does, the one minimising the largest violation
/// of lines [numObstacleLines, end) while the obstacle lines stay hard.
V2 solveVelocity(const std::vector<RefLine>& lines, std::size_t numObstacleLines, double maxSpeed,
                 V2 prefVelocity);

/// One step's new velocities, every one computed from the same (old) state.
std::vector<V2> computeNewVelocities(const RefWorld& world);

/// Advances the world by one step (stepWorld, reference_common.hpp).
void step(RefWorld& world);

}  // namespace crowd_reference
