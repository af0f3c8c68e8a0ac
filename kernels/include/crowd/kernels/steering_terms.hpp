// What the steering phase needs besides the agent columns: each profile's behaviours and their
// parameters (SteeringTerms, indexed like ProfileTerms), the paths agents follow, the circular
// obstacles, and each agent's steering state (wander direction, path segment, last seen target),
// kept by agent id so that it survives the backends' reordering of the agents every step.
#pragma once

#include <cstdint>

#include "agent_id.hpp"
#include "config.hpp"
#include "frenet_planner.hpp"
#include "vec2.hpp"

namespace crowd {

/// The behaviours a profile can combine. `Goal` is RVO2's rule (head for the goal at prefSpeed)
/// and the default: a profile whose only behaviour is Goal gets exactly RVO2's preferred velocity.
enum class BehaviorKind : std::uint8_t {
  Goal,            ///< Head for the goal, no faster than prefSpeed.
  Seek,            ///< Full prefSpeed towards the target agent, else the goal.
  Flee,            ///< Full prefSpeed away from the target agent, else the goal.
  Arrive,          ///< Seek, slowing linearly inside the slowing radius: stops on the point.
  Wander,          ///< Seek a point on a circle ahead that jitters a little each step.
  Separation,      ///< Away from neighbours within separationRadius, more from nearer ones.
  FollowPath,      ///< Reynolds' predictive path following.
  Pursue,          ///< Chase the target agent (PursuitKind says how).
  Evade,           ///< Flee the target agent's predicted position (the mirror of intercept).
  AvoidObstacles,  ///< Detection-box avoidance of circles and polygon edges (Buckland).
};
inline constexpr int kBehaviorKindCount = 10;
inline constexpr const char* kBehaviorNames[kBehaviorKindCount] = {
    "goal", "seek", "flee", "arrive", "wander", "separation", "follow", "pursue", "evade", "avoid"};

/// The three pursuit rules of the classic game-AI literature.
enum class PursuitKind : std::uint8_t {
  Chase,      ///< Coordinate chase: each axis moves towards the target's coordinate.
  Sight,      ///< Line of sight: straight at the target's current position, full speed.
  Intercept,  ///< At the target's position predicted after the closing time, full speed.
};
inline constexpr int kPursuitKindCount = 3;
inline constexpr const char* kPursuitNames[kPursuitKindCount] = {"chase", "sight", "intercept"};

/// How several behaviours' forces make one.
enum class CombineRule : std::uint8_t {
  Sum,       ///< Weighted sum.
  Priority,  ///< The first behaviour (in list order) whose weighted force is not zero.
};

/// What turns the steered velocity into the new velocity.
enum class AvoidanceMode : std::uint8_t {
  Orca,  ///< ORCA among agents and obstacles, with the steered velocity as preferred velocity.
  None,  ///< The steered velocity is the new velocity (behaviours alone avoid anything).
};

/// A local planner that replaces the behaviours' forces: the agent follows a planned trajectory
/// along the reference line of its path (steer_frenet.hpp).
enum class LocalPlanner : std::uint8_t {
  None,
  Frenet,  ///< Quintic lateral and quartic longitudinal candidates in the path's Frenet frame.
};

/// Most behaviours one profile combines.
inline constexpr int kMaxBehaviors = 4;

/// One profile's behaviours and parameters, as the per-agent code uses them. `goalOnly` marks
/// the default (RVO2's rule, no integration), so those agents take exactly today's path.
struct SteeringTerms {
  BehaviorKind kind[kMaxBehaviors];
  float weight[kMaxBehaviors];
  int count;
  CombineRule combine;
  PursuitKind pursuit;
  AvoidanceMode avoidance;
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

/// SteeringTerms::path value meaning "each agent's own route" (SteeringState::route): agents of
/// one profile can then follow different paths (routes planned per agent).
inline constexpr int kOwnRoute = -2;

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

/// A circular obstacle: ORCA sees it as a polygon around it, the detection box as the disc.
struct CircleObstacle {
  Vec2 center;
  float radius;
};

/// Bits of SteeringState::flags.
enum SteeringFlags : std::uint8_t {
  kTargetSeen = 1,  ///< lastTarget holds where the target was at the end of the last step.
};

/// Per-agent steering state, indexed by AgentId::index. A step reads the `in` arrays and writes
/// the `out` arrays, which become the next step's `in` only when the step is accepted: a step
/// refused for a non-finite result leaves the state as it was. Every agent reads and writes only
/// its own entries.
struct SteeringState {
  const AgentId* target;      ///< Pursued, evaded, sought or fled agent; kNoTarget for none.
  const int* route;           ///< The agent's own path (for kOwnRoute), -1 for none.
  const Vec2* wanderIn;       ///< Unit wander direction in the agent's frame; (0, 0) before the first.
  Vec2* wanderOut;
  const int* segmentIn;       ///< Current path segment; -1 before the first (then all are searched).
  int* segmentOut;
  const Vec2* lastTargetIn;   ///< The target's position a step ago (see kTargetSeen).
  Vec2* lastTargetOut;
  const std::uint8_t* flagsIn;
  std::uint8_t* flagsOut;
  const FrenetTrack* trackIn;  ///< Null when no profile plans.
  FrenetTrack* trackOut;
  const int* slotOfId;        ///< Sorted slot of each live agent id this step, -1 for none.
  int idCount;                ///< Entries of slotOfId (0 when no agent has a target).
};

/// No target.
inline constexpr AgentId kNoTarget{UINT32_MAX, UINT32_MAX};

}  // namespace crowd
