// The jerk-optimal one-dimensional motions of the Frenet planner (Werling et al. 2010): between
// a start state (position, speed, acceleration) and an end state reached after time T, the
// motion that minimises the integral of squared jerk is a quintic polynomial in t; with only the
// end speed and acceleration fixed (the position left free), it is a quartic. Each is solved in
// closed form, in double precision: T^5 and its inverse span many orders of magnitude.
#pragma once

#include "config.hpp"

namespace crowd {

/// x(t) = c0 + c1 t + c2 t^2 + c3 t^3 + c4 t^4 + c5 t^5 on [0, T] (c5 = 0 for a quartic).
struct MotionPolynomial {
  double c[6];
  double duration;

  CROWD_HD double position(double t) const {
    return c[0] + t * (c[1] + t * (c[2] + t * (c[3] + t * (c[4] + t * c[5]))));
  }
  CROWD_HD double speed(double t) const {
    return c[1] + t * (2.0 * c[2] + t * (3.0 * c[3] + t * (4.0 * c[4] + t * 5.0 * c[5])));
  }
  CROWD_HD double acceleration(double t) const {
    return 2.0 * c[2] + t * (6.0 * c[3] + t * (12.0 * c[4] + t * 20.0 * c[5]));
  }
  CROWD_HD double jerk(double t) const { return 6.0 * c[3] + t * (24.0 * c[4] + t * 60.0 * c[5]); }

  /// The integral of jerk^2 over [0, duration], exact (jerk is a quadratic in t).
  CROWD_HD double squaredJerk() const {
    const double a = 6.0 * c[3], b = 24.0 * c[4], q = 60.0 * c[5], T = duration;
    // (a + b t + q t^2)^2 integrated term by term.
    return T *
           (a * a + T * (a * b + T * ((b * b + 2.0 * a * q) / 3.0 + T * (b * q / 2.0 + T * q * q / 5.0))));
  }
};

/// The quintic from (x0, v0, a0) at t = 0 to (x1, v1, a1) at t = T (T > 0).
CROWD_HD inline MotionPolynomial quintic(double x0, double v0, double a0, double x1, double v1, double a1,
                                         double T) {
  // What the start state alone would reach, and what is left for the cubic-and-up terms.
  const double h = x1 - (x0 + v0 * T + 0.5 * a0 * T * T);
  const double hv = v1 - (v0 + a0 * T);
  const double ha = a1 - a0;
  const double T2 = T * T, T3 = T2 * T;
  MotionPolynomial p{};
  p.duration = T;
  p.c[0] = x0;
  p.c[1] = v0;
  p.c[2] = 0.5 * a0;
  p.c[3] = (10.0 * h - 4.0 * hv * T + 0.5 * ha * T2) / T3;
  p.c[4] = (-15.0 * h + 7.0 * hv * T - ha * T2) / (T3 * T);
  p.c[5] = (6.0 * h - 3.0 * hv * T + 0.5 * ha * T2) / (T3 * T2);
  return p;
}

/// The quartic from (x0, v0, a0) at t = 0 to speed v1 and acceleration a1 at t = T (T > 0).
CROWD_HD inline MotionPolynomial quartic(double x0, double v0, double a0, double v1, double a1, double T) {
  const double hv = v1 - (v0 + a0 * T);
  const double ha = a1 - a0;
  const double T2 = T * T;
  MotionPolynomial p{};
  p.duration = T;
  p.c[0] = x0;
  p.c[1] = v0;
  p.c[2] = 0.5 * a0;
  p.c[3] = hv / T2 - ha / (3.0 * T);
  p.c[4] = ha / (4.0 * T2) - hv / (2.0 * T2 * T);
  p.c[5] = 0.0;
  return p;
}

/// The largest |acceleration| of a quartic (c5 == 0) over [0, duration]: its acceleration is a
/// quadratic in t, so the largest magnitude is at an end or at the quadratic's vertex.
CROWD_HD inline double peakQuarticAcceleration(const MotionPolynomial& p) {
  const double T = p.duration;
  const double a0 = p.acceleration(0.0), aT = p.acceleration(T);
  double peak = a0 < 0.0 ? -a0 : a0;
  peak = (aT < 0.0 ? -aT : aT) > peak ? (aT < 0.0 ? -aT : aT) : peak;
  const double curve = 12.0 * p.c[4];  // a(t) = 2 c2 + 6 c3 t + 12 c4 t^2.
  if (curve != 0.0) {
    const double vertex = -6.0 * p.c[3] / (2.0 * curve);
    if (vertex > 0.0 && vertex < T) {
      const double av = p.acceleration(vertex);
      peak = (av < 0.0 ? -av : av) > peak ? (av < 0.0 ? -av : av) : peak;
    }
  }
  return peak;
}

/// The shortest horizon (at least `floor`) over which the quartic from speed v0 and acceleration
/// a0 to rest, quartic(x0, v0, a0, 0, 0, T), keeps |acceleration| within `limit` (> 0), or within
/// |a0| when the start is beyond the limit already. Its acceleration is (1 - u)(a0 (1 - 3u) -
/// 6 u v0 / T) at u = t / T, whose largest magnitude over u in [0, 1] is convex in 1 / T and least
/// at 1 / T = 0, so it never grows with T: a bisection finds the shortest T. For a0 = 0 it is
/// 1.5 |v0| / limit (the peak, 1.5 v0 / T, at u = 1/2).
CROWD_HD inline double stoppingHorizon(double v0, double a0, double limit, double floor) {
  const double bound = (a0 < 0.0 ? -a0 : a0) > limit ? (a0 < 0.0 ? -a0 : a0) : limit;
  const auto within = [&](double T) {
    return peakQuarticAcceleration(quartic(0.0, v0, a0, 0.0, 0.0, T)) <= bound * (1.0 + 1e-12);
  };
  if (within(floor)) return floor;
  double lo = floor, hi = 2.0 * floor;
  for (int i = 0; i < 64 && !within(hi); ++i) {  // Doubling: bounded, since the peak falls to |a0|.
    lo = hi;
    hi *= 2.0;
  }
  for (int i = 0; i < 60; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (within(mid)) {
      hi = mid;
    } else {
      lo = mid;
    }
  }
  return hi;
}

}  // namespace crowd
