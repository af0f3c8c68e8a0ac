// Contacts between agents, in either world: every pair within kSeparationReach combined radii,
// found through the proximity grid, how many are closer than kContactFraction of their combined
// radii (each pair once) and the smallest distance over combined radii. The planar count adds
// the obstacles (metrics.cpp); the 3D one is this alone (metrics3.cpp).
#pragma once

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>

#include <crowd/metrics.hpp>

#include "geometry/point_grid.hpp"

namespace crowd {

/// Pairs are looked for out to this many combined radii; the separation ratio is reported below it.
inline constexpr float kSeparationReach = 1.5f;
/// A pair (or an agent and an obstacle) is in contact closer than this share of the radii.
inline constexpr float kContactFraction = 0.99f;

/// The side of the cells in which every pair within kSeparationReach combined radii of agents no
/// larger than `maxRadius` lies in adjacent cells.
inline double contactReach(double maxRadius) {
  return std::max(2.0 * kSeparationReach * maxRadius, 1e-3);
}

/// Adds the agents' pair contacts to stats.collisions and stats.minSeparationRatio.
template <class Vector>
void measureAgentPairs(std::span<const Vector> positions, std::span<const float> radii, int threads,
                       ContactStats& stats) {
  double maxRadius = 0.0;
  for (const float r : radii) maxRadius = std::max(maxRadius, static_cast<double>(r));
  if (positions.size() < 2 || !(maxRadius > 0.0)) return;  // Zero discs never touch.
  const PointGrid<Vector> grid(positions, contactReach(maxRadius));
  // Agents taken in grid order, so that neighbouring agents' lists are read together.
  const std::span<const std::uint32_t> order = grid.order();
  std::int64_t collisions = 0;
  double minRatio = stats.minSeparationRatio;
  const int team = threads > 0 ? threads : omp_get_max_threads();
#pragma omp parallel for num_threads(team) schedule(dynamic, 1024) reduction(+ : collisions) \
    reduction(min : minRatio)
  for (int k = 0; k < static_cast<int>(order.size()); ++k) {
    const std::uint32_t i = order[static_cast<std::size_t>(k)];
    grid.forEachAround(positions[i], [&](std::uint32_t j) {
      if (j <= i) return;  // Each pair once.
      const double combined = static_cast<double>(radii[i]) + radii[j];
      const double distance = std::sqrt(static_cast<double>(absSq(positions[i] - positions[j])));
      if (distance < kContactFraction * combined) ++collisions;
      if (combined > 0 && distance < kSeparationReach * combined)
        minRatio = std::min(minRatio, distance / combined);
    });
  }
  stats.collisions += collisions;
  stats.minSeparationRatio = minRatio;
}

}  // namespace crowd
