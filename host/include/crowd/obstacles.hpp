// Static polygon obstacles and the grid that range-queries their edges.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <crowd/kernels/obstacle_edge.hpp>
#include <crowd/kernels/steering_terms.hpp>
#include <crowd/kernels/uniform_grid.hpp>
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

/// The obstacle edges of every polygon, as RVO2 links them, with a uniform grid over them.
class ObstacleSet {
 public:
  /// Adds a polygon (counter-clockwise for a solid, clockwise for an enclosing boundary, two
  /// vertices for a wall segment). Returns its number. Throws std::invalid_argument with
  /// checkPolygon's message if it is unusable.
  int addPolygon(std::span<const Vec2> vertices);

  /// Adds a circular obstacle. ORCA avoids the regular kCircleSides-gon drawn around it (every
  /// point of the disc lies inside); the detection box (steer_avoid.hpp) sees the exact disc.
  /// Returns its number; throws std::invalid_argument for a non-finite centre or a radius <= 0.
  int addCircle(Vec2 center, float radius);
  static constexpr int kCircleSides = 16;

  const std::vector<ObstacleEdge>& edges() const { return edges_; }
  const std::vector<CircleObstacle>& circles() const { return circles_; }
  /// The polygon that stands for circle `c` (not listed among the scenario's polygons).
  int circlePolygon(std::size_t c) const { return circlePolygon_.at(c); }
  std::size_t polygonCount() const { return polygonFirstEdge_.size(); }
  /// Vertices of polygon `p`, in the order given.
  std::span<const Vec2> polygon(std::size_t p) const;
  bool empty() const { return edges_.empty(); }

  /// Makes the edge grid ready for queries of radius up to `maxRange`. Cheap when nothing
  /// changed; rebuilds after addPolygon or when the range outgrows the cells.
  void prepareGrid(float maxRange);
  const GridGeometry& grid() const { return grid_; }
  /// Edge indices listed per cell, CSR style: cell c holds cellEdges()[cellStart()[c] .. cellStart()[c+1]).
  const std::vector<int>& cellStart() const { return cellStart_; }
  const std::vector<int>& cellEdges() const { return cellEdges_; }
  /// Bytes held for the edges, polygons and the edge grid.
  std::size_t memoryBytes() const {
    return edges_.capacity() * sizeof(ObstacleEdge) + vertices_.capacity() * sizeof(Vec2) +
           polygonFirstEdge_.capacity() * sizeof(std::size_t) + (cellStart_.capacity() + cellEdges_.capacity()) * sizeof(int) +
           circles_.capacity() * sizeof(CircleObstacle) + circlePolygon_.capacity() * sizeof(int);
  }

 private:
  std::vector<ObstacleEdge> edges_;
  std::vector<Vec2> vertices_;
  std::vector<std::size_t> polygonFirstEdge_;
  std::vector<CircleObstacle> circles_;
  std::vector<int> circlePolygon_;
  GridGeometry grid_{};
  bool gridValid_ = false;
  std::vector<int> cellStart_;
  std::vector<int> cellEdges_;
};

}  // namespace crowd
