// The host's proximity grid for points, in either world (Vector Vec2 or Vec3): the measurements
// (contacts), the start-up checks (agents that overlap) and the built-ins use it to find every
// pair of points closer than a cell. Cells hash into buckets by CellHash (geometry.hpp), so memory
// stays linear in the points however far apart they lie; a bucket may also hold points of other
// cells, which the caller's exact distance test rejects. Coordinates are taken in double, so the
// grid itself never rounds a point into the wrong cell.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <crowd/kernels/vec2.hpp>
#include <crowd/kernels/vec3.hpp>

#include "geometry/geometry.hpp"

namespace crowd {

template <class Vector>
class PointGrid {
 public:
  static constexpr int kDimensions = Vector::length();
  using Cell = typename CellHash<kDimensions>::Cell;

  /// Bins `points` into cells of side `cellSize` (> 0): every point within `cellSize` of point i
  /// is among those forEachAround(i) visits. Non-finite points are binned at the grid's edge.
  PointGrid(std::span<const Vector> points, double cellSize) {
    std::array<double, kDimensions> lo{}, hi{};
    bool first = true;
    for (const Vector& point : points) {
      bool finite = true;
      for (int d = 0; d < kDimensions; ++d) finite = finite && std::isfinite(point[d]);
      if (!finite) continue;
      for (int d = 0; d < kDimensions; ++d) {
        lo[d] = first ? point[d] : std::min(lo[d], static_cast<double>(point[d]));
        hi[d] = first ? point[d] : std::max(hi[d], static_cast<double>(point[d]));
      }
      first = false;
    }
    hash_ = CellHash<kDimensions>(cellSize, lo, hi, points.size());
    binItems(
        points.size(), hash_.buckets(),
        [&](std::size_t i, auto&& emit) { emit(hash_.bucketOf(cellOf(points[i]))); }, start_, order_);
  }

  /// Every point, bucket by bucket: in space order where the grid does not wrap, so that visiting
  /// points in this order (rather than by number) reads nearby memory.
  std::span<const std::uint32_t> order() const { return order_; }

  /// Calls visit(j) for every point j binned in the 3 x 3 (x 3) cells around `p`'s cell, each
  /// bucket once, so every point is visited at most once. Point p itself is among them when it
  /// is one of the grid's.
  template <typename Visit>
  void forEachAround(const Vector& p, Visit&& visit) const {
    const Cell c = cellOf(p);
    std::size_t buckets[kDimensions == 2 ? 9 : 27];
    int count = 0;
    Cell around{};
    const auto add = [&] {
      const std::size_t b = hash_.bucketOf(around);
      if (std::find(buckets, buckets + count, b) == buckets + count) buckets[count++] = b;
    };
    for (int dz = kDimensions == 3 ? -1 : 0; dz <= (kDimensions == 3 ? 1 : 0); ++dz) {
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          around[0] = c[0] + dx;
          around[1] = c[1] + dy;
          if constexpr (kDimensions == 3) around[2] = c[2] + dz;
          add();
        }
      }
    }
    for (int k = 0; k < count; ++k) {
      for (std::uint32_t i = start_[buckets[k]]; i < start_[buckets[k] + 1]; ++i) visit(order_[i]);
    }
  }

 private:
  Cell cellOf(const Vector& point) const {
    Cell c{};
    for (int d = 0; d < kDimensions; ++d) c[d] = hash_.coordinate(point[d]);
    return c;
  }

  CellHash<kDimensions> hash_;
  std::vector<std::uint32_t> start_;
  std::vector<std::uint32_t> order_;
};

}  // namespace crowd
