// Separation (Reynolds 1999): push away from each neighbour within a radius, in inverse
// proportion to its distance, so near neighbours count most. Uses the neighbour phase's lists;
// the same in a planar and a 3D world.
#pragma once

#include "config.hpp"
#include "step_view.hpp"
#include "vec2.hpp"

namespace crowd {

/// Sum over the agent's neighbours q within `radius` of (p - q) / |p - q|^2, times `speed`:
/// a neighbour at distance d adds speed / d away from it.
template <class Vector>
CROWD_HD inline Vector separationForce(const NeighbourTable& neighbours, const Vector* positions, int self,
                                       float radius, float speed) {
  const Vector p = positions[self];
  Vector sum(0.0f);
  const float radiusSq = radius * radius;
  for (int m = 0; m < neighbours.count[self]; ++m) {
    const Vector away = p - positions[neighbours.at(self, m)];
    const float distSq = absSq(away);
    if (distSq > 0.0f && distSq < radiusSq) sum += away * (speed / distSq);
  }
  return sum;
}

}  // namespace crowd
