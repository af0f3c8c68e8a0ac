// The Frenet planner's settings (frenet_planner.hpp plans with them): plain data, so that the
// public Behavior can carry them without the planner's maths.
#pragma once

#include <compare>

namespace crowd {

/// Most samples per candidate axis (offsets, speeds, horizons), fixed for fixed-size loops.
inline constexpr int kMaxFrenetSamples = 9;

struct FrenetSettings {
  float laneHalfWidth = 1.75f;  ///< End offsets span [-laneHalfWidth, +laneHalfWidth].
  int offsets = 7;              ///< Lateral end offsets, evenly spread. [1, kMaxFrenetSamples]
  float targetSpeed = 2.0f;     ///< The speed the agent wants along its reference.
  float speedSpread = 1.0f;     ///< End speeds span targetSpeed +- speedSpread (>= 0, clamped at 0).
  int speeds = 5;               ///< [1, kMaxFrenetSamples]
  float minHorizon = 2.0f;      ///< Seconds. (0, maxHorizon]
  float maxHorizon = 5.0f;
  int horizons = 4;  ///< [1, kMaxFrenetSamples]
  float weightJerk = 0.1f;
  float weightTime = 0.1f;
  float weightDeviation = 1.0f;
  float weightLateral = 1.0f;
  float weightLongitudinal = 1.0f;
  float maxSpeed = 4.0f;
  float maxAcceleration = 3.0f;  ///< Along the path and across it (v^2 kappa), each.
  float maxCurvature = 1.0f;
  float checkStep = 0.2f;       ///< Seconds between the points a candidate is checked at.
  float margin = 0.3f;          ///< Clearance kept from obstacles and others, beyond the radii.
  float replanInterval = 0.5f;  ///< Seconds a plan is followed before the next one.

  auto operator<=>(const FrenetSettings&) const = default;
};

}  // namespace crowd
