// An independent reference for 3D ORCA (RVO2-3D's semantics) used as a test oracle for the
// project's 3D kernels (orca_agents_3d.hpp, linear_program_3d.hpp).
//
// Like the 2D reference (reference_sim.hpp) it shares no code with kernels/ or host/, works in
// double precision and searches neighbours by brute force. It follows the definitions of van den
// Berg, Guy, Lin and Manocha, "Reciprocal n-Body Collision Avoidance" (2011), as RVO2-3D applies
// them (see shared/ORCA-NOTES.md), but computes them its own way:
// - the cone-side projection is done geometrically (the generator of the cone through the
//   relative velocity's half-plane) rather than with RVO2-3D's quadratic;
// - the velocity is chosen by enumerating every candidate optimum of the convex program (KKT
//   points for each small active set of planes, with and without the speed sphere) instead of
//   RVO2-3D's incremental linear programs. The result is the same mathematical optimum.
// Comparisons against the float kernels must use a tolerance.
//
// Conventions (RVO2-3D's): a plane {point, normal} permits the velocities v with
// dot(v - point, normal) >= 0, i.e. the side its normal points to.
#pragma once

#include <vector>

#include "reference/reference_common.hpp"

namespace crowd_reference {

struct V3 {
  double x = 0.0;
  double y = 0.0;
  double z = 0.0;
};

inline V3 operator+(V3 a, V3 b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
inline V3 operator-(V3 a, V3 b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
inline V3 operator-(V3 a) {
  return {-a.x, -a.y, -a.z};
}
inline V3 operator*(double s, V3 a) {
  return {s * a.x, s * a.y, s * a.z};
}
inline V3 operator*(V3 a, double s) {
  return {s * a.x, s * a.y, s * a.z};
}
inline V3 operator/(V3 a, double s) {
  return {a.x / s, a.y / s, a.z / s};
}
inline bool operator==(V3 a, V3 b) {
  return a.x == b.x && a.y == b.y && a.z == b.z;
}
inline double dot(V3 a, V3 b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
inline V3 cross(V3 a, V3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline double absSq(V3 a) {
  return dot(a, a);
}
double length(V3 a);
V3 normalize(V3 a);

/// A 3D agent: RVO2-3D's parameters (radius 1.5 by default).
struct RefAgent3 : RefAgentOf<V3> {
  RefAgent3() : RefAgentOf(1.5) {}
};

struct RefWorld3 {
  double timeStep = 0.125;
  std::vector<RefAgent3> agents;
};

/// A half-space constraint on an agent's new velocity (see the conventions above).
struct RefPlane {
  V3 point;
  V3 normal;
};

/// Which part of the velocity obstacle agentPlane projected the relative velocity on.
enum class RefPlaneCase { CutoffSphere, ConeSide, Colliding };

/// The reciprocal half-space agent j imposes on agent i's velocity. Where the colliding case
/// has no direction (w = 0, e.g. coincident agents with equal velocities) the lower index takes
/// normal (-1, 0, 0) and the higher (1, 0, 0), as the kernel's id-based hint does.
RefPlane agentPlane(const RefWorld3& world, int i, int j);

/// The case agentPlane(world, i, j) takes.
RefPlaneCase agentPlaneCase(const RefWorld3& world, int i, int j);

/// Agent i's ORCA planes, one per neighbour in neighbour order.
std::vector<RefPlane> orcaPlanes(const RefWorld3& world, int i);

/// Signed amount by which v violates the plane: > 0 when v is on the forbidden side. Measured
/// along the normal as given (planes from float kernels are unit only to rounding).
double violation(const RefPlane& plane, V3 v);

/// The largest violation of any of the planes (-infinity for none).
double maxViolation(const std::vector<RefPlane>& planes, V3 v);

/// The full answer of the velocity program.
struct RefSolution {
  V3 velocity;
  /// Whether some velocity within maxSpeed satisfies every plane.
  bool feasible = true;
  /// maxViolation(planes, velocity): <= 0 when feasible, the least achievable one otherwise.
  double maxViolation = 0.0;
  /// Whether `velocity` is the only optimum. Always true when feasible (nearest point of a
  /// convex set); when infeasible, false where the least violation is reached on a whole set
  /// (RVO2-3D then picks one by its solving order, which this reference does not imitate).
  bool unique = true;
};

/// RVO2-3D's velocity selection: the velocity nearest prefVelocity within the ball of radius
/// maxSpeed that satisfies all planes, or, when none does, one that minimises the largest
/// violation within the ball.
RefSolution solveVelocityDetailed(const std::vector<RefPlane>& planes, double maxSpeed, V3 prefVelocity);

/// solveVelocityDetailed(...).velocity.
V3 solveVelocity(const std::vector<RefPlane>& planes, double maxSpeed, V3 prefVelocity);

/// One step's new velocities, every one computed from the same (old) state, each agent using
/// preferredVelocity(agent).
std::vector<V3> computeNewVelocities(const RefWorld3& world);

/// Advances the world by one step (stepWorld, reference_common.hpp).
void step(RefWorld3& world);

}  // namespace crowd_reference
