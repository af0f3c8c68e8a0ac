#include "geometry/geometry.hpp"

#include <algorithm>
#include <cmath>

namespace crowd {
namespace {

// Long segments are binned piece by piece; this caps the pieces over all segments by growing
// the cells for very long walls.
constexpr double kMaxSegmentPieces = 2.0e5;

void include(Box& box, Point p) {
  box.min = Point{std::min(box.min.x, p.x), std::min(box.min.y, p.y)};
  box.max = Point{std::max(box.max.x, p.x), std::max(box.max.y, p.y)};
}

}  // namespace

Box boundsOf(std::span<const Vec2> polygon) {
  Box box{toPoint(polygon[0]), toPoint(polygon[0])};
  for (const Vec2 v : polygon) include(box, toPoint(v));
  return box;
}

double distSqToSegment(Point p, Point a, Point b) {
  const double ex = b.x - a.x;
  const double ey = b.y - a.y;
  const double lengthSq = ex * ex + ey * ey;
  const double along = lengthSq > 0.0 ? ((p.x - a.x) * ex + (p.y - a.y) * ey) / lengthSq : 0.0;
  const double t = std::clamp(along, 0.0, 1.0);
  const double dx = p.x - (a.x + t * ex);
  const double dy = p.y - (a.y + t * ey);
  return dx * dx + dy * dy;
}

bool insidePolygon(Point p, std::span<const Vec2> polygon) {
  bool inside = false;
  for (std::size_t i = 0, j = polygon.size() - 1; i < polygon.size(); j = i++) {
    const Point a = toPoint(polygon[i]);
    const Point b = toPoint(polygon[j]);
    // Edges that straddle the ray's height; the crossing's x decides whether the ray meets it.
    if ((a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x) {
      inside = !inside;
    }
  }
  return inside;
}

SparseGrid binSegments(std::span<const Segment> segments, double reach, double minCellSize) {
  double totalLength = 0.0;
  Box bounds{{0.0, 0.0}, {0.0, 0.0}};
  for (std::size_t s = 0; s < segments.size(); ++s) {
    const Segment& segment = segments[s];
    totalLength += std::hypot(segment.b.x - segment.a.x, segment.b.y - segment.a.y);
    if (s == 0) bounds = Box{segment.a, segment.a};
    include(bounds, segment.a);
    include(bounds, segment.b);
  }
  double cellSize = std::max({minCellSize, reach, totalLength / kMaxSegmentPieces});
  if (!(cellSize > 0.0)) cellSize = 1.0;
  bounds = Box{Point{bounds.min.x - reach, bounds.min.y - reach},
               Point{bounds.max.x + reach, bounds.max.y + reach}};
  // Each piece is at most a cell long and its box grown by reach <= a cell: at most 3 x 3 cells,
  // of which the previous piece already listed about half.
  const double pieces = static_cast<double>(segments.size()) + totalLength / cellSize;
  SparseGrid grid(cellSize, bounds, static_cast<std::size_t>(std::min(6.0 * pieces, 1e9)));

  // Points within `reach` of a piece lie in the piece's bounding box grown by `reach`. The
  // pieces advance steadily along the segment, so a cell that a box shares with any earlier box
  // it also shares with the previous one: skipping those lists each segment once per cell.
  grid.bin(segments.size(), [&](std::size_t s, auto&& emit) {
    const Segment& segment = segments[s];
    const double length = std::hypot(segment.b.x - segment.a.x, segment.b.y - segment.a.y);
    const double count = std::max(1.0, std::ceil(length / cellSize));
    const auto pointAt = [&](double t) {
      return Point{segment.a.x + t * (segment.b.x - segment.a.x),
                   segment.a.y + t * (segment.b.y - segment.a.y)};
    };
    CellRange previous{{1, 1}, {0, 0}};  // Empty.
    for (double k = 0.0; k < count; k += 1.0) {
      const Point p = pointAt(k / count);
      const Point q = pointAt((k + 1.0) / count);
      const CellRange cells{grid.cellOf(Point{std::min(p.x, q.x) - reach, std::min(p.y, q.y) - reach}),
                            grid.cellOf(Point{std::max(p.x, q.x) + reach, std::max(p.y, q.y) + reach})};
      for (int x = cells.lo.x; x <= cells.hi.x; ++x) {
        for (int y = cells.lo.y; y <= cells.hi.y; ++y) {
          const bool seen =
              x >= previous.lo.x && x <= previous.hi.x && y >= previous.lo.y && y <= previous.hi.y;
          if (!seen) emit(CellCoord{x, y});
        }
      }
      previous = cells;
    }
  });
  return grid;
}

SparseGrid binBoxes(std::span<const Box> boxes, double minCellSize, double maxEntries) {
  // A w x h box covers about (w / c + 1) (h / c + 1) cells of side c: summed, area / c^2 +
  // (w + h) / c + 1 per box. Cells of at least sqrt(area / maxEntries) and
  // (w + h) / maxEntries keep each of the first two terms below maxEntries.
  double area = 0.0;
  double spans = 0.0;
  Box bounds{{0.0, 0.0}, {0.0, 0.0}};
  for (std::size_t b = 0; b < boxes.size(); ++b) {
    const Box& box = boxes[b];
    area += (box.max.x - box.min.x) * (box.max.y - box.min.y);
    spans += (box.max.x - box.min.x) + (box.max.y - box.min.y);
    if (b == 0) bounds = box;
    include(bounds, box.min);
    include(bounds, box.max);
  }
  double cellSize = std::max({minCellSize, std::sqrt(area / maxEntries), spans / maxEntries});
  if (!(cellSize > 0.0) || !std::isfinite(cellSize)) cellSize = 1.0;
  const double entries = static_cast<double>(boxes.size()) + area / (cellSize * cellSize) + spans / cellSize;
  SparseGrid grid(cellSize, bounds, static_cast<std::size_t>(std::min(entries, 1e9)));
  grid.bin(boxes.size(), [&](std::size_t b, auto&& emit) {
    const CellRange cells = cellRange(grid, boxes[b]);
    for (int y = cells.lo.y; y <= cells.hi.y; ++y) {
      for (int x = cells.lo.x; x <= cells.hi.x; ++x) emit(CellCoord{x, y});
    }
  });
  return grid;
}

}  // namespace crowd
