// The host's proximity grid for points, in either world (Vector Vec2 or Vec3): the measurements
// (contacts), the start-up checks (agents that overlap) and the built-ins use it to find every
// pair of points closer than a cell. Cells of an unbounded grid hash into a power-of-two number of
// buckets by their row-major index over the points' bounding box (as SparseGrid does in the
// plane), so memory stays linear in the points however far apart they lie; a bucket may also
// hold points of other cells, which the caller's exact distance test rejects. Coordinates are
// taken in double, so the grid itself never rounds a point into the wrong cell.
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
  using Cell = std::array<int, kDimensions>;

  /// Bins `points` into cells of side `cellSize` (> 0): every point within `cellSize` of point i
  /// is among those forEachAround(i) visits. Non-finite points are binned at the grid's edge.
  PointGrid(std::span<const Vector> points, double cellSize) : cellSize_(cellSize) {
    std::array<double, kDimensions> lo{}, hi{};
    bool first = true;
    for (const Vector& p : points) {
      bool finite = true;
      for (int d = 0; d < kDimensions; ++d) finite = finite && std::isfinite(p[d]);
      if (!finite) continue;
      for (int d = 0; d < kDimensions; ++d) {
        lo[d] = first ? p[d] : std::min(lo[d], static_cast<double>(p[d]));
        hi[d] = first ? p[d] : std::max(hi[d], static_cast<double>(p[d]));
      }
      first = false;
    }
    // At most one point per bucket on average, as a power of two so that the hash is a mask.
    std::uint32_t buckets = 64;
    while (buckets < points.size() && buckets < (1u << 30)) buckets *= 2;
    bucketMask_ = buckets - 1;
    // Rows (and layers) longer than the table would wrap onto themselves; cap them.
    for (int d = 0; d < kDimensions; ++d) {
      origin_[d] = cellCoordinate(lo[d]);
      const long long width = static_cast<long long>(cellCoordinate(hi[d])) - origin_[d] + 1;
      extent_[d] = static_cast<std::uint32_t>(std::clamp(width, 1LL, static_cast<long long>(buckets)));
    }
    binItems(
        points.size(), static_cast<std::size_t>(buckets),
        [&](std::size_t i, auto&& emit) { emit(bucketOf(cellOf(points[i]))); }, start_, order_);
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
      const std::size_t b = bucketOf(around);
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
  // Coordinates are clamped to +-2^30 cells (NaN to the lower end), so every point has a cell and
  // its neighbours (+-1) still fit an int.
  int cellCoordinate(double value) const {
    constexpr double kLimit = 1073741824.0;
    const double cell = std::floor(value / cellSize_);
    if (!(cell > -kLimit)) return -(1 << 30);
    return cell < kLimit ? static_cast<int>(cell) : 1 << 30;
  }
  Cell cellOf(const Vector& p) const {
    Cell c{};
    for (int d = 0; d < kDimensions; ++d) c[d] = cellCoordinate(p[d]);
    return c;
  }
  std::size_t bucketOf(const Cell& c) const {
    std::uint32_t index = 0;
    for (int d = kDimensions - 1; d >= 0; --d) {
      index =
          index * extent_[d] + (static_cast<std::uint32_t>(c[d]) - static_cast<std::uint32_t>(origin_[d]));
    }
    return index & bucketMask_;
  }

  double cellSize_;
  Cell origin_{};
  std::array<std::uint32_t, kDimensions> extent_{};
  std::uint32_t bucketMask_ = 0;
  std::vector<std::uint32_t> start_;
  std::vector<std::uint32_t> order_;
};

}  // namespace crowd
