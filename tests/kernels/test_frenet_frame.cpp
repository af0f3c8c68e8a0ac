// Cartesian <-> Frenet (frenet_frame.hpp): worked cases on a straight line and a circle, and
// round trips of position, heading, curvature, speed and acceleration on straight, curved and
// S-shaped references.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include <crowd/kernels/frenet_frame.hpp>

namespace {

using crowd::CartesianState;
using crowd::FrenetState;
using crowd::ReferencePoint;

constexpr double kPi = 3.141592653589793;

TEST(KernelFrenetFrame, StraightReference) {
  const ReferencePoint r{7.0, 5.0, 0.0, 0.0, 0.0, 0.0};  // Along +x, at x = 5.
  const CartesianState agent{5.0, 2.0, kPi / 6, 0.0, 2.0, 0.0};
  const FrenetState f = crowd::toFrenet(r, agent);
  EXPECT_DOUBLE_EQ(f.s, 7.0);
  EXPECT_DOUBLE_EQ(f.d, 2.0) << "left of the line";
  EXPECT_NEAR(f.dPrime, std::tan(kPi / 6), 1e-12);
  EXPECT_NEAR(f.sDot, 2.0 * std::cos(kPi / 6), 1e-12);
  EXPECT_NEAR(f.dDprime, 0.0, 1e-12) << "a straight path";
  EXPECT_NEAR(f.sDdot, 0.0, 1e-12);
}

TEST(KernelFrenetFrame, ConcentricCircleInsideTheReference) {
  // The reference: a circle of radius 10 round the origin, counter-clockwise; at (10, 0) it heads
  // up with curvature 1/10. The agent drives the circle of radius 9 at speed 3.
  const ReferencePoint r{0.0, 10.0, 0.0, kPi / 2, 0.1, 0.0};
  const CartesianState agent{9.0, 0.0, kPi / 2, 1.0 / 9.0, 3.0, 0.0};
  const FrenetState f = crowd::toFrenet(r, agent);
  EXPECT_NEAR(f.d, 1.0, 1e-12) << "the left normal points to the centre";
  EXPECT_NEAR(f.dPrime, 0.0, 1e-12);
  EXPECT_NEAR(f.dDprime, 0.0, 1e-12);
  EXPECT_NEAR(f.sDot, 3.0 / 0.9, 1e-12) << "its angle turns at 3/9, the reference's point at 10 x that";
  EXPECT_NEAR(f.sDdot, 0.0, 1e-12);
}

// A state whose projection on the line is r: offset d along the normal, heading r.theta + dTheta.
CartesianState stateAt(const ReferencePoint& r, double d, double dTheta, double kappa, double v, double a) {
  return CartesianState{r.x - std::sin(r.theta) * d,
                        r.y + std::cos(r.theta) * d,
                        crowd::wrapAngle(r.theta + dTheta),
                        kappa,
                        v,
                        a};
}

TEST(KernelFrenetFrame, RoundTripsOnStraightCurvedAndSShapedReferences) {
  const ReferencePoint references[] = {
      {3.0, 1.0, 2.0, 0.3, 0.0, 0.0},        // Straight.
      {12.0, -4.0, 8.0, 2.0, 0.05, 0.0},     // A circle of radius 20.
      {30.0, 6.0, -2.0, -1.2, -0.08, 0.02},  // An S-bend: curvature changing sign along it.
  };
  const double offsets[] = {-2.5, -0.4, 0.0, 0.7, 3.0};
  const double headings[] = {-0.9, -0.2, 0.0, 0.35, 1.1};
  for (const ReferencePoint& r : references) {
    for (const double d : offsets) {
      for (const double dTheta : headings) {
        const CartesianState in = stateAt(r, d, dTheta, 0.03 - 0.01 * d, 1.8, -0.6);
        const CartesianState out = crowd::toCartesian(r, crowd::toFrenet(r, in));
        const std::string where = "kappa_r " + std::to_string(r.kappa) + ", d " + std::to_string(d) +
                                  ", dTheta " + std::to_string(dTheta);
        EXPECT_NEAR(out.x, in.x, 1e-9) << where;
        EXPECT_NEAR(out.y, in.y, 1e-9) << where;
        EXPECT_NEAR(crowd::wrapAngle(out.theta - in.theta), 0.0, 1e-9) << where;
        EXPECT_NEAR(out.kappa, in.kappa, 1e-9) << where;
        EXPECT_NEAR(out.v, in.v, 1e-9) << where;
        EXPECT_NEAR(out.a, in.a, 1e-9) << where;
      }
    }
  }
}

TEST(KernelFrenetFrame, FrenetRoundTrip) {
  const ReferencePoint r{50.0, 2.0, 3.0, -0.4, 0.04, -0.01};
  const FrenetState in{50.0, 4.0, 0.3, 1.5, 0.2, -0.05};
  const FrenetState out = crowd::toFrenet(r, crowd::toCartesian(r, in));
  EXPECT_NEAR(out.d, in.d, 1e-9);
  EXPECT_NEAR(out.dPrime, in.dPrime, 1e-9);
  EXPECT_NEAR(out.dDprime, in.dDprime, 1e-9);
  EXPECT_NEAR(out.sDot, in.sDot, 1e-9);
  EXPECT_NEAR(out.sDdot, in.sDdot, 1e-9);
}

}  // namespace
