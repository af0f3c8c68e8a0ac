// Separation (Reynolds 1999): push away from each neighbour within a radius, in inverse
// proportion to its distance, so near neighbours count most. Uses the neighbour phase's lists;
// the same in a planar and a 3D world.
#pragma once

#include "config.hpp"
#include "periodic.hpp"
#include "step_view.hpp"
#include "vec2.hpp"

namespace crowd {

/// A neighbour nearer than this pushes as hard as one at this distance: speed / d alone would
/// overflow to infinity for neighbours all but on top of the agent.
inline constexpr float kSeparationNearest = 1e-6f;

/// Sum over the agent's neighbours q within `radius` of (p - q) / |p - q|^2, times `speed`:
/// a neighbour at distance d adds speed / max(d, kSeparationNearest) away from it.
template <class Vector>
CROWD_HD inline Vector separationForce(const NeighbourTable& neighbours, const Vector* positions, int self,
                                       float radius, float speed, const PeriodicBoundary& periodic = {}) {
  const Vector p = positions[self];
  Vector sum(0.0f);
  const float radiusSq = radius * radius;
  for (int m = 0; m < neighbours.count[self]; ++m) {
    const Vector away = p - periodic.imageNear(positions[neighbours.at(self, m)], p);
    const float distSq = absSq(away);
    if (!(distSq > 0.0f && distSq < radiusSq)) continue;
    const float nearest = kSeparationNearest * kSeparationNearest;
    sum += away * (distSq >= nearest ? speed / distSq : speed / (kSeparationNearest * std::sqrt(distSq)));
  }
  return sum;
}

}  // namespace crowd
