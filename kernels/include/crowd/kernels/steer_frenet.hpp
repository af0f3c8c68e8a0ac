// The Frenet planner as a steering mode: an agent whose profile plans follows a trajectory planned
// along the reference line of its path (frenet_planner.hpp), re-planned every replanInterval
// seconds, or sooner when it has been pushed off the plan (by ORCA, which still stands between it
// and everyone else). A new plan starts from the state the old one gives for now when the agent
// is on it, so the motion stays smooth across re-plans; otherwise from the agent's measured
// position and velocity. The preferred velocity is the one that brings the agent to the plan's
// position at the end of the step.
#pragma once

#include <cmath>

#include "config.hpp"
#include "frenet_frame.hpp"
#include "frenet_planner.hpp"
#include "reference_line.hpp"
#include "steer_route.hpp"
#include "step_view.hpp"
#include "vec2.hpp"

namespace crowd {

/// Samples on each side of the last nearest one that a projection searches.
inline constexpr int kProjectionWindow = 16;

/// Whether a disc of the agent's radius plus margin moving straight from (x0, y0) at t0 to (x1, y1)
/// at t1 (seconds ahead) touches an obstacle edge (circles included) or the predicted disc of one
/// of its neighbours (at constant velocity). The whole sweep is checked, so that a wall or a
/// neighbour thinner than the distance between two checked points is not jumped over. A
/// neighbour is not checked at t = 0 (over the first interval only its end is): the plan's start
/// may lie a little off where the agent stands, and ORCA keeps the two apart anyway. A neighbour
/// that already stands within the margin (ORCA let them close, or both stopped so) must only come
/// no nearer than it is, as an obstacle must (obstacleReach): else every candidate would be
/// refused and both would stand there for good.
struct FrenetBlocked {
  const StepView& view;
  int k;
  float reach;          ///< Own radius plus margin.
  float obstacleReach;  ///< The same, or less where the agent stands nearer an edge already.

  CROWD_HD bool operator()(double x0, double y0, double x1, double y1, double t0, double t1) const {
    const Vec2 from(static_cast<float>(x0), static_cast<float>(y0));
    const Vec2 to(static_cast<float>(x1), static_cast<float>(y1));
    if (!clearPassage(view.obstacles, from, to, obstacleReach)) return true;
    const AgentArrays& a = view.agents;
    const int count = view.neighbours.count[k];
    for (int m = 0; m < count; ++m) {
      const int j = view.neighbours.at(k, m);
      float apart = reach + view.terms[a.profile[j]].radius;
      const Vec2 there = neighbourPosition(view, k, j);
      const float nowSq = absSq(a.position[k] - there);
      if (nowSq < apart * apart) apart = 0.99f * sqrtf(nowSq);
      // Both move straight over the interval: the nearest the centres come is the distance from
      // the origin to the segment their difference sweeps.
      const Vec2 gapEnd = to - (there + a.velocity[j] * static_cast<float>(t1));
      const Vec2 gapStart = from - (there + a.velocity[j] * static_cast<float>(t0));
      const float nearestSq = t0 <= 0.0 || gapStart == gapEnd
                                  ? absSq(gapEnd)
                                  : distSqPointSegment(gapStart, gapEnd, Vec2(0.0f, 0.0f));
      if (nearestSq < apart * apart) return true;
    }
    return false;
  }
};

/// The Frenet state the agent at `position` with `velocity` starts a plan from, measured against
/// the line (nearest sample near `hint`, or anywhere when hint < 0; written back to `hint`). A
/// heading more than a radian off the line's is taken along the line at the speed's component
/// along it, since the frame cannot describe an agent heading across or against its line.
CROWD_HD inline FrenetState measuredFrenetState(const ReferenceLineView& line, Vec2 position, Vec2 velocity,
                                                int& hint) {
  double s = projectOnto(line, position.x, position.y, hint, kProjectionWindow);
  // Nearest at the edge of the window round a stale hint (the agent was moved, or a bend brings
  // another part of the line near): search the whole line.
  const int found = static_cast<int>(s / line.spacing);
  if (hint >= 0 && (found <= hint - kProjectionWindow + 1 || found >= hint + kProjectionWindow - 1)) {
    s = projectOnto(line, position.x, position.y, -1, 0);
  }
  const ReferencePoint r = referenceAt(line, s);
  hint = static_cast<int>(s / line.spacing);
  CartesianState c{};
  c.x = position.x;
  c.y = position.y;
  const double speed =
      std::sqrt(static_cast<double>(velocity.x) * velocity.x + static_cast<double>(velocity.y) * velocity.y);
  const double heading =
      speed > 1e-3 ? std::atan2(static_cast<double>(velocity.y), static_cast<double>(velocity.x)) : r.theta;
  const double off = wrapAngle(heading - r.theta);
  const double limit = 1.0;
  c.theta = off > limit ? r.theta + limit : (off < -limit ? r.theta - limit : heading);
  c.v = off > limit || off < -limit ? (std::cos(off) > 0.0 ? speed * std::cos(off) : 0.0) : speed;
  // Beyond the reference's centre of curvature the frame folds over: plan from the nearest offset
  // where it does not (the plan then pulls the agent back towards its line).
  if (!(1.0 - r.kappa * (-std::sin(r.theta) * (c.x - r.x) + std::cos(r.theta) * (c.y - r.y)) >=
        kFrameFoldMargin)) {
    const double d = (1.0 - kFrameFoldMargin) / r.kappa;
    c.x = r.x - std::sin(r.theta) * d;
    c.y = r.y + std::cos(r.theta) * d;
  }
  FrenetState f = toFrenet(r, c);
  f.sDot = f.sDot > 0.0 ? f.sDot : 0.0;
  return f;
}

/// The Frenet state plan `track` gives `t` seconds after it was made.
CROWD_HD inline FrenetState trackStateAt(const FrenetTrack& track, double t) {
  return motionStateAt(track.d, track.s, t);
}

/// The planner agent's preferred velocity in sorted slot k, following reference line `path`;
/// reads its track from the state and writes the next one. Adds the candidates it costed to
/// `tally`.
CROWD_HD inline Vec2 frenetVelocity(const StepView& view, int k, const SteeringTerms& s,
                                    const ProfileTerms& t, int path, StepTally& tally) {
  const AgentArrays& a = view.agents;
  const SteeringState& st = view.state;
  const std::uint32_t id = a.id[k].index;
  const Vec2 position = a.position[k];
  FrenetTrack track = st.trackIn[id];
  if (!view.lines.has(path)) {
    // No line to follow (an own route not planned yet, or too short for a line): head for the
    // goal, if any, as the default rule does.
    track.hint = -1;
    st.trackOut[id] = track;
    if ((a.flags[k] & kHasGoal) == 0) return Vec2(0.0f, 0.0f);
    return clipToLength(a.goal[k] - position, t.prefSpeed);
  }
  const ReferenceLineView line = view.lines.line(path);
  const FrenetSettings& k0 = s.frenet;

  // On the plan: where it says the agent is now. Off it by more than a quarter of the radius
  // (pushed aside), or due, or without one: plan again, from the plan's state when on it (a
  // smooth join), else from the measured state.
  int hint = track.hint;
  bool onPlan = track.hint >= 0;
  FrenetState start{};
  if (onPlan) {
    start = trackStateAt(track, track.age);
    const CartesianState c = toCartesian(referenceAt(line, start.s), start);
    const double dx = c.x - position.x, dy = c.y - position.y;
    onPlan = dx * dx + dy * dy <= 0.0625 * t.radius * t.radius;
  }
  if (!onPlan) start = measuredFrenetState(line, position, a.velocity[k], hint);
  const bool replan = !onPlan || track.age + 1e-4f >= k0.replanInterval;

  // The last stretch of the line: no more candidates, just come to rest on its end (an `arrive`
  // slowing at half the acceleration limit), which is where a vehicle's goal lies.
  const double remaining = line.length() - start.s;
  if (remaining < t.radius) {
    const ReferencePoint& last = line.points[line.count - 1];
    const Vec2 toEnd = Vec2(static_cast<float>(last.x), static_cast<float>(last.y)) - position;
    const float distance = length(toEnd);
    const float speed = sqrtf(k0.maxAcceleration * distance);  // Stops braking at half the limit.
    track.hint = -1;                                           // Plan afresh should it be pushed back.
    st.trackOut[id] = track;
    float most = distance * view.invTimeStep;  // No further than the end in one step.
    most = speed < most ? speed : most;
    most = t.prefSpeed < most ? t.prefSpeed : most;
    return clipToLength(toEnd, most);
  }
  if (replan) {
    FrenetSettings settings = k0;
    // Towards the end of the line, no faster than what stops on it at half the acceleration limit.
    const double stopping = std::sqrt(k0.maxAcceleration * remaining);
    if (stopping < settings.targetSpeed) {
      settings.targetSpeed = static_cast<float>(stopping);
      settings.speedSpread =
          settings.speedSpread < settings.targetSpeed ? settings.speedSpread : settings.targetSpeed;
    }
    // ORCA may have left the agent nearer an edge than the margin (braked behind a parked car):
    // then no nearer than it is, or every candidate would be blocked and it would stop for good.
    const float reach = t.radius + k0.margin;
    ObstacleNeighbours near;
    findNearestEdges(view.obstacles, position, reach, near);
    const float clearance = near.count > 0 ? sqrtf(near.distSq(0)) : reach;
    const float obstacleReach = clearance < reach ? 0.99f * clearance : reach;
    const FrenetPlan plan = planFrenet(line, start, settings, FrenetBlocked{view, k, reach, obstacleReach});
    tally.planCandidates += plan.evaluated;
    track.d = plan.d;
    track.s = plan.s;
    track.age = 0.0f;
  }
  // Aim at where the plan will be at the end of this step, which is where the next step starts.
  track.age += view.timeStep;
  const FrenetState end = trackStateAt(track, track.age);
  const CartesianState next = toCartesian(referenceAt(line, end.s), end);
  const int sample = static_cast<int>(end.s / line.spacing);
  track.hint = sample < 0 ? 0 : (sample < line.count - 1 ? sample : line.count - 1);
  st.trackOut[id] = track;
  const Vec2 target(static_cast<float>(next.x), static_cast<float>(next.y));
  if (!isFinite(target)) return Vec2(0.0f, 0.0f);
  return clipToLength((target - position) * view.invTimeStep, t.maxSpeed);
}

}  // namespace crowd
