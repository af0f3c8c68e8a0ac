// Reference 3D ORCA step in double precision. See reference_sim_3d.hpp for the conventions.
// Sections: neighbours, the agent half-spaces (three cases), the velocity program (solved by
// enumerating candidate optima rather than incrementally), stepping.
#include "reference/reference_sim_3d.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace crowd_reference {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// A unit vector perpendicular to unit vector a: crossed with the coordinate axis a is least
// aligned with, so the result is never short.
V3 anyPerpendicular(V3 a) {
  const double ax = std::fabs(a.x), ay = std::fabs(a.y), az = std::fabs(a.z);
  V3 axis{0.0, 0.0, 1.0};
  if (ax <= ay && ax <= az)
    axis = V3{1.0, 0.0, 0.0};
  else if (ay <= az)
    axis = V3{0.0, 1.0, 0.0};
  return normalize(cross(a, axis));
}

}  // namespace

double length(V3 a) {
  return std::sqrt(absSq(a));
}

V3 normalize(V3 a) {
  return a / length(a);
}

double violation(const RefPlane& plane, V3 v) {
  return dot(plane.normal, plane.point - v);
}

double maxViolation(const std::vector<RefPlane>& planes, V3 v) {
  double worst = -kInfinity;
  for (const RefPlane& plane : planes) worst = std::max(worst, violation(plane, v));
  return worst;
}

// --- agent half-spaces ---------------------------------------------------------------------

namespace {

// The velocity obstacle of j for i: relative velocities (vi - vj) that collide within tau are
// the cone from the origin tangent to the sphere of radius r (combined radius) around the
// relative position p, cut off by the sphere of radius r/tau around p/tau. u is the smallest
// change of relative velocity to its boundary; i takes half of it.
RefPlane planeAndCase(const RefWorld3& world, int i, int j, RefPlaneCase& which) {
  const RefAgent3& self = world.agents.at(i);
  const RefAgent3& other = world.agents.at(j);
  const V3 p = other.position - self.position;
  const V3 v = self.velocity - other.velocity;
  const double r = self.radius + other.radius;
  const double distSq = absSq(p);

  RefPlane plane;
  V3 u;
  if (distSq > sqr(r)) {
    const double invTau = 1.0 / self.timeHorizon;
    const double dist = std::sqrt(distSq);
    const V3 axis = p / dist;
    // The cone's half-angle alpha: sin(alpha) = r / |p|.
    const double sinAlpha = r / dist;
    const double cosAlpha = std::sqrt(distSq - sqr(r)) / dist;
    // From the cut-off sphere's centre to the relative velocity.
    const V3 w = v - invTau * p;
    // The cone's generators touch the cut-off sphere where the direction from its centre makes
    // angle 90 degrees + alpha with the axis, i.e. dot(dir, -axis) = sin(alpha). Directions
    // closer to -axis than that reach the sphere's exposed back cap, the rest the cone's side.
    if (dot(w, -axis) > sinAlpha * length(w)) {
      which = RefPlaneCase::CutoffSphere;
      const double wLength = length(w);
      plane.normal = w / wLength;
      u = (r * invTau - wLength) * plane.normal;
    } else {
      which = RefPlaneCase::ConeSide;
      // Work in the half-plane spanned by the axis and v's radial part: the cone's generator
      // there is g = cos(alpha) axis + sin(alpha) e, its outward normal n = cos(alpha) e -
      // sin(alpha) axis. v = dot(v, g) g + dot(v, n) n, so the change to the cone's surface
      // is -dot(v, n) n (pushing out when v is inside the cone, where dot(v, n) < 0).
      const V3 radial = v - dot(v, axis) * axis;
      const double radialLength = length(radial);
      // v exactly on the axis (RVO2-3D divides by zero there): any side will do.
      const V3 e = radialLength > 0.0 ? radial / radialLength : anyPerpendicular(axis);
      plane.normal = cosAlpha * e - sinAlpha * axis;
      u = -dot(v, plane.normal) * plane.normal;
    }
  } else {
    // Already overlapping: the cut-off sphere of one time step, so they separate at once.
    which = RefPlaneCase::Colliding;
    const double invTimeStep = 1.0 / world.timeStep;
    const V3 w = v - invTimeStep * p;
    const double wLength = length(w);
    if (wLength > 0.0) {
      plane.normal = w / wLength;
    } else {
      // No direction defined (e.g. coincident with equal velocities): a fixed, opposite choice
      // for the two agents of the pair.
      plane.normal = i < j ? V3{-1.0, 0.0, 0.0} : V3{1.0, 0.0, 0.0};
    }
    u = (r * invTimeStep - wLength) * plane.normal;
  }
  plane.point = self.velocity + 0.5 * u;
  return plane;
}

}  // namespace

RefPlane agentPlane(const RefWorld3& world, int i, int j) {
  RefPlaneCase which;
  return planeAndCase(world, i, j, which);
}

RefPlaneCase agentPlaneCase(const RefWorld3& world, int i, int j) {
  RefPlaneCase which;
  planeAndCase(world, i, j, which);
  return which;
}

std::vector<RefPlane> orcaPlanes(const RefWorld3& world, int i) {
  std::vector<RefPlane> planes;
  for (int j : agentNeighbours(world, i)) planes.push_back(agentPlane(world, i, j));
  return planes;
}

// --- the velocity program ------------------------------------------------------------------
//
// Both problems are convex, so an optimum is a KKT point of some small set of active
// constraints. Every such point is computed (it is a projection onto an affine flat, possibly
// intersected with the speed sphere), and the best feasible one wins. Extra candidates never
// hurt: each is a genuine point of the ball, so none can beat the true optimum.

namespace {

// The affine flat {x : dot(a[k], x) = b[k], k < m} for m <= 3 independent rows, with the
// inverse of its Gram matrix A A^T for orthogonal projections onto it.
struct Flat {
  int m = 0;
  V3 a[3];
  double b[3] = {0.0, 0.0, 0.0};
  double gInv[3][3] = {};
  bool ok = true;

  void add(V3 row, double value) {
    a[m] = row;
    b[m] = value;
    ++m;
  }

  // Inverts the Gram matrix; rejects nearly dependent rows (their flat is ill-defined).
  void finish() {
    double g[3][3] = {};
    double scale = 1.0;
    for (int r = 0; r < m; ++r) {
      for (int c = 0; c < m; ++c) g[r][c] = dot(a[r], a[c]);
      scale *= g[r][r];
    }
    if (m == 0) return;
    double det = 0.0;
    if (m == 1) {
      det = g[0][0];
      if (det > 0.0) gInv[0][0] = 1.0 / det;
    } else if (m == 2) {
      det = g[0][0] * g[1][1] - g[0][1] * g[1][0];
      gInv[0][0] = g[1][1] / det;
      gInv[1][1] = g[0][0] / det;
      gInv[0][1] = gInv[1][0] = -g[0][1] / det;
    } else {
      // Adjugate over determinant.
      const double c00 = g[1][1] * g[2][2] - g[1][2] * g[2][1];
      const double c01 = g[1][2] * g[2][0] - g[1][0] * g[2][2];
      const double c02 = g[1][0] * g[2][1] - g[1][1] * g[2][0];
      det = g[0][0] * c00 + g[0][1] * c01 + g[0][2] * c02;
      gInv[0][0] = c00 / det;
      gInv[0][1] = gInv[1][0] = c01 / det;
      gInv[0][2] = gInv[2][0] = c02 / det;
      gInv[1][1] = (g[0][0] * g[2][2] - g[0][2] * g[2][0]) / det;
      gInv[1][2] = gInv[2][1] = (g[0][2] * g[1][0] - g[0][0] * g[1][2]) / det;
      gInv[2][2] = (g[0][0] * g[1][1] - g[0][1] * g[1][0]) / det;
    }
    ok = det > 1e-14 * scale;
  }

  // x - A^T G^-1 (A x - b): the nearest point of the flat. `homogeneous` drops b, which
  // projects a direction onto the flat's own directions instead.
  V3 project(V3 x, bool homogeneous = false) const {
    double residual[3];
    for (int r = 0; r < m; ++r) residual[r] = dot(a[r], x) - (homogeneous ? 0.0 : b[r]);
    V3 result = x;
    for (int r = 0; r < m; ++r) {
      double coefficient = 0.0;
      for (int c = 0; c < m; ++c) coefficient += gInv[r][c] * residual[c];
      result = result - coefficient * a[r];
    }
    return result;
  }
};

// Every subset of {0..n-1} with 1 to maxSize elements, as index lists.
std::vector<std::vector<int>> subsets(int n, int maxSize) {
  std::vector<std::vector<int>> result;
  std::vector<int> current;
  auto extend = [&](auto&& self, int from) -> void {
    if (!current.empty()) result.push_back(current);
    if (static_cast<int>(current.size()) == maxSize) return;
    for (int k = from; k < n; ++k) {
      current.push_back(k);
      self(self, k + 1);
      current.pop_back();
    }
  };
  extend(extend, 0);
  return result;
}

// A point counts as inside the ball and the planes to this much (double rounding only).
constexpr double kTolerance = 1e-9;

bool inBall(V3 x, double radius) {
  return absSq(x) <= sqr(radius) * (1.0 + kTolerance);
}

// Feasible case: the nearest point to pref of {|x| <= R} and all planes. Candidates: for each
// set S of at most 3 planes held with equality, the projection of pref onto their flat, and
// (|S| <= 2) the point of the flat's circle/sphere section nearest pref. Returns false when no
// candidate is feasible, i.e. the planes and the ball do not meet.
bool nearestFeasible(const std::vector<RefPlane>& planes, double radius, V3 pref, V3& best) {
  double bestDistSq = kInfinity;
  auto consider = [&](V3 x) {
    if (!inBall(x, radius) || maxViolation(planes, x) > kTolerance) return;
    const double distSq = absSq(x - pref);
    if (distSq < bestDistSq) {
      bestDistSq = distSq;
      best = x;
    }
  };
  std::vector<std::vector<int>> sets = subsets(static_cast<int>(planes.size()), 3);
  sets.insert(sets.begin(), std::vector<int>{});  // No plane active.
  for (const std::vector<int>& set : sets) {
    Flat flat;
    for (int k : set) flat.add(planes[k].normal, dot(planes[k].normal, planes[k].point));
    flat.finish();
    if (!flat.ok) continue;
    const V3 q = flat.project(pref);
    consider(q);
    if (set.size() > 2) continue;
    // On the sphere as well: the section's centre c is the flat's point nearest the origin;
    // the optimum lies from c towards pref's projection (KKT with a positive multiplier).
    const V3 c = flat.project(V3{});
    const double sectionRadiusSq = sqr(radius) - absSq(c);
    const V3 towards = q - c;
    if (sectionRadiusSq < 0.0 || absSq(towards) == 0.0) continue;
    consider(c + std::sqrt(sectionRadiusSq) * normalize(towards));
  }
  return bestDistSq < kInfinity;
}

// Solves the 4x4 system m x = rhs by Gaussian elimination with partial pivoting; false when
// (nearly) singular.
bool solve4(double m[4][5], double x[4]) {
  for (int col = 0; col < 4; ++col) {
    int pivot = col;
    for (int r = col + 1; r < 4; ++r)
      if (std::fabs(m[r][col]) > std::fabs(m[pivot][col])) pivot = r;
    if (std::fabs(m[pivot][col]) < 1e-12) return false;
    for (int c = 0; c < 5; ++c) std::swap(m[col][c], m[pivot][c]);
    for (int r = col + 1; r < 4; ++r) {
      const double f = m[r][col] / m[col][col];
      for (int c = col; c < 5; ++c) m[r][c] -= f * m[col][c];
    }
  }
  for (int r = 3; r >= 0; --r) {
    double s = m[r][4];
    for (int c = r + 1; c < 4; ++c) s -= m[r][c] * x[c];
    x[r] = s / m[r][r];
  }
  return true;
}

// Infeasible case: min over |v| <= R of d(v) = max_k violation_k(v), a convex program in (v, d).
// An optimum is either a vertex where four planes are violated equally (sphere inactive), or on
// the sphere with the violations of a set S of 1-3 planes equal, minimising that common
// violation there: the sphere's section by the "equal violation" flat, taken at its point
// furthest along plane S[0]'s normal (|S| <= 2) or at either end (|S| = 3, a line).
V3 leastViolation(const std::vector<RefPlane>& planes, double radius) {
  double bestD = kInfinity;
  V3 best;
  auto consider = [&](V3 x) {
    if (!inBall(x, radius)) return;
    const double d = maxViolation(planes, x);
    if (d < bestD) {
      bestD = d;
      best = x;
    }
  };
  const int n = static_cast<int>(planes.size());
  for (const std::vector<int>& set : subsets(n, 4)) {
    if (set.size() == 4) {
      // dot(n_k, v) + d = dot(n_k, p_k) for the four planes.
      double m[4][5];
      for (int r = 0; r < 4; ++r) {
        const RefPlane& plane = planes[set[r]];
        m[r][0] = plane.normal.x;
        m[r][1] = plane.normal.y;
        m[r][2] = plane.normal.z;
        m[r][3] = 1.0;
        m[r][4] = dot(plane.normal, plane.point);
      }
      double x[4];
      if (solve4(m, x)) consider(V3{x[0], x[1], x[2]});
      continue;
    }
    const RefPlane& first = planes[set[0]];
    if (set.size() == 1) {
      consider(radius * normalize(first.normal));
      continue;
    }
    Flat flat;
    for (std::size_t k = 1; k < set.size(); ++k) {
      const RefPlane& other = planes[set[k]];
      flat.add(first.normal - other.normal, dot(first.normal, first.point) - dot(other.normal, other.point));
    }
    flat.finish();
    if (!flat.ok) continue;
    const V3 c = flat.project(V3{});
    consider(c);  // Covers the degenerate case where the common violation is constant.
    const double sectionRadiusSq = sqr(radius) - absSq(c);
    if (sectionRadiusSq < 0.0) continue;
    const double sectionRadius = std::sqrt(sectionRadiusSq);
    const V3 along = flat.project(first.normal, true);
    if (absSq(along) > 0.0) {
      consider(c + sectionRadius * normalize(along));
      consider(c - sectionRadius * normalize(along));  // A line's other end.
    }
  }
  return best;
}

// Whether v is a positive combination of the unit normals (to rounding): tried on every set
// of at most 3 of them, which suffices in 3D (Caratheodory).
bool inCone(V3 v, const std::vector<V3>& normals) {
  for (const std::vector<int>& set : subsets(static_cast<int>(normals.size()), 3)) {
    Flat flat;
    for (int k : set) flat.add(normals[k], 0.0);
    flat.finish();
    if (!flat.ok) continue;
    // Coefficients of v's projection onto span(normals in set): G^-1 A v.
    bool positive = true;
    for (int r = 0; r < flat.m; ++r) {
      double coefficient = 0.0;
      for (int c = 0; c < flat.m; ++c) coefficient += flat.gInv[r][c] * dot(flat.a[c], v);
      positive = positive && coefficient >= -1e-9;
    }
    const V3 outside = flat.project(v, true);  // The part of v outside the span.
    if (positive && absSq(outside) <= 1e-16 * absSq(v)) return true;
  }
  return false;
}

// Whether the only direction d with dot(n, d) >= 0 for every unit normal is 0, i.e. moving
// anywhere increases some active violation. That cone, if not {0}, has a ray along the meet of
// two of the planes, or (normals of rank < 3) a whole line.
bool onlyZeroDirection(const std::vector<V3>& normals) {
  bool fullRank = false;
  const int n = static_cast<int>(normals.size());
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      const V3 meet = cross(normals[a], normals[b]);
      if (absSq(meet) <= 1e-18) continue;
      for (int c = b + 1; c < n; ++c) fullRank = fullRank || std::fabs(dot(meet, normals[c])) > 1e-9;
      for (double sign : {1.0, -1.0}) {
        const V3 d = sign * normalize(meet);
        bool keepsAll = true;
        for (const V3& normal : normals) keepsAll = keepsAll && dot(normal, d) >= -1e-9;
        if (keepsAll) return false;
      }
    }
  }
  return fullRank;
}

// Whether v (optimal, largest violation d) is the only optimum. By the KKT conditions it is
// when the sphere is active with a positive multiplier (v a positive combination of the active
// normals), or when the active normals allow no direction that keeps all of them. Anything
// else is reported as not unique, which only makes the caller compare less.
bool uniqueLeastViolation(const std::vector<RefPlane>& planes, double radius, V3 v, double d) {
  std::vector<V3> active;
  for (const RefPlane& plane : planes)
    if (violation(plane, v) >= d - 1e-8) active.push_back(normalize(plane.normal));
  const bool onSphere = absSq(v) >= sqr(radius) * (1.0 - 1e-9);
  if (onSphere && inCone(normalize(v), active)) return true;
  return onlyZeroDirection(active);
}

}  // namespace

RefSolution solveVelocityDetailed(const std::vector<RefPlane>& planes, double maxSpeed, V3 prefVelocity) {
  RefSolution solution;
  solution.feasible = nearestFeasible(planes, maxSpeed, prefVelocity, solution.velocity);
  if (!solution.feasible) solution.velocity = leastViolation(planes, maxSpeed);
  solution.maxViolation = maxViolation(planes, solution.velocity);
  solution.unique =
      solution.feasible || uniqueLeastViolation(planes, maxSpeed, solution.velocity, solution.maxViolation);
  return solution;
}

V3 solveVelocity(const std::vector<RefPlane>& planes, double maxSpeed, V3 prefVelocity) {
  return solveVelocityDetailed(planes, maxSpeed, prefVelocity).velocity;
}

// --- stepping ------------------------------------------------------------------------------

std::vector<V3> computeNewVelocities(const RefWorld3& world) {
  std::vector<V3> newVelocities;
  newVelocities.reserve(world.agents.size());
  for (int i = 0; i < static_cast<int>(world.agents.size()); ++i) {
    const RefAgent3& self = world.agents[i];
    newVelocities.push_back(solveVelocity(orcaPlanes(world, i), self.maxSpeed, preferredVelocity(self)));
  }
  return newVelocities;
}

void step(RefWorld3& world) {
  stepWorld(world);
}

}  // namespace crowd_reference
