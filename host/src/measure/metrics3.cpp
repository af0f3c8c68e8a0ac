// Run metrics of 3D worlds: contacts between spheres, from the proximity grid, and the collector's
// observation of a Simulator3 (arrivals, speeds, costs as in a planar run).
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include <crowd/metrics.hpp>

#include "geometry/point_grid.hpp"

namespace crowd {
namespace {

// As the planar count: a pair collides below 99% of its combined radii, and separation ratios
// are reported out to 1.5 combined radii.
constexpr float kCollisionFraction = 0.99f;
constexpr float kSeparationReach = 1.5f;

}  // namespace

ContactStats measureContacts3(std::span<const Vec3> positions, std::span<const float> radii, int threads) {
  checkContactInputs(positions.size(), radii, threads);
  ContactStats stats;
  const std::size_t n = positions.size();
  if (n < 2) return stats;
  float largest = 0.0f;
  for (const float r : radii) largest = std::max(largest, r);
  if (!(largest > 0.0f)) return stats;
  const float reach = 2.0f * kSeparationReach * largest;
  const int useThreads = threads > 0 ? threads : omp_get_max_threads();
  const PointGrid<Vec3> grid(positions, std::max(reach, 1e-3f));
  const std::span<const std::uint32_t> order = grid.order();
  std::int64_t collisions = 0;
  double minRatio = stats.minSeparationRatio;
#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : collisions) reduction(min : minRatio) num_threads(useThreads)
  for (int k = 0; k < static_cast<int>(n); ++k) {
    // Every pair within reach, as the planar count: a dense pile has more than a neighbour list.
    const std::size_t self = order[static_cast<std::size_t>(k)];
    const Vec3 p = positions[self];
    grid.forEachAround(p, [&](std::uint32_t other) {
      const float distSq = absSq(positions[other] - p);
      if (other == self || !(distSq < reach * reach)) return;
      const double combined = static_cast<double>(radii[self]) + radii[other];
      const double distance = std::sqrt(static_cast<double>(distSq));
      if (!(distance < kSeparationReach * combined)) return;
      minRatio = std::min(minRatio, distance / combined);
      if (self < other && distance < kCollisionFraction * combined) ++collisions;  // Each pair once.
    });
  }
  stats.collisions = collisions;
  stats.minSeparationRatio = minRatio;
  return stats;
}

void MetricsCollector::observe(const Simulator3& sim) {
  if (recordCommon(sim) && contacts_) {
    recordContacts(measureContacts3(sim.positions(), sim.radii(), sim.config().threads));
  }
}

}  // namespace crowd
