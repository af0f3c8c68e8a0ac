// Jerk-optimal motions (polynomial.hpp): boundary conditions met at both ends, the exact squared
// jerk against a numerical integral, and the quintic's optimality against perturbed motions
// with the same ends.
#include <cmath>

#include <gtest/gtest.h>

#include <crowd/kernels/polynomial.hpp>

namespace {

TEST(KernelPolynomial, QuinticMeetsBothEnds) {
  const struct {
    double x0, v0, a0, x1, v1, a1, T;
  } cases[] = {{0, 0, 0, 1, 0, 0, 1},
               {2, 1.5, -0.3, 40, 8, 0.5, 4.5},
               {-1, 3, 2, -1, -3, 0, 0.25},
               {0, 0, 0, 0, 0, 0, 7}};
  for (const auto& k : cases) {
    const crowd::MotionPolynomial p = crowd::quintic(k.x0, k.v0, k.a0, k.x1, k.v1, k.a1, k.T);
    const double scale = 1e-9 * (1.0 + std::abs(k.x1) + std::abs(k.x0));
    EXPECT_NEAR(p.position(0), k.x0, scale);
    EXPECT_NEAR(p.speed(0), k.v0, scale);
    EXPECT_NEAR(p.acceleration(0), k.a0, scale);
    EXPECT_NEAR(p.position(k.T), k.x1, 1e-9 * (1 + std::abs(k.x1)));
    EXPECT_NEAR(p.speed(k.T), k.v1, 1e-8 * (1 + std::abs(k.v1)));
    EXPECT_NEAR(p.acceleration(k.T), k.a1, 1e-7 * (1 + std::abs(k.a1)));
  }
}

TEST(KernelPolynomial, QuarticMeetsItsEndSpeedAndAcceleration) {
  const crowd::MotionPolynomial p = crowd::quartic(5, 2, 0.4, 6, -0.2, 3);
  EXPECT_EQ(p.position(0), 5.0);
  EXPECT_NEAR(p.speed(0), 2.0, 1e-12);
  EXPECT_NEAR(p.acceleration(0), 0.4, 1e-12);
  EXPECT_NEAR(p.speed(3), 6.0, 1e-9);
  EXPECT_NEAR(p.acceleration(3), -0.2, 1e-9);
  EXPECT_EQ(p.c[5], 0.0);
}

TEST(KernelPolynomial, SquaredJerkIsTheIntegral) {
  const crowd::MotionPolynomial p = crowd::quintic(0, 1, 0, 12, 3, -1, 3.5);
  // Simpson's rule on jerk^2, a quartic: its error is of order h^4 (1e-7 here).
  const int n = 200;
  const double h = p.duration / n;
  double sum = 0;
  for (int i = 0; i <= n; ++i) {
    const double w = (i == 0 || i == n) ? 1 : (i % 2 == 1 ? 4 : 2);
    sum += w * p.jerk(i * h) * p.jerk(i * h);
  }
  EXPECT_NEAR(p.squaredJerk(), sum * h / 3.0, 1e-6 * sum * h);
}

TEST(KernelPolynomial, QuinticHasLessJerkThanAnyOtherMotionWithTheSameEnds) {
  // Adding t^3 (T - t)^3 * e keeps position, speed and acceleration at both ends; any e != 0
  // costs more squared jerk.
  const double T = 2.0;
  const crowd::MotionPolynomial best = crowd::quintic(0, 0.5, 0, 3, 1, 0, T);
  for (const double e : {-0.2, -0.01, 0.01, 0.3}) {
    // t^3 (T - t)^3 = T^3 t^3 - 3 T^2 t^4 + 3 T t^5 - t^6 has a t^6 term, outside the
    // polynomial family: integrate both on a fine grid.
    const int n = 2000;
    const double h = T / n;
    double bestSum = 0, otherSum = 0;
    for (int i = 0; i <= n; ++i) {
      const double t = i * h;
      const double w = (i == 0 || i == n) ? 1 : (i % 2 == 1 ? 4 : 2);
      // Third derivative of e * (T^3 t^3 - 3 T^2 t^4 + 3 T t^5 - t^6).
      const double extra = e * (6 * T * T * T - 72 * T * T * t + 180 * T * t * t - 120 * t * t * t);
      bestSum += w * best.jerk(t) * best.jerk(t);
      otherSum += w * (best.jerk(t) + extra) * (best.jerk(t) + extra);
    }
    EXPECT_LT(bestSum, otherSum) << "e = " << e;
  }
}

}  // namespace
