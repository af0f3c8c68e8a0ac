// What the steering phase reads besides the agent columns and their steering state
// (steering_state.hpp): each profile's behaviours and their parameters (SteeringTerms, indexed
// like ProfileTerms) and the paths agents follow.
#pragma once

#include <cstdint>

#include "behavior_kinds.hpp"
#include "circle_obstacle.hpp"
#include "config.hpp"
#include "frenet_settings.hpp"
#include "model_terms.hpp"
#include "vec2.hpp"

namespace crowd {

/// One profile's behaviours and parameters, as the per-agent code uses them. `goalOnly` marks
/// the default (RVO2's rule, no integration), so those agents take exactly today's path.
struct SteeringTerms {
  BehaviorKind kind[kMaxBehaviors];
  float weight[kMaxBehaviors];
  int count;
  CombineRule combine;
  PursuitKind pursuit;
  AvoidanceMode avoidance;  ///< The motion model: what turns the steered velocity into the new one.
  ModelTerms model;         ///< The pedestrian models' parameters and the density-aware speed.
  bool goalOnly;
  int path;  ///< Index into PathView, -1 for none, or kOwnRoute.
  float maxForce;
  float invMass;
  float slowingRadius;  ///< Raised to 4 * mass * prefSpeed (steer_seek.hpp); the step raises it for dt too.
  float pathRadius;
  float lookAhead;
  float wanderRadius;
  float wanderDistance;
  float wanderJitter;  ///< Radians per second, at most.
  float boxLength;
  float separationRadius;
  LocalPlanner planner;
  FrenetSettings frenet;  ///< targetSpeed and maxSpeed are the agent's prefSpeed and maxSpeed.
};

/// Every path, CSR style: path p has points[start[p] .. start[p+1]), closed when loop[p] != 0.
struct PathView {
  const Vec2* points;
  const int* start;
  const std::uint8_t* loop;
  int count;

  CROWD_HD int size(int p) const { return start[p + 1] - start[p]; }
  /// Segments of path p: a loop has one more, from its last point back to its first.
  CROWD_HD int segments(int p) const { return size(p) - (loop[p] != 0 ? 0 : 1); }
  /// Point i of path p, with i taken modulo the path's size.
  CROWD_HD Vec2 point(int p, int i) const {
    const int n = size(p);
    return points[start[p] + ((i % n) + n) % n];
  }
};

}  // namespace crowd
