// The steering vocabulary a profile is described in: the behaviours it combines, how, what
// avoids collisions for it, and its local planner. Plain tags without maths, so that the library's
// public Behavior (crowd/behavior.hpp) can name them without pulling in the per-agent code.
#pragma once

#include <cstdint>

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

/// The motion model: what turns the steered (desired) velocity into the new velocity. Scenario
/// files name it "model" (or, for the first two, "avoidance").
enum class AvoidanceMode : std::uint8_t {
  Orca,         ///< ORCA among agents and obstacles, with the steered velocity as preferred velocity.
  None,         ///< The steered velocity is the new velocity (behaviours alone avoid anything).
  Csm,          ///< The collision-free speed model (collision_free_speed.hpp); planar worlds.
  SocialForce,  ///< The social force model (social_force.hpp); planar worlds.
};
inline constexpr int kAvoidanceModeCount = 4;
inline constexpr const char* kAvoidanceModeNames[kAvoidanceModeCount] = {"orca", "none", "csm",
                                                                         "socialforce"};

/// A local planner that replaces the behaviours' forces: the agent follows a planned trajectory
/// along the reference line of its path (steer_frenet.hpp).
enum class LocalPlanner : std::uint8_t {
  None,
  Frenet,  ///< Quintic lateral and quartic longitudinal candidates in the path's Frenet frame.
};

/// Most behaviours one profile combines.
inline constexpr int kMaxBehaviors = 4;

/// SteeringTerms::path value meaning "each agent's own route" (SteeringState::route): agents of
/// one profile can then follow different paths (routes planned per agent).
inline constexpr int kOwnRoute = -2;

}  // namespace crowd
