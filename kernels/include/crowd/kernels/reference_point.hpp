// A sample of a reference line (the Frenet planner's): plain data, so that the simulator's public
// API can hand reference lines out without the planner's maths.
#pragma once

namespace crowd {

/// A point of the reference line and its local geometry.
struct ReferencePoint {
  double s;  ///< Arc length from the line's start.
  double x, y;
  double theta;   ///< Tangent heading, radians.
  double kappa;   ///< Curvature (positive turning left).
  double dkappa;  ///< d kappa / d s.
};

}  // namespace crowd
