// Separation (Reynolds 1999): push away from each neighbour within a radius, in inverse
// proportion to its distance, so near neighbours count most. Uses the neighbour phase's lists.
#pragma once

#include "config.hpp"
#include "step_view.hpp"
#include "vec2.hpp"

namespace crowd {

/// Sum over the agent's neighbours q within `radius` of (p - q) / |p - q|^2, times `speed`:
/// a neighbour at distance d adds speed / d away from it.
CROWD_HD inline Vec2 separationForce(const NeighbourTable& neighbours, const Vec2* positions, int self,
                                     float radius, float speed) {
  const Vec2 p = positions[self];
  Vec2 sum(0.0f, 0.0f);
  const float radiusSq = radius * radius;
  for (int m = 0; m < neighbours.count[self]; ++m) {
    const Vec2 away = p - positions[neighbours.at(self, m)];
    const float distSq = absSq(away);
    if (distSq > 0.0f && distSq < radiusSq) sum += away * (speed / distSq);
  }
  return sum;
}

}  // namespace crowd
