// The Frenet planner's candidate search (frenet_planner.hpp): with nothing in the way the plan
// keeps to the reference at the target speed and is the cheapest of all candidates; an obstacle
// in the lane is passed and the plan comes back; limits drop candidates; with everything blocked
// the agent slows to a stop; a sharp bend gives no NaN.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include <crowd/kernels/frenet_planner.hpp>
#include <crowd/reference_line.hpp>

namespace crowd {
namespace {

struct Line {
  std::vector<ReferencePoint> points;
  ReferenceLineView view;
  explicit Line(const std::vector<Vec2>& polyline) : points(buildReferenceLine(polyline, 0.25)), view(referenceLineView(points, 0.25)) {}
};

const auto kNothing = [](double, double, double) { return false; };

FrenetState cruising(double s, double d, double speed) { return FrenetState{s, speed, 0.0, d, 0.0, 0.0}; }

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
  const auto parked = [](double x, double y, double) { return std::hypot(x - 18.0, y) < 1.2; };
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
  for (double t = 0; t <= plan.s.duration; t += 0.05) EXPECT_LE(planStateAt(line.view, plan, t).v, 3.2 + 1e-9);
}

TEST(KernelFrenetPlanner, EverythingBlockedSlowsToAStop) {
  const Line line({{0, 0}, {200, 0}});
  FrenetSettings k;
  const auto wall = [](double x, double, double) { return x > 12.0; };
  const FrenetPlan plan = planFrenet(line.view, cruising(10, 0.3, 2.0), k, wall);
  EXPECT_TRUE(plan.stopping);
  EXPECT_EQ(plan.feasible, 0);
  EXPECT_NEAR(plan.s.speed(plan.s.duration), 0.0, 1e-9);
  EXPECT_NEAR(plan.d.position(plan.d.duration), 0.3, 1e-9) << "it keeps its offset";
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
