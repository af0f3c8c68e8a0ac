// The steering phase's per-agent maths: each of the profile's behaviours gives a force (the
// behaviour headers steer_*.hpp), the forces are combined (weighted sum, or the first non-zero in
// priority order), truncated to maxForce, divided by mass and integrated into the velocity; the
// result, clipped to maxSpeed, is the agent's preferred velocity (ORCA's input), or its new
// velocity when the profile's avoidance is None. A switch on the behaviour tag, no virtual calls,
// so the same code runs on the GPU.
#pragma once

#include <cstdint>

#include "config.hpp"
#include "profile_terms.hpp"
#include "steer_avoid.hpp"
#include "steer_frenet.hpp"
#include "steer_path.hpp"
#include "steer_pursuit.hpp"
#include "steer_route.hpp"
#include "steer_seek.hpp"
#include "steer_separation.hpp"
#include "steer_wander.hpp"
#include "steering_terms.hpp"
#include "step_view.hpp"
#include "vec2.hpp"

namespace crowd {

/// Force truncated to maxForce, divided by mass and added over one step: v + F * dt / m, with
/// the gain dt / m capped at 1 (a light agent reaches the desired velocity, never beyond it),
/// then clipped to maxSpeed.
template <class Vector>
CROWD_HD inline Vector integrateSteering(Vector velocity, Vector force, float maxForce, float invMass,
                                         float timeStep, float maxSpeed) {
  const float gain = timeStep * invMass < 1.0f ? timeStep * invMass : 1.0f;
  return clipToLength(velocity + clipToLength(force, maxForce) * gain, maxSpeed);
}

/// The profile's behaviours' forces, `forceOf(kind)` each, weighted and combined by its rule: a
/// sum, or the first non-zero one in list order.
template <class Vector, class ForceOf>
CROWD_HD inline Vector combinedForce(const SteeringTerms& s, ForceOf forceOf) {
  Vector force(0.0f);
  for (int i = 0; i < s.count; ++i) {
    const Vector f = forceOf(s.kind[i]) * s.weight[i];
    if (s.combine == CombineRule::Sum) {
      force += f;
    } else if (absSq(f) > 0.0f) {
      return f;
    }
  }
  return force;
}

/// The force of a behaviour that heads for (or away from) one point: goal, seek, flee, arrive.
template <class Vector>
CROWD_HD inline Vector pointForce(BehaviorKind kind, const SteeringTerms& s, const ProfileTerms& t,
                                  Vector position, Vector velocity, Vector point, float timeStep) {
  switch (kind) {
    case BehaviorKind::Goal:
      return goalForce(position, velocity, point, t.prefSpeed);
    case BehaviorKind::Seek:
      return seekForce(position, velocity, point, t.prefSpeed);
    case BehaviorKind::Flee:
      return fleeForce(position, velocity, point, t.prefSpeed);
    case BehaviorKind::Arrive:
      return arriveForce(position, velocity, point, t.prefSpeed,
                         arriveStepRadius(s.slowingRadius, timeStep, t.prefSpeed));
    default:
      return Vector(0.0f);
  }
}

/// What one agent's behaviours see this step.
struct SteeringInputs {
  Vec2 position;
  Vec2 velocity;
  bool hasPoint;  ///< Seek, flee and arrive have a point: the target agent, else the goal.
  Vec2 point;
  bool hasTarget;  ///< The target agent is alive.
  Vec2 target;
  Vec2 targetVelocity;  ///< Estimated from its last two positions (zero the first time it is seen).
};

/// The agent (in sorted slot) that `id` names this step, or -1 when it is not alive.
template <class Vector>
CROWD_HD inline int targetSlot(const StepViewOf<Vector>& view, AgentId target) {
  const SteeringStateOf<Vector>& s = view.state;
  if (target.index >= static_cast<std::uint32_t>(s.idCount)) return -1;
  const int slot = s.slotOfId[target.index];
  if (slot < 0 || view.agents.id[slot].generation != target.generation) return -1;
  return slot;
}

/// The path agent `id` follows: the profile's, or, for kOwnRoute, the agent's own route (-1: none).
CROWD_HD inline int followedPath(const SteeringTerms& s, const SteeringState& st, std::uint32_t id) {
  return s.path == kOwnRoute ? st.route[id] : s.path;
}

/// One behaviour's force. `wander` and `aim` are this step's wander direction and path aim,
/// worked out once by the caller.
CROWD_HD inline Vec2 behaviorForce(const StepView& view, int k, BehaviorKind kind, const SteeringTerms& s,
                                   const ProfileTerms& t, const SteeringInputs& in, Vec2 wander,
                                   const PathAim& aim) {
  switch (kind) {
    case BehaviorKind::Goal:
    case BehaviorKind::Seek:
    case BehaviorKind::Flee:
    case BehaviorKind::Arrive:
      return in.hasPoint ? pointForce(kind, s, t, in.position, in.velocity, in.point, view.timeStep)
                         : Vec2(0.0f, 0.0f);
    case BehaviorKind::Wander:
      // The heading (a square root, or a random draw at rest) is wander's alone.
      return wanderForce(in.position, in.velocity, headingOf(in.velocity, view.seed, view.agents.id[k].index),
                         wander, s.wanderRadius, s.wanderDistance, t.prefSpeed);
    case BehaviorKind::Separation:
      return separationForce(view.neighbours, view.agents.position, k, s.separationRadius, t.prefSpeed,
                             view.periodic);
    case BehaviorKind::FollowPath:
      return aim.segment >= 0 ? followForce(aim, in.position, in.velocity, s.pathRadius, t.prefSpeed,
                                            arriveStepRadius(s.slowingRadius, view.timeStep, t.prefSpeed))
                              : Vec2(0.0f, 0.0f);
    case BehaviorKind::Pursue:
      return in.hasTarget ? pursuitVelocity(s.pursuit, in.position, in.velocity, in.target, in.targetVelocity,
                                            t.maxSpeed, view.invTimeStep) -
                                in.velocity
                          : Vec2(0.0f, 0.0f);
    case BehaviorKind::Evade:
      return in.hasTarget ? evadeVelocity(in.position, in.target, in.targetVelocity, t.maxSpeed) - in.velocity
                          : Vec2(0.0f, 0.0f);
    case BehaviorKind::AvoidObstacles:
      return avoidForce(view.obstacles, view.circles, in.position, in.velocity, t.radius, t.maxSpeed,
                        s.boxLength);
  }
  return Vec2(0.0f, 0.0f);
}

/// The steered velocity of the agent in sorted slot k, whose profile is not goal-only; writes
/// its steering state for the next step. A planning profile follows its plan instead of the
/// behaviours' forces (its planner's candidates are added to `tally`).
CROWD_HD inline Vec2 steeredVelocity(const StepView& view, int k, StepTally& tally) {
  const AgentArrays& a = view.agents;
  const std::uint32_t p = a.profile[k];
  const SteeringTerms& s = view.steering[p];
  const ProfileTerms& t = view.terms[p];
  const SteeringState& st = view.state;
  const std::uint32_t id = a.id[k].index;

  SteeringInputs in;
  in.position = a.position[k];
  in.velocity = a.velocity[k];
  const int slot = targetSlot(view, st.target[id]);
  in.hasTarget = slot >= 0;
  std::uint8_t flags = 0;
  in.target = in.position;
  in.targetVelocity = Vec2(0.0f, 0.0f);
  if (in.hasTarget) {
    in.target = neighbourPosition(view, k, slot);
    // The last sighting's image nearest this one: a target crossing a periodic end has not jumped.
    if ((st.flagsIn[id] & kTargetSeen) != 0)
      in.targetVelocity =
          (in.target - view.periodic.imageNear(st.lastTargetIn[id], in.target)) * view.invTimeStep;
    flags = kTargetSeen;
  }
  in.hasPoint = in.hasTarget || (a.flags[k] & kHasGoal) != 0;
  in.point = in.hasTarget ? in.target : a.goal[k];
  st.lastTargetOut[id] = in.target;
  st.flagsOut[id] = flags;

  // State that several behaviours share is advanced once.
  Vec2 wander = st.wanderIn[id];
  PathAim aim{};
  aim.segment = -1;
  int segment = st.segmentIn[id];
  for (int i = 0; i < s.count; ++i) {
    if (s.kind[i] == BehaviorKind::Wander) {
      wander = jitterWander(st.wanderIn[id], s.wanderJitter, view.timeStep, view.seed, id, view.step);
    } else if (const int path = s.kind[i] == BehaviorKind::FollowPath ? followedPath(s, st, id) : -1;
               path >= 0) {
      const bool route = s.path == kOwnRoute;  // Segments of a route are chosen by line of sight.
      if (route) segment = routeSegment(view.paths, view.obstacles, path, segment, in.position, t.radius);
      aim = aimOfFollower(view.paths, path, segment, in.position, in.velocity, s.lookAhead, route);
      segment = aim.segment;
    }
  }
  st.wanderOut[id] = wander;
  st.segmentOut[id] = segment;
  if (s.planner == LocalPlanner::Frenet) return frenetVelocity(view, k, s, t, followedPath(s, st, id), tally);

  const Vec2 force = combinedForce<Vec2>(
      s, [&](BehaviorKind kind) { return behaviorForce(view, k, kind, s, t, in, wander, aim); });
  return integrateSteering(in.velocity, force, s.maxForce, s.invMass, view.timeStep, t.maxSpeed);
}

}  // namespace crowd
