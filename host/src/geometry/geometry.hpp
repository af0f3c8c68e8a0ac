// Host-side plane geometry in double precision, shared by the scenario checks, the contact
// metrics and the obstacle polygons: points and boxes, point-segment distance, the even-odd
// inside test, and binning items into grid cells.
//
// Binning is one counting sort into compressed lists (CSR: bin b holds
// items[start[b] .. start[b + 1]), items in index order), in two passes over the items' bins.
// Dense grids (the obstacle index's edge grid) use it directly; SparseGrid hashes cells of an
// unbounded grid into buckets first, so memory stays linear in what is binned however far apart
// the items lie: segments and boxes here, points in point_grid.hpp. (The per-step agent grid,
// sim/cpu/cpu_agent_grid.hpp, keeps its own parallel build.)
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <crowd/kernels/uniform_grid.hpp>
#include <crowd/kernels/vec2.hpp>

namespace crowd {

/// A point (or vector) in double precision, for host maths that must not round like float.
struct Point {
  double x;
  double y;
};

inline Point toPoint(Vec2 v) {
  return Point{v.x, v.y};
}
inline Vec2 toVec2(Point p) {
  return Vec2(static_cast<float>(p.x), static_cast<float>(p.y));
}

/// An axis-aligned box, closed on every side.
struct Box {
  Point min;
  Point max;
  bool contains(Point p) const { return p.x >= min.x && p.x <= max.x && p.y >= min.y && p.y <= max.y; }
  bool overlaps(const Box& other) const {
    return min.x <= other.max.x && other.min.x <= max.x && min.y <= other.max.y && other.min.y <= max.y;
  }
};

/// The smallest box holding every vertex of a non-empty polygon.
Box boundsOf(std::span<const Vec2> polygon);

/// Squared distance from `p` to the segment a-b (a point when a == b).
double distSqToSegment(Point p, Point a, Point b);

/// Whether `p` is inside `polygon` by the even-odd rule (a ray towards +x), whichever way the
/// polygon winds. Points on the boundary may go either way.
bool insidePolygon(Point p, std::span<const Vec2> polygon);

/// Counting sort of items 0..itemCount-1 into `binCount` bins: `forEachBin(item, emit)` calls
/// emit(bin) for every bin the item belongs to (the same sequence on both passes). Afterwards
/// bin b lists items[start[b] .. start[b + 1]), in item order.
template <typename Index, typename ForEachBin>
void binItems(std::size_t itemCount, std::size_t binCount, ForEachBin&& forEachBin, std::vector<Index>& start,
              std::vector<Index>& items) {
  start.assign(binCount + 1, 0);
  for (std::size_t i = 0; i < itemCount; ++i) forEachBin(i, [&](std::size_t bin) { ++start[bin + 1]; });
  for (std::size_t b = 0; b < binCount; ++b) start[b + 1] += start[b];
  items.resize(static_cast<std::size_t>(start[binCount]));
  std::vector<Index> fill(start.begin(), start.end() - 1);
  for (std::size_t i = 0; i < itemCount; ++i) {
    forEachBin(
        i, [&](std::size_t bin) { items[static_cast<std::size_t>(fill[bin]++)] = static_cast<Index>(i); });
  }
}

/// The cells of an unbounded grid (D = 2 or 3 dimensions, cells of side cellSize) hashed onto a
/// power-of-two number of buckets by their row-major index over a bounding box of cells, modulo
/// the bucket count, as the kernels' agent grid does: neighbouring cells stay close in memory, a
/// grid with fewer cells than buckets is a plain dense one, and memory stays linear in what is
/// binned however far apart it lies. What SparseGrid (items in the plane) and PointGrid (points,
/// point_grid.hpp) bin by.
template <int D>
class CellHash {
 public:
  using Cell = std::array<int, D>;

  CellHash() = default;
  /// For about `entries` (item, cell) pairs within the box [lo, hi] (at most one pair per bucket
  /// on average); rows (and layers) longer than the table are capped, so wide worlds share buckets.
  CellHash(double cellSize, const std::array<double, D>& lo, const std::array<double, D>& hi,
           std::size_t entries)
      : cellSize_(cellSize) {
    std::uint32_t buckets = 64;
    while (buckets < entries && buckets < (1u << 30)) buckets *= 2;
    mask_ = buckets - 1;
    for (int d = 0; d < D; ++d) {
      origin_[d] = coordinate(lo[d]);
      const long long width = static_cast<long long>(coordinate(hi[d])) - origin_[d] + 1;
      extent_[d] = static_cast<std::uint32_t>(std::clamp(width, 1LL, static_cast<long long>(buckets)));
    }
  }

  double cellSize() const { return cellSize_; }
  std::size_t buckets() const { return static_cast<std::size_t>(mask_) + 1; }
  /// The cell coordinate of `value`, clamped to +-2^30 cells (NaN to the lower end): every point
  /// has a cell, its neighbours (+-1) still fit an int, and the mapping never decreases.
  int coordinate(double value) const {
    constexpr double kLimit = 1073741824.0;
    const double cell = std::floor(value / cellSize_);
    if (!(cell > -kLimit)) return -(1 << 30);
    return cell < kLimit ? static_cast<int>(cell) : 1 << 30;
  }
  std::size_t bucketOf(const Cell& c) const {
    std::uint32_t index = 0;
    for (int d = D - 1; d >= 0; --d) {
      index =
          index * extent_[d] + (static_cast<std::uint32_t>(c[d]) - static_cast<std::uint32_t>(origin_[d]));
    }
    return index & mask_;
  }

 private:
  double cellSize_ = 1.0;
  Cell origin_{};
  std::array<std::uint32_t, D> extent_{};
  std::uint32_t mask_ = 0;
};

/// Items (segments, boxes) binned into the square cells of a grid over the whole plane, by
/// CellHash. A lookup returns the cell's bucket: every item binned in that cell, plus any of cells
/// sharing the bucket, which the caller's exact test rejects.
class SparseGrid {
 public:
  SparseGrid() = default;
  /// Cells of side `cellSize` (> 0) for items inside `bounds`, sized for about `entries`
  /// (item, cell) pairs. Call bin() next.
  SparseGrid(double cellSize, const Box& bounds, std::size_t entries)
      : hash_(cellSize, {bounds.min.x, bounds.min.y}, {bounds.max.x, bounds.max.y}, entries),
        start_(hash_.buckets() + 1, 0) {}

  double cellSize() const { return hash_.cellSize(); }

  /// The cell holding `p` (CellHash::coordinate on each axis).
  CellCoord cellOf(Point p) const { return CellCoord{hash_.coordinate(p.x), hash_.coordinate(p.y)}; }

  std::size_t bucketOf(CellCoord c) const { return hash_.bucketOf({c.x, c.y}); }

  /// Bins items 0..count-1: `cellsOf(item, emit)` calls emit(CellCoord) for each of its cells.
  template <typename CellsOf>
  void bin(std::size_t count, CellsOf&& cellsOf) {
    binItems(
        count, hash_.buckets(),
        [&](std::size_t item, auto&& emit) { cellsOf(item, [&](CellCoord c) { emit(bucketOf(c)); }); },
        start_, items_);
  }

  /// The items of `cell`'s bucket, in item order.
  std::span<const std::uint32_t> candidates(CellCoord cell) const {
    const std::size_t b = bucketOf(cell);
    return std::span<const std::uint32_t>(items_).subspan(start_[b], start_[b + 1] - start_[b]);
  }
  std::span<const std::uint32_t> candidatesAt(Point p) const { return candidates(cellOf(p)); }

 private:
  CellHash<2> hash_{};
  std::vector<std::uint32_t> start_{0, 0};
  std::vector<std::uint32_t> items_;
};

struct Segment {
  Point a;
  Point b;
};

/// Segments binned so that the candidates of a point's cell (candidatesAt) include every
/// segment within `reach` of the point. Cells are `minCellSize` wide, or wider when the
/// segments are so long that they would fill more than about 2e5 cells; `reach` and
/// `minCellSize` must be finite, as must every segment.
SparseGrid binSegments(std::span<const Segment> segments, double reach, double minCellSize);

/// Boxes binned so that the candidates of a point's cell (candidatesAt) include every box that
/// contains the point, and two overlapping boxes share at least one cell (cellRange). Cells are
/// at least `minCellSize` wide, and wide enough that the (box, cell) entries stay below about
/// 2 * maxEntries + boxes.size(). Every box must be finite.
SparseGrid binBoxes(std::span<const Box> boxes, double minCellSize, double maxEntries);

/// The cells of `grid` that `box` touches, as an inclusive range.
inline CellRange cellRange(const SparseGrid& grid, const Box& box) {
  return CellRange{grid.cellOf(box.min), grid.cellOf(box.max)};
}

}  // namespace crowd
