// Voronoi cells cut by a disc, counted in pixels: what a measurement area's Voronoi density and
// speed are made of (crowd/measurement.hpp). Each pixel of a square lattice goes to the nearest
// agent within the cut-off, which is the cell of the cut Voronoi diagram sampled at the pixel
// centres; an agent's cell is then its pixel count, and its part in the area the count of its
// pixels whose centre lies inside the polygon.
//
// Rasterising rather than clipping polygons keeps the code short, and the figures converge as
// the pixels shrink. A pixel row is not searched pixel by pixel: along it, each agent within a
// cut-off of the row has a squared distance (x - x_i)^2 + dy_i^2, parabolas of one shape whose
// lower envelope (Felzenszwalb and Huttenlocher's distance transform) gives the nearest agent
// piece by piece, so a row costs its nearby agents (sorted), not its pixels times them. A pixel
// centre exactly where two pieces meet goes to the agent on its right; agents at the same point
// leave the pixels to the one listed first.
//
// Only the cells that reach the area matter: their agents lie within a cut-off of it, so their
// cells lie within two cut-offs, and the lattice covers the area's bounding box grown by that
// much. Agents up to three cut-offs out compete for those pixels, so the caller passes every
// agent in reach().
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <crowd/kernels/vec2.hpp>

#include "geometry/geometry.hpp"

namespace crowd {

/// The area of a polygon (shoelace formula in double), whichever way it winds.
double polygonArea(std::span<const Vec2> polygon);

/// Pixels of side `resolution` over `polygon`'s bounding box grown by twice `cutOff` on every
/// side, as VoronoiRaster lays them: what the plan check bounds.
double voronoiRasterPixels(std::span<const Vec2> polygon, double cutOff, double resolution);

class VoronoiRaster {
 public:
  /// One agent's cell: its pixels, and those of them inside the area.
  struct Share {
    std::int64_t cell = 0;
    std::int64_t inside = 0;
  };

  /// For a checked measurement area (simple, at most kMaxAreaPixels pixels).
  VoronoiRaster(std::span<const Vec2> polygon, double cutOff, double resolution);

  /// The box every agent that may own one of the lattice's pixels lies in.
  const Box& reach() const { return reach_; }
  /// Pixels whose centre lies inside the polygon (even-odd rule): the area in pixels.
  std::int64_t areaPixels() const { return areaPixels_; }

  /// Fills `shares` (one per agent) for agents at `positions`, which must hold every agent inside
  /// reach(). `threads`: 0 uses OpenMP's default. The counts depend on neither the thread count
  /// nor the order of `positions` (but for agents at the same point: see above).
  void measure(std::span<const Vec2> positions, int threads, std::vector<Share>& shares) const;

 private:
  /// The first column whose pixel centre lies at or right of x (clamped to the lattice).
  int columnFrom(double x) const;

  /// Columns [begin, end) of one row whose pixel centres lie inside the polygon.
  struct Run {
    int begin;
    int end;
  };

  double cutOff_;
  double resolution_;
  Point origin_{};  ///< The lower corner of pixel (0, 0).
  int columns_ = 0;
  int rows_ = 0;
  Box reach_{};
  std::vector<std::uint32_t> runStart_;  ///< Row r's runs are runs_[runStart_[r] .. runStart_[r + 1]).
  std::vector<Run> runs_;
  std::int64_t areaPixels_ = 0;
};

}  // namespace crowd
