// Static obstacles: polygons and circles, their checks, and the role each polygon plays.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <crowd/kernels/circle_obstacle.hpp>
#include <crowd/kernels/vec2.hpp>

namespace crowd {

/// Empty when `vertices` form a usable obstacle polygon, else the problem in a sentence: fewer
/// than 2 vertices, non-finite coordinates, repeated consecutive vertices (a zero-length edge),
/// all vertices on one line (3 or more), or edges that cross each other.
std::string checkPolygon(std::span<const Vec2> vertices);

/// Signed area: positive for counter-clockwise (solid) polygons, negative for clockwise
/// boundaries that enclose agents.
float signedArea(std::span<const Vec2> vertices);

/// What a polygon is to the agents, by RVO2's convention that the blocked side lies to the left
/// of every edge.
enum class PolygonRole : std::uint8_t {
  Wall,      ///< Two vertices: a segment, blocked on neither side but not to be crossed.
  Solid,     ///< Counter-clockwise: blocked inside.
  Hole,      ///< Clockwise and inside a solid: a free pocket in it.
  Boundary,  ///< Clockwise and inside no solid: blocked outside, keeping agents in.
};

/// Each polygon's role; a clockwise polygon is a hole when its first vertex lies inside some
/// solid (even-odd rule), else a boundary. What the viewer fills and leaves empty.
std::vector<PolygonRole> polygonRoles(std::span<const std::vector<Vec2>> polygons);

/// Static obstacles: polygons (counter-clockwise for a solid, clockwise for an enclosing boundary,
/// two vertices for a wall segment) and circles, each numbered in the order added. The simulator
/// indexes them for its queries.
class ObstacleSet {
 public:
  /// Adds a polygon. Returns its number. Throws std::invalid_argument with checkPolygon's message
  /// if it is unusable.
  int addPolygon(std::span<const Vec2> vertices);

  /// Adds a circular obstacle. ORCA avoids the regular kCircleSides-gon drawn around it (every
  /// point of the disc lies inside); the detection box (steer_avoid.hpp) sees the exact disc.
  /// Returns its number; throws std::invalid_argument for a non-finite centre or a radius <= 0.
  int addCircle(Vec2 center, float radius);
  static constexpr int kCircleSides = 16;

  const std::vector<CircleObstacle>& circles() const { return circles_; }
  /// The polygon that stands for circle `c` (not listed among the scenario's polygons).
  int circlePolygon(std::size_t c) const { return circlePolygon_.at(c); }
  std::size_t polygonCount() const { return polygonStart_.size(); }
  /// Vertices of polygon `p`, in the order given.
  std::span<const Vec2> polygon(std::size_t p) const;
  bool empty() const { return polygonStart_.empty(); }
  /// Bytes held for the polygons and circles.
  std::size_t memoryBytes() const {
    return vertices_.capacity() * sizeof(Vec2) + polygonStart_.capacity() * sizeof(std::size_t) +
           circles_.capacity() * sizeof(CircleObstacle) + circlePolygon_.capacity() * sizeof(int);
  }

 private:
  std::vector<Vec2> vertices_;
  std::vector<std::size_t> polygonStart_;  // Where each polygon's vertices begin.
  std::vector<CircleObstacle> circles_;
  std::vector<int> circlePolygon_;
};

}  // namespace crowd
