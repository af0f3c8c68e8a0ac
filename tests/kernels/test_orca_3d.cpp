// Unit tests for the 3D ORCA kernels (linear_program_3d.hpp, orca_agents_3d.hpp). The linear
// programs are checked against their definition: the result keeps every half-space (or, when
// none can all be kept, no velocity breaks them by less), and no velocity in the max-speed
// sphere that does so lies nearer the preferred one; candidates are 200,000 random velocities in
// the sphere, measured in double precision. The agent half-spaces are checked by what they are
// for: two agents that each take their half reach exactly touching distance within the horizon,
// whichever of the three cases applies.
#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "crowd/kernels/linear_program_3d.hpp"
#include "crowd/kernels/orca_agents_3d.hpp"

namespace crowd {
namespace {

/// By how much `v` breaks `plane` (> 0: on the forbidden side), in double.
double violation(const OrcaPlane& p, double x, double y, double z) {
  return static_cast<double>(p.normal.x) * (p.point.x - x) +
         static_cast<double>(p.normal.y) * (p.point.y - y) +
         static_cast<double>(p.normal.z) * (p.point.z - z);
}

double maxViolation(const std::vector<OrcaPlane>& planes, double x, double y, double z) {
  double worst = -INFINITY;
  for (const OrcaPlane& p : planes) worst = std::max(worst, violation(p, x, y, z));
  return worst;
}

Vec3 randomUnit(std::mt19937& random) {
  std::normal_distribution<float> normal;
  return normalize(Vec3(normal(random), normal(random), normal(random)));
}

/// Uniform random points in the ball of `radius`.
std::vector<Vec3> ballSamples(float radius, int count, std::mt19937& random) {
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::vector<Vec3> points;
  while (static_cast<int>(points.size()) < count) {
    const Vec3 p(unit(random), unit(random), unit(random));
    if (absSq(p) <= 1.0f) points.push_back(p * radius);
  }
  return points;
}

double distance(Vec3 a, Vec3 b) {
  const double dx = static_cast<double>(a.x) - b.x, dy = static_cast<double>(a.y) - b.y,
               dz = static_cast<double>(a.z) - b.z;
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}

TEST(KernelOrca3d, NoPlanesGivesThePreferredVelocityWithinTheSphere) {
  EXPECT_EQ(solveOrca3(nullptr, 0, 2.0f, Vec3(0.5f, -1.0f, 0.25f)), Vec3(0.5f, -1.0f, 0.25f));
  const Vec3 fast = solveOrca3(nullptr, 0, 2.0f, Vec3(0.0f, 0.0f, 5.0f));
  EXPECT_NEAR(fast.z, 2.0f, 1e-6f);
  EXPECT_EQ(fast.x, 0.0f);
}

TEST(KernelOrca3d, OnePlaneProjectsOntoIt) {
  // Only x >= 0.25 is allowed.
  const OrcaPlane wall{Vec3(0.25f, 0.0f, 0.0f), Vec3(1.0f, 0.0f, 0.0f)};
  const Vec3 v = solveOrca3(&wall, 1, 2.0f, Vec3(-1.0f, 0.5f, -0.5f));
  EXPECT_NEAR(v.x, 0.25f, 1e-6f);
  EXPECT_NEAR(v.y, 0.5f, 1e-6f);
  EXPECT_NEAR(v.z, -0.5f, 1e-6f);
}

TEST(KernelOrca3d, FeasibleProgramsFindTheNearestAllowedVelocity) {
  std::mt19937 random(11);
  const float radius = 2.0f;
  const std::vector<Vec3> samples = ballSamples(radius, 200000, random);
  std::uniform_real_distribution<float> offset(0.0f, 0.6f);
  for (int trial = 0; trial < 40; ++trial) {
    // Half-spaces that all keep the origin (so the program is feasible), their planes up to 0.6
    // from it, and a preferred velocity that most of them forbid.
    const int count = 1 + trial % 12;
    std::vector<OrcaPlane> planes;
    for (int i = 0; i < count; ++i) {
      const Vec3 n = randomUnit(random);
      planes.push_back(OrcaPlane{-offset(random) * n, n});
    }
    const Vec3 pref = randomUnit(random) * (1.0f + 2.0f * offset(random));
    const Vec3 v = solveOrca3(planes.data(), count, radius, pref);
    EXPECT_LE(maxViolation(planes, v.x, v.y, v.z), 1e-4) << "trial " << trial;
    EXPECT_LE(length(v), radius + 1e-4f) << "trial " << trial;
    double best = INFINITY;
    for (const Vec3& s : samples) {
      if (maxViolation(planes, s.x, s.y, s.z) <= 0.0) best = std::min(best, distance(s, pref));
    }
    EXPECT_LE(distance(v, pref), best + 1e-4) << "trial " << trial << ": a sampled velocity is nearer";
  }
}

TEST(KernelOrca3d, InfeasibleProgramsMinimiseTheLargestViolation) {
  std::mt19937 random(12);
  const float radius = 1.0f;
  const std::vector<Vec3> samples = ballSamples(radius, 200000, random);
  std::uniform_real_distribution<float> offset(0.3f, 1.5f);
  int infeasible = 0;
  for (int trial = 0; trial < 30; ++trial) {
    // Half-spaces that all forbid the origin, facing every way: together they leave nothing.
    const int count = 4 + trial % 10;
    std::vector<OrcaPlane> planes;
    for (int i = 0; i < count; ++i) {
      const Vec3 n = randomUnit(random);
      planes.push_back(OrcaPlane{offset(random) * n, n});
    }
    const Vec3 pref = randomUnit(random) * 0.5f;
    Vec3 v(0.0f);
    const int failed = solveIncremental3(planes.data(), count, radius, pref, false, v);
    if (failed == count) continue;  // Feasible after all: checked by the test above.
    ++infeasible;
    solveLeastViolation3(planes.data(), count, failed, radius, v);
    EXPECT_LE(length(v), radius + 1e-4f) << "trial " << trial;
    double best = INFINITY;
    for (const Vec3& s : samples) best = std::min(best, maxViolation(planes, s.x, s.y, s.z));
    EXPECT_LE(maxViolation(planes, v.x, v.y, v.z), best + 1e-4) << "trial " << trial;
  }
  EXPECT_GT(infeasible, 20) << "the cases test lp4";
}

/// The closest two agents come over [0, horizon] at relative position `p` and relative velocity
/// `v` (double precision).
double closestApproach(Vec3 p, Vec3 v, double horizon) {
  const double vv = static_cast<double>(dot(v, v));
  double t = vv > 0.0 ? static_cast<double>(dot(p, v)) / vv : 0.0;
  t = std::clamp(t, 0.0, horizon);
  const double x = p.x - v.x * t, y = p.y - v.y * t, z = p.z - v.z * t;
  return std::sqrt(x * x + y * y + z * z);
}

/// Two agents each moving onto their own plane (the smallest change that keeps it): returns the
/// new relative velocity of b seen from a.
Vec3 reciprocalRelativeVelocity(const Sphere3& a, const Sphere3& b, float tau, float dt) {
  const OrcaPlane pa = agentOrcaPlane3(a, b, 1.0f / tau, 1.0f / dt, coincidentSeparationHint3(0, 1));
  const OrcaPlane pb = agentOrcaPlane3(b, a, 1.0f / tau, 1.0f / dt, coincidentSeparationHint3(1, 0));
  const Vec3 va = solveOrca3(&pa, 1, 100.0f, a.velocity);
  const Vec3 vb = solveOrca3(&pb, 1, 100.0f, b.velocity);
  return va - vb;
}

TEST(KernelOrca3d, HalfSpacesOnACollisionCourseJustAvoidIt) {
  const float tau = 2.0f, dt = 0.25f;
  // The cone's side: head-on but offset, fast enough to hit within the horizon.
  {
    const Sphere3 a{Vec3(0, 0, 0), Vec3(1.5f, 0.1f, 0.05f), 0.5f};
    const Sphere3 b{Vec3(4, 0.3f, -0.2f), Vec3(-1.5f, 0, 0), 0.5f};
    const Vec3 rel = reciprocalRelativeVelocity(a, b, tau, dt);
    ASSERT_LT(closestApproach(b.position - a.position, a.velocity - b.velocity, tau), 1.0)
        << "on a collision course";
    EXPECT_NEAR(closestApproach(b.position - a.position, rel, tau), 1.0, 1e-3) << "cone: just touching";
  }
  // The cut-off sphere: slowly closing, so the collision would come just at the horizon.
  {
    const Sphere3 a{Vec3(0, 0, 0), Vec3(0.5f, 0, 0), 0.5f};
    const Sphere3 b{Vec3(2.0f, 0, 0.1f), Vec3(-0.1f, 0, 0), 0.5f};
    const Vec3 rel = reciprocalRelativeVelocity(a, b, tau, dt);
    ASSERT_LT(closestApproach(b.position - a.position, a.velocity - b.velocity, tau), 1.0);
    EXPECT_NEAR(closestApproach(b.position - a.position, rel, tau), 1.0, 1e-3) << "cut-off: touching at tau";
  }
  // Already overlapping: one step of the new velocities takes them just apart.
  {
    const Sphere3 a{Vec3(0, 0, 0), Vec3(0.2f, 0, 0), 0.5f};
    const Sphere3 b{Vec3(0.8f, 0.1f, 0), Vec3(-0.2f, 0, 0), 0.5f};
    const Vec3 rel = reciprocalRelativeVelocity(a, b, tau, dt);
    const Vec3 after = (b.position - a.position) - rel * dt;
    EXPECT_NEAR(length(after), 1.0f, 1e-3f) << "overlap: apart after one step";
  }
}

TEST(KernelOrca3d, AgentsOutOfEachOthersWayAreLeftAlone) {
  // Moving apart: the half-space keeps their velocities.
  const Sphere3 a{Vec3(0, 0, 0), Vec3(-1, 0, 0), 0.5f};
  const Sphere3 b{Vec3(3, 0, 0), Vec3(1, 0, 0), 0.5f};
  const OrcaPlane plane = agentOrcaPlane3(a, b, 0.5f, 4.0f, coincidentSeparationHint3(0, 1));
  EXPECT_LE(violation(plane, a.velocity.x, a.velocity.y, a.velocity.z), 0.0);
  const Vec3 v = solveOrca3(&plane, 1, 2.0f, a.velocity);
  EXPECT_EQ(v, a.velocity);
}

}  // namespace
}  // namespace crowd
