#include <crowd/obstacles.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include <glm/common.hpp>

namespace crowd {
namespace {

// Orientation of c relative to a -> b in double precision: +1 left, -1 right, 0 collinear.
int orientation(Vec2 a, Vec2 b, Vec2 c) {
  const double v = (static_cast<double>(b.x) - a.x) * (static_cast<double>(c.y) - a.y) -
                   (static_cast<double>(b.y) - a.y) * (static_cast<double>(c.x) - a.x);
  return (v > 0) - (v < 0);
}

bool onSegment(Vec2 a, Vec2 b, Vec2 p) {
  return std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= p.y &&
         p.y <= std::max(a.y, b.y);
}

// Whether closed segments a-b and c-d share any point.
bool segmentsTouch(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  const int o1 = orientation(a, b, c);
  const int o2 = orientation(a, b, d);
  const int o3 = orientation(c, d, a);
  const int o4 = orientation(c, d, b);
  if (o1 != o2 && o3 != o4) return true;
  return (o1 == 0 && onSegment(a, b, c)) || (o2 == 0 && onSegment(a, b, d)) ||
         (o3 == 0 && onSegment(c, d, a)) || (o4 == 0 && onSegment(c, d, b));
}

}  // namespace

float signedArea(std::span<const Vec2> vertices) {
  double twiceArea = 0;
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    const Vec2 a = vertices[i];
    const Vec2 b = vertices[(i + 1) % vertices.size()];
    twiceArea += static_cast<double>(a.x) * b.y - static_cast<double>(b.x) * a.y;
  }
  return static_cast<float>(0.5 * twiceArea);
}

std::string checkPolygon(std::span<const Vec2> vertices) {
  const std::size_t n = vertices.size();
  if (n < 2) return "a polygon needs at least 2 vertices, got " + std::to_string(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(vertices[i].x) || !std::isfinite(vertices[i].y)) {
      return "vertex " + std::to_string(i) + " is not a finite point";
    }
  }
  const std::size_t edgeCount = n == 2 ? 1 : n;
  for (std::size_t i = 0; i < edgeCount; ++i) {
    if (vertices[i] == vertices[(i + 1) % n]) {
      return "vertices " + std::to_string(i) + " and " + std::to_string((i + 1) % n) +
             " coincide (a zero-length edge)";
    }
  }
  if (n == 2) return {};

  bool allCollinear = true;
  for (std::size_t i = 0; i < n && allCollinear; ++i) {
    allCollinear = orientation(vertices[0], vertices[1], vertices[i]) == 0;
  }
  if (allCollinear) return "all vertices lie on one line (a degenerate polygon)";

  // An edge that doubles back along the previous one encloses nothing there.
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 prev = vertices[(i + n - 1) % n];
    const Vec2 cur = vertices[i];
    const Vec2 next = vertices[(i + 1) % n];
    if (orientation(prev, cur, next) == 0 && dot(cur - prev, next - cur) < 0.0f) {
      return "the edges meeting at vertex " + std::to_string(i) + " fold back on each other";
    }
  }
  // Non-adjacent edges must not touch. O(n^2), with a bounding-box reject first.
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 a = vertices[i];
    const Vec2 b = vertices[(i + 1) % n];
    for (std::size_t j = i + 2; j < n; ++j) {
      if (i == 0 && j == n - 1) continue;  // Adjacent through the wrap-around.
      const Vec2 c = vertices[j];
      const Vec2 d = vertices[(j + 1) % n];
      if (std::max(a.x, b.x) < std::min(c.x, d.x) || std::max(c.x, d.x) < std::min(a.x, b.x) ||
          std::max(a.y, b.y) < std::min(c.y, d.y) || std::max(c.y, d.y) < std::min(a.y, b.y)) {
        continue;
      }
      if (segmentsTouch(a, b, c, d)) {
        return "edges " + std::to_string(i) + " and " + std::to_string(j) +
               " cross (a self-intersecting polygon)";
      }
    }
  }
  return {};
}

int ObstacleSet::addPolygon(std::span<const Vec2> vertices) {
  if (const std::string problem = checkPolygon(vertices); !problem.empty()) {
    throw std::invalid_argument("obstacle " + std::to_string(polygonFirstEdge_.size()) + ": " + problem);
  }
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
    edges_.push_back(edge);
  }
  vertices_.insert(vertices_.end(), vertices.begin(), vertices.end());
  polygonFirstEdge_.push_back(static_cast<std::size_t>(first));
  gridValid_ = false;
  return static_cast<int>(polygonFirstEdge_.size()) - 1;
}

std::span<const Vec2> ObstacleSet::polygon(std::size_t p) const {
  const std::size_t begin = polygonFirstEdge_.at(p);
  const std::size_t end = p + 1 < polygonFirstEdge_.size() ? polygonFirstEdge_[p + 1] : vertices_.size();
  return std::span<const Vec2>(vertices_).subspan(begin, end - begin);
}

void ObstacleSet::prepareGrid(float maxRange) {
  // Cells about as large as the query range keep a query to a few cells; rebuild only when the
  // range has drifted far from the cell size, since the build touches every edge.
  const float wanted = std::max(maxRange, 1e-3f);
  if (gridValid_ && wanted <= 2.0f * grid_.cellSize && wanted >= 0.25f * grid_.cellSize) return;

  Vec2 lo(INFINITY, INFINITY);
  Vec2 hi(-INFINITY, -INFINITY);
  for (const Vec2& v : vertices_) {
    lo = glm::min(lo, v);
    hi = glm::max(hi, v);
  }
  if (vertices_.empty()) lo = hi = Vec2(0.0f, 0.0f);

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

  const std::size_t cellCount = static_cast<std::size_t>(grid_.columns) * static_cast<std::size_t>(grid_.rows);
  cellStart_.assign(cellCount + 1, 0);
  // Two passes over each edge's bounding-box cells: count, then fill (CSR layout).
  auto forEachCell = [&](const ObstacleEdge& e, auto&& visit) {
    const Vec2 a = e.point;
    const Vec2 b = edges_[static_cast<std::size_t>(e.next)].point;
    const CellCoord c0 = cellOf(grid_, glm::min(a, b));
    const CellCoord c1 = cellOf(grid_, glm::max(a, b));
    for (int y = c0.y; y <= c1.y; ++y) {
      for (int x = c0.x; x <= c1.x; ++x) visit(cellIndex(grid_, CellCoord{x, y}));
    }
  };
  for (const ObstacleEdge& e : edges_) forEachCell(e, [&](int c) { ++cellStart_[static_cast<std::size_t>(c) + 1]; });
  for (std::size_t c = 0; c < cellCount; ++c) cellStart_[c + 1] += cellStart_[c];
  cellEdges_.assign(static_cast<std::size_t>(cellStart_[cellCount]), 0);
  std::vector<int> fill(cellStart_.begin(), cellStart_.end() - 1);
  for (std::size_t i = 0; i < edges_.size(); ++i) {
    forEachCell(edges_[i], [&](int c) { cellEdges_[static_cast<std::size_t>(fill[static_cast<std::size_t>(c)]++)] = static_cast<int>(i); });
  }
  gridValid_ = true;
}

}  // namespace crowd
