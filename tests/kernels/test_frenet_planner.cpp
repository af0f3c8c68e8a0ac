// The Frenet planner's candidate search (frenet_planner.hpp): with nothing in the way the plan
// keeps to the reference at the target speed and is the cheapest of all candidates; an obstacle
// in the lane is passed and the plan comes back; limits drop candidates; the disc is swept between
// checked points, so a thin wall is not jumped; with everything blocked the agent stops as hard as
// its acceleration limit allows; far off its line, or on a bend too sharp for the regular speeds,
// the recovery set gets it going; a sharp bend gives no NaN.
#include <algorithm>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include <crowd/kernels/frenet_planner.hpp>

#include "nav/reference_line.hpp"

namespace crowd {
namespace {

struct Line {
  std::vector<ReferencePoint> points;
  ReferenceLineView view;
  explicit Line(const std::vector<Vec2>& polyline)
      : points(buildReferenceLine(polyline, 0.25)), view(referenceLineView(points, 0.25)) {}
};

constexpr double kPiHalf = 1.5707963267948966;

const auto kNothing = [](double, double, double, double, double, double) { return false; };

// Distance from (px, py) to the segment (x0, y0)-(x1, y1), in double (a point when they meet).
double segmentDistance(double x0, double y0, double x1, double y1, double px, double py) {
  const double ex = x1 - x0, ey = y1 - y0, lenSq = ex * ex + ey * ey;
  const double t = lenSq > 0.0 ? std::clamp(((px - x0) * ex + (py - y0) * ey) / lenSq, 0.0, 1.0) : 0.0;
  return std::hypot(x0 + ex * t - px, y0 + ey * t - py);
}

FrenetState cruising(double s, double d, double speed) {
  return FrenetState{s, speed, 0.0, d, 0.0, 0.0};
}

TEST(KernelFrenetPlanner, NothingInTheWayKeepsToTheReferenceAtTheTargetSpeed) {
  const Line line({{0, 0}, {200, 0}});
  FrenetSettings k;
  k.targetSpeed = 3.0f;
  const FrenetPlan plan = planFrenet(line.view, cruising(10, 0, 3), k, kNothing);
  ASSERT_FALSE(plan.stopping);
  EXPECT_EQ(plan.evaluated, k.offsets * k.speeds * k.horizons);
  EXPECT_NEAR(plan.d.position(plan.d.duration), 0.0, 1e-9);
  EXPECT_NEAR(plan.s.speed(plan.s.duration), 3.0, 1e-9);
  EXPECT_NEAR(plan.d.squaredJerk(), 0.0, 1e-12) << "already on the line: no lateral jerk";
}

// A short candidate is checked out to the longest horizon going on at its end speed; its
// quartic's own speed, which turns back and goes negative past 1.5 T, must not be what is checked.
TEST(KernelFrenetPlanner, ShortSpeedUpsFromRestAreFeasible) {
  const Line line({{0, 0}, {200, 0}});
  FrenetSettings k;
  k.targetSpeed = 3.0f;
  k.weightTime = 10.0f;  // Short horizons are much the cheapest.
  const FrenetPlan plan = planFrenet(line.view, cruising(10, 0, 0), k, kNothing);
  ASSERT_FALSE(plan.stopping);
  EXPECT_NEAR(plan.s.duration, k.minHorizon, 1e-9) << "the cheapest horizon, 2 s, speeds up from rest";
  EXPECT_GT(plan.s.speed(plan.s.duration), 2.0);
}

TEST(KernelFrenetPlanner, ChosenPlanHasTheLeastCostOfAllCandidates) {
  // Starting 1 m off the line: the plan returns to it, and no other candidate is cheaper.
  const Line line({{0, 0}, {200, 0}});
  FrenetSettings k;
  const FrenetState start = cruising(10, 1.0, 2.0);
  const FrenetPlan plan = planFrenet(line.view, start, k, kNothing);
  EXPECT_NEAR(plan.d.position(plan.d.duration), 0.0, 1e-9) << "back on the centre line";
  EXPECT_GT(plan.feasible, 0);
  for (int h = 0; h < k.horizons; ++h) {
    const double T = k.minHorizon + double(k.maxHorizon - k.minHorizon) * h / double(k.horizons - 1);
    for (const double offset : {-1.75, 0.0, 1.75}) {
      const MotionPolynomial d = quintic(1.0, 0, 0, offset, 0, 0, T);
      const MotionPolynomial s = quartic(10, 2, 0, 2.0, 0, T);
      const double cost = k.weightLateral * (k.weightJerk * d.squaredJerk() + k.weightTime * T +
                                             k.weightDeviation * offset * offset) +
                          k.weightLongitudinal * (k.weightJerk * s.squaredJerk() + k.weightTime * T);
      EXPECT_LE(plan.cost, cost + 1e-9) << "T " << T << ", offset " << offset;
    }
  }
}

TEST(KernelFrenetPlanner, ObstacleInTheLaneIsPassed) {
  const Line line({{0, 0}, {200, 0}});
  FrenetSettings k;
  k.targetSpeed = 3.0f;
  // A parked car: a disc of radius 1.2 (its own plus the agent's and a margin) at s = 18, d = 0.
  const auto parked = [](double x0, double y0, double x1, double y1, double, double) {
    return segmentDistance(x0, y0, x1, y1, 18.0, 0.0) < 1.2;
  };
  const FrenetPlan plan = planFrenet(line.view, cruising(10, 0, 3), k, parked);
  ASSERT_FALSE(plan.stopping);
  double nearest = 1e9;
  for (double t = 0; t <= plan.s.duration; t += 0.01) {
    const CartesianState c = planStateAt(line.view, plan, t);
    nearest = std::min(nearest, std::hypot(c.x - 18.0, c.y));
  }
  EXPECT_GE(nearest, 1.15) << "the plan keeps clear of the car";
  EXPECT_GT(std::fabs(plan.d.position(plan.d.duration)), 0.5) << "it leaves the centre of the lane";
  // Past the car, nothing blocks it any more: the next plan heads back to the centre line.
  const double T = plan.d.duration;
  const FrenetState later{plan.s.position(T) + 10, plan.s.speed(T), 0, plan.d.position(T), 0, 0};
  const FrenetPlan back = planFrenet(line.view, later, k, parked);
  EXPECT_NEAR(back.d.position(back.d.duration), 0.0, 1e-9);
}

TEST(KernelFrenetPlanner, LimitsDropCandidates) {
  const Line line({{0, 0}, {200, 0}});
  FrenetSettings k;
  k.targetSpeed = 3.0f;
  k.maxSpeed = 3.2f;  // Speeds of 3.5 and 4 are out.
  const FrenetPlan plan = planFrenet(line.view, cruising(10, 0, 3), k, kNothing);
  for (double t = 0; t <= plan.s.duration; t += 0.05)
    EXPECT_LE(planStateAt(line.view, plan, t).v, 3.2 + 1e-9);
}

// Everything blocked (a wall across the lane 2 m ahead): no regular or recovery candidate passes,
// and the agent stops as hard as the limit allows. The quartic from speed v0 to rest over T has
// acceleration -6 v0 (u - u^2) / T at u = t / T, peaking at 1.5 v0 / T: with v0 = 2 and a limit of
// 3 the shortest stop takes T = 1 s and covers v0 T / 2 = 1 m, short of the wall.
TEST(KernelFrenetPlanner, EverythingBlockedStopsAsHardAsTheLimitAllows) {
  const Line line({{0, 0}, {200, 0}});
  FrenetSettings k;
  const auto wall = [](double, double, double x1, double, double, double) { return x1 > 12.0; };
  const FrenetPlan plan = planFrenet(line.view, cruising(10, 0.3, 2.0), k, wall);
  EXPECT_TRUE(plan.stopping);
  EXPECT_EQ(plan.feasible, 0);
  EXPECT_NEAR(plan.s.duration, 1.0, 1e-6);
  EXPECT_NEAR(plan.s.speed(plan.s.duration), 0.0, 1e-9);
  EXPECT_NEAR(plan.s.position(plan.s.duration), 11.0, 1e-6) << "1 m to a stop, short of the wall";
  EXPECT_NEAR(plan.s.acceleration(0.5), -3.0, 1e-6) << "the limit, at the middle of the stop";
  EXPECT_NEAR(plan.d.position(plan.d.duration), 0.3, 1e-9) << "no sideways motion: it keeps its offset";
  EXPECT_EQ(plan.evaluated, k.offsets * k.horizons * (k.speeds + kRecoverySpeeds)) << "both sets were costed";
}

TEST(KernelFrenetPlanner, StoppingHorizonIsTheShortestWithinTheLimit) {
  EXPECT_NEAR(stoppingHorizon(3.0, 0.0, 3.0, 0.05), 1.5, 1e-9) << "1.5 v0 / limit";
  EXPECT_NEAR(stoppingHorizon(-2.0, 0.0, 1.0, 0.05), 3.0, 1e-9) << "either direction";
  EXPECT_NEAR(stoppingHorizon(0.0, 0.0, 3.0, 0.05), 0.05, 1e-12) << "at rest: the floor";
  // Braking already (a0 = -2 at v0 = 3): a(u) = -(1 - u)(2 + c u) with c = 18 / T - 6, whose
  // magnitude peaks at 2 + (c - 2)^2 / (4c); that is 3 where c^2 - 8c + 4 = 0, c = 4 + 2 sqrt(3),
  // so T = 18 / (10 + 2 sqrt(3)) = 1.3369 s (less than the 1.5 s from a0 = 0).
  const double T = stoppingHorizon(3.0, -2.0, 3.0, 0.05);
  EXPECT_NEAR(T, 18.0 / (10.0 + 2.0 * std::sqrt(3.0)), 1e-9);
  EXPECT_NEAR(peakQuarticAcceleration(quartic(0.0, 3.0, -2.0, 0.0, 0.0, T)), 3.0, 1e-6);
  // Beyond the limit at the start (a0 = 5 > 3): the start's own magnitude bounds it.
  const double over = stoppingHorizon(1.0, 5.0, 3.0, 0.05);
  EXPECT_NEAR(peakQuarticAcceleration(quartic(0.0, 1.0, 5.0, 0.0, 0.0, over)), 5.0, 1e-6);
}

// A wall across the lane 0.05 thick at x = 30, and checked points 4 m apart (checkStep 1 s at
// 4 m/s): no checked point lands within the wall, but the sweep between two of them crosses it.
TEST(KernelFrenetPlanner, ThinWallBetweenCheckedPointsIsNotJumped) {
  const Line line({{0, 0}, {200, 0}});
  FrenetSettings k;
  k.targetSpeed = 4.0f;
  k.speedSpread = 0.0f;
  k.checkStep = 1.0f;
  const auto crosses = [](double x0, double, double x1, double, double, double) {
    return std::max(x0, x1) >= 29.975 && std::min(x0, x1) <= 30.025;
  };
  double lastT = 0.0;
  bool chained = true;
  const auto chain = [&](double, double, double, double, double t0, double t1) {
    // A candidate's first sweep starts at 0; each later one where the one before it ended.
    chained =
        chained && (std::fabs(t0) < 1e-9 || std::fabs(t0 - lastT) < 1e-9) && std::fabs(t1 - t0 - 1.0) < 1e-9;
    lastT = t1;
    return false;
  };
  planFrenet(line.view, cruising(12, 0, 4), k, chain);
  EXPECT_TRUE(chained) << "each sweep starts where the last one ended, one checkStep later";
  const FrenetPlan plan = planFrenet(line.view, cruising(12, 0, 4), k, crosses);
  for (double t = 0; t <= 3.0 * k.maxHorizon; t += 0.01) {
    ASSERT_LT(planStateAt(line.view, plan, t).x, 29.975) << "t " << t;
  }
}

// 10 m off a straight line, at rest, speed limit 3: every regular candidate must move at least
// 10 - 1.75 = 8.25 m sideways within 5 s, whose quintic peaks at 1.875 * 8.25 / 5 = 3.09 m/s, over
// the limit. The recovery set's longer horizons bring it back within the limits.
TEST(KernelFrenetPlanner, FarOffTheLineHeadsBackWithinTheLimits) {
  const Line line({{0, 0}, {200, 0}});
  FrenetSettings k;
  k.maxSpeed = 3.0f;
  const FrenetPlan plan = planFrenet(line.view, cruising(10, 10, 0), k, kNothing);
  ASSERT_FALSE(plan.stopping);
  EXPECT_TRUE(plan.recovering) << "no regular candidate keeps to the speed limit";
  EXPECT_GT(plan.s.duration, k.maxHorizon);
  EXPECT_LT(plan.d.position(plan.d.duration), 10.0 - 1.0) << "it heads for its line";
  EXPECT_GT(plan.s.speed(plan.s.duration), 0.0) << "and along it";
  for (double t = 0; t <= plan.s.duration; t += 0.05)
    EXPECT_LE(planStateAt(line.view, plan, t).v, 3.0 + 1e-9);
}

// A U-turn of radius 0.8 (curvature 1.25, over the limit of 1) just ahead of an agent at rest, held
// to the line itself (one offset: with a lane it could take the bend wide): at 0.5 m/s or more the
// curvature limit binds, and every regular end speed (1 to 3) would be that fast on it. The
// recovery set's slower speeds (1, 0.5, 0.25, ... and 0) over longer horizons creep round it:
// under 0.5 m/s wherever the line bends sharper than the limit, and past the bend (s = 12.5)
// within the recovery set's 15 s.
TEST(KernelFrenetPlanner, BendTooSharpForTheRegularSpeedsIsCreptRound) {
  std::vector<Vec2> bend{{0, 0}, {10, 0}};
  for (int i = 1; i < 12; ++i) {  // Half a circle round (10, 0.8).
    const double a = -kPiHalf + 2.0 * kPiHalf * i / 12.0;
    bend.push_back(
        Vec2(static_cast<float>(10 + 0.8 * std::cos(a)), static_cast<float>(0.8 + 0.8 * std::sin(a))));
  }
  bend.push_back(Vec2(10, 1.6f));
  bend.push_back(Vec2(-10, 1.6f));
  const Line line(bend);
  FrenetSettings k;
  k.offsets = 1;
  const FrenetPlan plan = planFrenet(line.view, cruising(9, 0, 0), k, kNothing);
  ASSERT_FALSE(plan.stopping);
  EXPECT_TRUE(plan.recovering);
  EXPECT_GT(plan.s.speed(plan.s.duration), 0.0);
  for (double t = 0; t <= kRecoveryHorizonScale * k.maxHorizon; t += 0.05) {
    const FrenetState f = motionStateAt(plan.d, plan.s, t);
    if (std::fabs(referenceAt(line.view, f.s).kappa) > k.maxCurvature) {
      ASSERT_LT(planStateAt(line.view, plan, t).v, kCurvatureFreeSpeed) << "t " << t;
    }
  }
  EXPECT_GT(motionStateAt(plan.d, plan.s, kRecoveryHorizonScale * k.maxHorizon).s, 12.5) << "round the bend";
}

TEST(KernelFrenetPlanner, SharpBendGivesFiniteResults) {
  const Line line({{0, 0}, {10, 0}, {10.5f, 0.5f}, {10.5f, 10}});  // A near right angle.
  FrenetSettings k;
  k.targetSpeed = 4.0f;
  k.maxCurvature = 0.5f;
  const FrenetPlan plan = planFrenet(line.view, cruising(8, 0, 4), k, kNothing);
  for (double t = 0; t <= plan.s.duration; t += 0.1) {
    const CartesianState c = planStateAt(line.view, plan, t);
    ASSERT_TRUE(std::isfinite(c.x) && std::isfinite(c.y) && std::isfinite(c.v)) << "t " << t;
  }
  if (!plan.stopping) {
    EXPECT_LT(plan.s.speed(plan.s.duration), 4.0) << "it slows for the bend";
  }
}

}  // namespace
}  // namespace crowd
