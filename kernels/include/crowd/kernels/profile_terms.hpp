// Per-profile values derived once per step from an agent parameter set.
#pragma once

namespace crowd {

/// Computed as RVO2 computes them (1/timeHorizon in float and so on), so the per-agent code
/// does no division RVO2 does not. 40 bytes.
struct ProfileTerms {
  float radius;
  float maxSpeed;
  float prefSpeed;
  float neighborDist;
  float neighborDistSq;
  int maxNeighbors;
  float invTimeHorizon;
  float invTimeHorizonObst;
  float obstacleRange;  ///< timeHorizonObst * maxSpeed + radius: RVO2's obstacle query range.
  float goalRadiusSq;
};

}  // namespace crowd
