#include "geometry/obstacle_index.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <glm/common.hpp>

#include "geometry/geometry.hpp"

namespace crowd {

void ObstacleIndex::update(const ObstacleSet& obstacles) {
  if (indexed_ == obstacles.polygonCount()) return;
  // The polygon each circle stands for, so that its edges can name the circle.
  std::vector<int> circleOf(obstacles.polygonCount(), -1);
  for (std::size_t c = 0; c < obstacles.circles().size(); ++c) {
    circleOf[static_cast<std::size_t>(obstacles.circlePolygon(c))] = static_cast<int>(c);
  }
  for (; indexed_ < obstacles.polygonCount(); ++indexed_) {
    const std::span<const Vec2> vertices = obstacles.polygon(indexed_);
    const int circle = circleOf[indexed_];
    // Link the vertices as RVO2 does: each vertex starts the edge to the next one, and a vertex is
    // convex when the polygon turns left or goes straight there (wall segments: always convex).
    const int first = static_cast<int>(edges_.size());
    const int n = static_cast<int>(vertices.size());
    for (int i = 0; i < n; ++i) {
      const int next = i + 1 == n ? 0 : i + 1;
      const int prev = i == 0 ? n - 1 : i - 1;
      ObstacleEdge edge;
      edge.point = vertices[i];
      edge.unitDir = normalize(vertices[next] - vertices[i]);
      edge.next = first + next;
      edge.prev = first + prev;
      edge.isConvex = n == 2 || leftOf(vertices[prev], vertices[i], vertices[next]) >= 0.0f;
      edge.circle = circle;
      edges_.push_back(edge);
    }
    for (const Vec2& v : vertices) {
      lo_ = glm::min(lo_, v);
      hi_ = glm::max(hi_, v);
    }
  }
  gridValid_ = false;
}

void ObstacleIndex::prepareGrid(float maxRange) {
  // Cells about as large as the query range keep a query to a few cells; rebuild only when the
  // range has drifted far from the cell size, since the build touches every edge.
  const float wanted = std::max(maxRange, 1e-3f);
  if (gridValid_ && wanted <= 2.0f * grid_.cellSize && wanted >= 0.25f * grid_.cellSize) return;

  const Vec2 lo = edges_.empty() ? Vec2(0.0f, 0.0f) : lo_;
  const Vec2 hi = edges_.empty() ? Vec2(0.0f, 0.0f) : hi_;

  // Cap the cell count so a huge sparse world cannot exhaust memory: grow the cells instead.
  constexpr double kMaxCells = 4.0e6;
  float cellSize = wanted;
  const Vec2 extent = hi - lo;
  while ((std::floor(extent.x / cellSize) + 1.0) * (std::floor(extent.y / cellSize) + 1.0) > kMaxCells) {
    cellSize *= 2.0f;
  }
  grid_.origin = lo;
  grid_.cellSize = cellSize;
  grid_.invCellSize = 1.0f / cellSize;
  grid_.columns = static_cast<int>(std::floor(extent.x / cellSize)) + 1;
  grid_.rows = static_cast<int>(std::floor(extent.y / cellSize)) + 1;

  const std::size_t cellCount =
      static_cast<std::size_t>(grid_.columns) * static_cast<std::size_t>(grid_.rows);
  // Each edge is listed in every cell its bounding box touches.
  binItems(
      edges_.size(), cellCount,
      [&](std::size_t i, auto&& emit) {
        const ObstacleEdge& e = edges_[i];
        const Vec2 a = e.point;
        const Vec2 b = edges_[static_cast<std::size_t>(e.next)].point;
        const CellCoord c0 = cellOf(grid_, glm::min(a, b));
        const CellCoord c1 = cellOf(grid_, glm::max(a, b));
        for (int y = c0.y; y <= c1.y; ++y) {
          for (int x = c0.x; x <= c1.x; ++x)
            emit(static_cast<std::size_t>(cellIndex(grid_, CellCoord{x, y})));
        }
      },
      cellStart_, cellEdges_);
  gridValid_ = true;
}

std::size_t ObstacleIndex::memoryBytes() const {
  return edges_.capacity() * sizeof(ObstacleEdge) +
         (cellStart_.capacity() + cellEdges_.capacity()) * sizeof(int);
}

}  // namespace crowd
