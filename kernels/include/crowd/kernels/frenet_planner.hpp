// The Frenet-frame local planner's candidate search (Werling et al. 2010; the user's seed 004):
// from an agent's state in the frame of its reference line, every combination of a lateral end
// offset, an end speed and a horizon gives a candidate: a quintic d(t) to (offset, 0, 0) and a
// quartic s(t) to (speed, 0). Candidates that break the speed, acceleration or curvature limits,
// or come too near something (`blocked`), are dropped; the cheapest survivor,
// C = kLateral * Cd + kLongitudinal * Cs with each C = kJerk * jerk^2 + kTime * T + kDeviation *
// (end deviation)^2, is the plan. When none survives, a recovery set (longer horizons, lower
// speeds, end offsets within reach) is tried, and when none of that survives either the agent
// stops along the reference as hard as its acceleration limit allows. Every candidate is checked
// over its set's longest horizon (going on at its end speed and offset after its own), its disc
// swept between the checked points. One call is one agent's whole candidate set: one thread per
// agent on the GPU.
#pragma once

#include <cmath>
#include <compare>

#include "config.hpp"
#include "frenet_frame.hpp"
#include "frenet_settings.hpp"
#include "polynomial.hpp"
#include "reference_line.hpp"

namespace crowd {

/// Below this speed a candidate's curvature is not limited (see planFrenet).
inline constexpr double kCurvatureFreeSpeed = 0.5;

/// The least 1 - kappa_ref * d a point may have: nearer the reference's centre of curvature (or
/// beyond it) the Frenet frame folds over and the point's state is meaningless.
inline constexpr double kFrameFoldMargin = 0.1;

/// The plan: the two motions, from the planning moment.
struct FrenetPlan {
  MotionPolynomial d;  ///< Lateral offset over time.
  MotionPolynomial s;  ///< Arc length over time.
  double cost;
  int evaluated;    ///< Candidates costed.
  int feasible;     ///< Candidates checked and kept (one dearer than the best so far is not checked).
  bool stopping;    ///< None survived: stopping along the reference as hard as the limit allows.
  bool recovering;  ///< None of the regular set survived; the plan is from the recovery set.
};

/// The plan an agent follows between re-plans (per agent, in its steering state).
struct FrenetTrack {
  MotionPolynomial d;
  MotionPolynomial s;
  float age;  ///< Seconds since the plan was made, at the start of the step.
  int hint;   ///< The reference sample nearest the agent when planned; -1: no plan yet.
};

/// The Frenet state of the motion (d(t), s(t)) at time t from its start. Past the longitudinal
/// horizon it goes on at its end speed and offset.
CROWD_HD inline FrenetState motionStateAt(const MotionPolynomial& d, const MotionPolynomial& s, double t) {
  const double T = s.duration;
  const double u = t < T ? t : T;
  FrenetState f{};
  f.sDot = s.speed(u);
  f.s = s.position(u) + f.sDot * (t - u);
  f.sDdot = t < T ? s.acceleration(u) : 0.0;
  f.d = d.position(u);
  // d' = d_dot / s_dot and d'' = (d_ddot - d' s_ddot) / s_dot^2; at (near) rest the lateral
  // motion is taken as pure offset, with no slope.
  const double sDot = f.sDot > 1e-3 ? f.sDot : 1e-3;
  f.dPrime = t < T ? d.speed(u) / sDot : 0.0;
  f.dDprime = t < T ? (d.acceleration(u) - f.dPrime * f.sDdot) / (sDot * sDot) : 0.0;
  return f;
}

/// The Cartesian state a plan gives at time t (its reference point looked up on `line`).
CROWD_HD inline CartesianState planStateAt(const ReferenceLineView& line, const FrenetPlan& plan, double t) {
  const FrenetState f = motionStateAt(plan.d, plan.s, t);
  return toCartesian(referenceAt(line, f.s), f);
}

/// Whether the motion (d(t), s(t)) keeps to the limits and clear of everything out to
/// `checkHorizon`, checked every checkStep: the limits at each checked point, and `blocked` for
/// the agent's disc swept from each checked point to the next, so that nothing thinner than a
/// step's travel can slip between two points.
template <typename Blocked>
CROWD_HD bool candidatePasses(const ReferenceLineView& line, const MotionPolynomial& d,
                              const MotionPolynomial& s, double checkHorizon, const FrenetSettings& k,
                              const Blocked& blocked) {
  double lastX = 0.0, lastY = 0.0, lastT = 0.0;
  for (double t = 0.0; t <= checkHorizon + 1e-9; t += k.checkStep) {
    const FrenetState f = motionStateAt(d, s, t);  // Past T: its end speed, not the quartic's.
    const ReferencePoint r = referenceAt(line, f.s);
    // Inside the reference's centre of curvature the frame folds over: no such point.
    if (!(1.0 - r.kappa * f.d >= kFrameFoldMargin)) return false;
    const CartesianState c = toCartesian(r, f);
    // Curvature binds only at speed: from rest any sideways start has an unbounded one, and an
    // agent (a disc, not a car) may step aside there.
    const bool ok = std::isfinite(c.x) && std::isfinite(c.y) && f.sDot >= -1e-6 && c.v <= k.maxSpeed &&
                    std::fabs(c.a) <= k.maxAcceleration &&
                    (c.v < kCurvatureFreeSpeed || std::fabs(c.kappa) <= k.maxCurvature) &&
                    c.v * c.v * std::fabs(c.kappa) <= k.maxAcceleration;
    if (!ok || (t > 0.0 && blocked(lastX, lastY, c.x, c.y, lastT, t))) return false;
    lastX = c.x;
    lastY = c.y;
    lastT = t;
  }
  return true;
}

/// Horizons of the recovery set span maxHorizon ... this many times maxHorizon.
inline constexpr double kRecoveryHorizonScale = 3.0;

/// End speeds of the recovery set: the target speed halved once, twice, ... and, last, 0.
inline constexpr int kRecoverySpeeds = 6;

/// The share of maxSpeed and maxAcceleration a recovery set's lateral move is sized to take,
/// leaving the rest to the motion along the line.
inline constexpr double kRecoveryLateralShare = 0.5;

/// The largest lateral move from rest to rest over T that keeps a quintic's peak lateral speed
/// (1.875 h / T) and peak acceleration (5.7735 h / T^2) within kRecoveryLateralShare of the limits.
CROWD_HD inline double recoveryLateralReach(const FrenetSettings& k, double T) {
  const double bySpeed = kRecoveryLateralShare * k.maxSpeed * T / 1.875;
  const double byAcceleration = kRecoveryLateralShare * k.maxAcceleration * T * T / 5.773502691896258;
  return bySpeed < byAcceleration ? bySpeed : byAcceleration;
}

/// Costs and checks one candidate set into `best` (see planFrenet). The regular set: `offsets` end
/// offsets over the lane, `speeds` end speeds round the target, `horizons` horizons over
/// minHorizon ... maxHorizon. The recovery set, for when none of the regular set passed: longer
/// horizons, lower end speeds down to 0, and end offsets no further from the agent's offset than
/// a move of that horizon can go at half the limits (so an agent far off its line heads back
/// towards it in stages, and one on a bend too sharp for the regular speeds creeps round it).
template <typename Blocked>
CROWD_HD void searchCandidates(const ReferenceLineView& line, const FrenetState& start,
                               const FrenetSettings& k, bool recovery, const Blocked& blocked,
                               FrenetPlan& best) {
  const double dDot0 = start.dPrime * start.sDot;
  const double dDdot0 = start.dDprime * start.sDot * start.sDot + start.dPrime * start.sDdot;
  const auto spread = [](int i, int n, double lo, double hi) {
    return n > 1 ? lo + (hi - lo) * i / (n - 1) : 0.5 * (lo + hi);
  };
  const double longest = recovery ? kRecoveryHorizonScale * k.maxHorizon : k.maxHorizon;
  const double shortest = recovery ? k.maxHorizon : k.minHorizon;
  const int speeds = recovery ? kRecoverySpeeds : k.speeds;
  for (int h = 0; h < k.horizons; ++h) {
    const double T = spread(h, k.horizons, shortest, longest);
    const double reach = recovery ? recoveryLateralReach(k, T) : INFINITY;
    for (int o = 0; o < k.offsets; ++o) {
      double offset = k.offsets > 1 ? spread(o, k.offsets, -k.laneHalfWidth, k.laneHalfWidth) : 0.0;
      offset =
          offset < start.d - reach ? start.d - reach : (offset > start.d + reach ? start.d + reach : offset);
      const MotionPolynomial d = quintic(start.d, dDot0, dDdot0, offset, 0.0, 0.0, T);
      const double costD =
          k.weightJerk * d.squaredJerk() + k.weightTime * T + k.weightDeviation * offset * offset;
      double slower = 0.5 * k.targetSpeed;
      for (int v = 0; v < speeds; ++v) {
        double speed = 0.0;
        if (recovery) {
          speed = v + 1 < speeds ? slower : 0.0;
          slower *= 0.5;
        } else {
          speed = k.speeds > 1
                      ? spread(v, k.speeds, k.targetSpeed - k.speedSpread, k.targetSpeed + k.speedSpread)
                      : k.targetSpeed;
          speed = speed < 0.0 ? 0.0 : speed;
        }
        const MotionPolynomial s = quartic(start.s, start.sDot, start.sDdot, speed, 0.0, T);
        const double dv = k.targetSpeed - speed;
        const double costS = k.weightJerk * s.squaredJerk() + k.weightTime * T + k.weightDeviation * dv * dv;
        const double cost = k.weightLateral * costD + k.weightLongitudinal * costS;
        ++best.evaluated;
        if (!(cost < best.cost)) continue;  // Cheaper ones are known: skip the checks.
        // Checked over the longest horizon, a short candidate going on at its end state: one
        // that stops just short of an obstacle would otherwise pass and leave too little room.
        if (!candidatePasses(line, d, s, longest, k, blocked)) continue;
        ++best.feasible;
        best.d = d;
        best.s = s;
        best.cost = cost;
        best.stopping = false;
        best.recovering = recovery;
      }
    }
  }
}

/// The cheapest feasible candidate from `start`. `blocked(x0, y0, x1, y1, t0, t1)` says whether a
/// disc of the agent's size (plus its margin) moving straight from (x0, y0), t0 seconds from now,
/// to (x1, y1) at t1 touches anything. When no regular candidate passes, the recovery set is
/// tried (searchCandidates): if the regular set failed on the limits rather than on something in
/// the way (far off the line, a bend too sharp), a slower or longer plan gets the agent going
/// again. When none of that passes either, the agent stops along the line as hard as
/// maxAcceleration allows (along and across, each), so that it stops short of what blocks it.
template <typename Blocked>
CROWD_HD FrenetPlan planFrenet(const ReferenceLineView& line, const FrenetState& start,
                               const FrenetSettings& k, const Blocked& blocked) {
  FrenetPlan best{};
  best.cost = INFINITY;
  best.stopping = true;
  searchCandidates(line, start, k, false, blocked, best);
  if (best.stopping) searchCandidates(line, start, k, true, blocked, best);
  if (best.stopping) {
    // The shortest stop within the limit along the line and, for any sideways motion, across it;
    // both over the longer of the two, which keeps each within the limit too.
    const double dDot0 = start.dPrime * start.sDot;
    const double dDdot0 = start.dDprime * start.sDot * start.sDot + start.dPrime * start.sDdot;
    const double floor = 0.05;  // Seconds: a stop from rest, the shortest horizon settings allow.
    const double along = stoppingHorizon(start.sDot, start.sDdot, k.maxAcceleration, floor);
    const double across = stoppingHorizon(dDot0, dDdot0, k.maxAcceleration, floor);
    const double T = along > across ? along : across;
    best.d = quartic(start.d, dDot0, dDdot0, 0.0, 0.0, T);
    best.s = quartic(start.s, start.sDot, start.sDdot, 0.0, 0.0, T);
  }
  return best;
}

}  // namespace crowd
