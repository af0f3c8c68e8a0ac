// Cartesian <-> Frenet conversion of a moving agent's state against a reference line (Werling et
// al. 2010, and the classic description: d = (x - r(s)) . n, d' = (1 - kappa_r d) tan(dtheta)).
// s runs along the reference, d across it (positive to the left); d' and d'' are derivatives of
// d with respect to s, sDot and sDdot the along-track speed and acceleration. Position, heading,
// curvature, speed and acceleration go in and come back out.
#pragma once

#include <cmath>

#include "config.hpp"
#include "reference_point.hpp"

namespace crowd {

/// An agent's motion state in the plane.
struct CartesianState {
  double x, y;
  double theta;  ///< Heading, radians.
  double kappa;  ///< Curvature of its path.
  double v;      ///< Speed (>= 0).
  double a;      ///< Acceleration along the path.
};

/// The same state in the reference line's frame.
struct FrenetState {
  double s, sDot, sDdot;
  double d, dPrime, dDprime;  ///< d and its first two derivatives with respect to s.
};

/// Wraps an angle into (-pi, pi].
CROWD_HD inline double wrapAngle(double a) {
  const double twoPi = 6.283185307179586;
  a = std::fmod(a + 3.141592653589793, twoPi);
  if (a <= 0.0) a += twoPi;
  return a - 3.141592653589793;
}

/// `state` in the frame of reference point `r`, the point of the line nearest to it (its
/// projection). Needs 1 - kappa_r d > 0 (the agent inside the reference's radius of curvature)
/// and a heading within 90 degrees of the reference's.
CROWD_HD inline FrenetState toFrenet(const ReferencePoint& r, const CartesianState& state) {
  const double dx = state.x - r.x, dy = state.y - r.y;
  const double c = std::cos(r.theta), sn = std::sin(r.theta);
  FrenetState f{};
  f.s = r.s;
  f.d = -sn * dx + c * dy;  // (x - r) . n, n the left normal.
  const double dTheta = wrapAngle(state.theta - r.theta);
  const double cosDT = std::cos(dTheta), tanDT = std::tan(dTheta);
  const double oneMinusKd = 1.0 - r.kappa * f.d;
  f.dPrime = oneMinusKd * tanDT;
  const double kappaDPrime = r.dkappa * f.d + r.kappa * f.dPrime;  // d(kappa_r d)/ds
  f.dDprime =
      -kappaDPrime * tanDT + oneMinusKd / (cosDT * cosDT) * (state.kappa * oneMinusKd / cosDT - r.kappa);
  f.sDot = state.v * cosDT / oneMinusKd;
  const double dThetaPrime = oneMinusKd / cosDT * state.kappa - r.kappa;  // d(dTheta)/ds
  f.sDdot = (state.a * cosDT - f.sDot * f.sDot * (f.dPrime * dThetaPrime - kappaDPrime)) / oneMinusKd;
  return f;
}

/// The Cartesian state of `f` against reference point `r` (r.s == f.s).
CROWD_HD inline CartesianState toCartesian(const ReferencePoint& r, const FrenetState& f) {
  const double c = std::cos(r.theta), sn = std::sin(r.theta);
  CartesianState state{};
  state.x = r.x - sn * f.d;
  state.y = r.y + c * f.d;
  const double oneMinusKd = 1.0 - r.kappa * f.d;
  const double dTheta = std::atan2(f.dPrime, oneMinusKd);
  const double cosDT = std::cos(dTheta), tanDT = f.dPrime / oneMinusKd;
  state.theta = wrapAngle(r.theta + dTheta);
  const double kappaDPrime = r.dkappa * f.d + r.kappa * f.dPrime;
  state.kappa =
      ((f.dDprime + kappaDPrime * tanDT) * cosDT * cosDT / oneMinusKd + r.kappa) * cosDT / oneMinusKd;
  const double dDot = f.dPrime * f.sDot;
  state.v = std::sqrt(oneMinusKd * oneMinusKd * f.sDot * f.sDot + dDot * dDot);
  const double dThetaPrime = oneMinusKd / cosDT * state.kappa - r.kappa;
  state.a = f.sDdot * oneMinusKd / cosDT + f.sDot * f.sDot / cosDT * (f.dPrime * dThetaPrime - kappaDPrime);
  return state;
}

}  // namespace crowd
