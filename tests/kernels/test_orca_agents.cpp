// Unit tests for crowd/kernels/orca_agents.hpp: the ORCA half-plane one agent gets from another.
//
// Everything is checked against the definitions, in double precision, never against numbers
// taken from the kernel. With p the neighbour's relative position, r the combined radius and tau
// the time horizon, the velocity obstacle is VO = {w : |p - t w| < r for some t in [0, tau]}
// (a cone truncated by the disc of radius r/tau at p/tau; it is convex). ORCA takes u, the
// smallest change of the relative velocity that reaches the boundary of VO, and gives the agent
// the half-plane through v + u/2 whose inside faces away from VO.
//
// A line's permitted side is its left: v violates it by det(direction, point - v), as in the LP.
#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "crowd/kernels/orca_agents.hpp"
#include "kernels/double_vec.hpp"

namespace {

using crowd::AgentOrcaCase;
using crowd::OrcaLine;
using crowd::Vec2;

constexpr double kPi = 3.14159265358979323846;

using namespace kernel_test;

/// Whether relative velocity w brings the pair (relative position p, combined radius r) closer
/// than r at some time in [0, tau]: the closest approach of the segment {t w} to p.
bool collidesWithin(D2 p, D2 w, double r, double tau) {
  const double wSq = dotD(w, w);
  double t = wSq > 0.0 ? dotD(p, w) / wSq : 0.0;
  t = std::fmin(std::fmax(t, 0.0), tau);
  const D2 gap = p - t * w;
  return dotD(gap, gap) < r * r;
}

/// Distance from w to the boundary of VO, by brute force: along 1440 directions, walk until
/// membership changes, then bisect. VO is convex, so each ray crosses the boundary at most
/// twice; the first crossing is the one that matters.
double bruteDistanceToBoundary(D2 p, D2 w, double r, double tau) {
  const bool inside = collidesWithin(p, w, r, tau);
  double best = INFINITY;
  const double step = 0.01;
  for (int k = 0; k < 1440; ++k) {
    const double a = 2.0 * kPi * k / 1440.0;
    const D2 e{std::cos(a), std::sin(a)};
    double lo = 0.0;
    for (double s = step; s < 30.0 && s < best + step; s += step) {
      if (collidesWithin(p, w + s * e, r, tau) != inside) {
        double hi = s;
        for (int it = 0; it < 60; ++it) {
          const double mid = 0.5 * (lo + hi);
          (collidesWithin(p, w + mid * e, r, tau) != inside ? hi : lo) = mid;
        }
        best = std::fmin(best, hi);
        break;
      }
      lo = s;
    }
  }
  return best;
}

/// One agent pair, with everything needed to build both agents' lines.
struct Pair {
  Vec2 posA;
  Vec2 velA;
  float radiusA;
  Vec2 posB;
  Vec2 velB;
  float radiusB;
  float tau;
  float timeStep;

  OrcaLine lineA(AgentOrcaCase* kind = nullptr) const {
    return crowd::agentOrcaLine(posA, velA, radiusA, posB, velB, radiusB, 1.0f / tau, 1.0f / timeStep,
                                crowd::coincidentSeparationHint(0, 1), kind);
  }
  OrcaLine lineB(AgentOrcaCase* kind = nullptr) const {
    return crowd::agentOrcaLine(posB, velB, radiusB, posA, velA, radiusA, 1.0f / tau, 1.0f / timeStep,
                                crowd::coincidentSeparationHint(1, 0), kind);
  }
  D2 relPos() const { return toD(posB) - toD(posA); }
  D2 relVel() const { return toD(velA) - toD(velB); }
  double r() const { return static_cast<double>(radiusA) + static_cast<double>(radiusB); }
};

/// A pair whose relative position is `relPos` and relative velocity `relVel`, rotated by
/// `angle` and placed away from the origin with a moving neighbour, so that nothing depends on
/// the frame.
Pair makePair(D2 relPos, D2 relVel, float radiusA, float radiusB, float tau, float angle) {
  const double c = std::cos(angle);
  const double s = std::sin(angle);
  auto rot = [&](D2 v) {
    return Vec2(static_cast<float>(c * v.x - s * v.y), static_cast<float>(s * v.x + c * v.y));
  };
  const Vec2 posA(1.25f, -2.5f);
  const Vec2 velB(-0.75f, 0.5f);
  return Pair{posA, rot(relVel) + velB, radiusA, posA + rot(relPos), velB, radiusB, tau, 0.1f};
}

/// Checks the facts every non-colliding ORCA line must satisfy, and returns the case reported.
AgentOrcaCase expectNoCollisionLineGeometry(const Pair& pair) {
  AgentOrcaCase kind = AgentOrcaCase::Colliding;
  const OrcaLine line = pair.lineA(&kind);
  const D2 p = pair.relPos();
  const D2 w = pair.relVel();
  const double r = pair.r();
  const double tau = pair.tau;
  EXPECT_NE(kind, AgentOrcaCase::Colliding);
  EXPECT_NEAR(lenD(toD(line.direction)), 1.0, 1e-6);

  // u is twice the step from the velocity to the line's point; w + u must lie on VO's boundary.
  const D2 u = 2.0 * (toD(line.point) - toD(pair.velA));
  const D2 q = w + u;
  if (kind == AgentOrcaCase::CutoffCircle) {
    EXPECT_NEAR(lenD(q - (1.0 / tau) * p), r / tau, 1e-5);
    // On the front arc, between the points where the legs touch the circle: there the outward
    // normal is within acos(r/|p|) of -p (the rest of the circle is inside VO).
    EXPECT_LE(dotD(q - (1.0 / tau) * p, p) / lenD(p), -(r / tau) * (r / lenD(p)) + 1e-5);
  } else {
    // On a leg: a ray from the origin tangent to the disc of radius r at p, beyond the point
    // where it touches the cut-off circle, and on the side of p the case names.
    EXPECT_NEAR(std::fabs(detD(q, p)) / lenD(q), r, 1e-5);
    EXPECT_GT(dotD(q, p), 0.0);
    EXPECT_GE(lenD(q), std::sqrt(dotD(p, p) - r * r) / tau - 1e-5);
    EXPECT_EQ(kind == AgentOrcaCase::LeftLeg, detD(p, q) > 0.0);
  }

  // Rounding moves the line's point by ~1e-6, so the tests that depend on u's direction only
  // apply when u is long enough for that direction to be meaningful.
  const bool collides = collidesWithin(p, w, r, tau);
  const double uLength = lenD(u);
  if (uLength > 1e-2) {
    // The line is perpendicular to u, and its permitted side faces away from VO: the way u
    // points when w is inside VO, the opposite way when outside.
    EXPECT_NEAR(dotD(toD(line.direction), u), 0.0, 1e-5);
    const D2 outward = (collides ? 1.0 : -1.0) / uLength * u;
    EXPECT_NEAR(detD(toD(line.direction), outward), 1.0, 1e-5);
  }
  if (uLength > 1e-4) {
    // The current velocity is forbidden exactly when it leads to a collision within tau.
    EXPECT_EQ(violation(line, toD(pair.velA)) > 0.0, collides);
  }
  return kind;
}

// --- The four cases, each with and without a collision within the horizon ----------------------

// Relative position (10, 0), combined radius 2, tau 2: the cut-off circle has centre (5, 0) and
// radius 1, the legs leave the origin at +-asin(0.2) from the x axis.
constexpr float kRadiusA = 1.25f;
constexpr float kRadiusB = 0.75f;
constexpr float kTau = 2.0f;
const D2 kRelPos{10.0, 0.0};

TEST(KernelAgentOrca, CutoffCircleWithoutCollision) {
  for (const float angle : {0.0f, 0.7f, -2.4f}) {
    // Closing at 3.5 covers the gap of 8 in 2.29 s, after the horizon.
    const Pair pair = makePair(kRelPos, D2{3.5, 0.0}, kRadiusA, kRadiusB, kTau, angle);
    ASSERT_FALSE(collidesWithin(pair.relPos(), pair.relVel(), pair.r(), kTau));
    EXPECT_EQ(expectNoCollisionLineGeometry(pair), AgentOrcaCase::CutoffCircle);
    EXPECT_LE(violation(pair.lineA(), toD(pair.velA)), 0.0);
  }
}

TEST(KernelAgentOrca, CutoffCircleWithCollision) {
  for (const float angle : {0.0f, 0.7f, -2.4f}) {
    // Closing at 4.5 covers the gap in 1.78 s, within the horizon.
    const Pair pair = makePair(kRelPos, D2{4.5, 0.0}, kRadiusA, kRadiusB, kTau, angle);
    ASSERT_TRUE(collidesWithin(pair.relPos(), pair.relVel(), pair.r(), kTau));
    EXPECT_EQ(expectNoCollisionLineGeometry(pair), AgentOrcaCase::CutoffCircle);
    EXPECT_GT(violation(pair.lineA(), toD(pair.velA)), 0.0);
    // Head-on, u is along the centre line: half of (r/tau - |w - p/tau|) = 0.5 * 0.5 each.
    EXPECT_NEAR(lenD(toD(pair.lineA().point) - toD(pair.velA)), 0.25, 1e-5);
  }
}

TEST(KernelAgentOrca, LeftLegWithoutCollision) {
  for (const float angle : {0.0f, 0.7f, -2.4f}) {
    // Passes p at distance 30/sqrt(45) = 4.47 > 2.
    const Pair pair = makePair(kRelPos, D2{6.0, 3.0}, kRadiusA, kRadiusB, kTau, angle);
    ASSERT_FALSE(collidesWithin(pair.relPos(), pair.relVel(), pair.r(), kTau));
    EXPECT_EQ(expectNoCollisionLineGeometry(pair), AgentOrcaCase::LeftLeg);
  }
}

TEST(KernelAgentOrca, LeftLegWithCollision) {
  for (const float angle : {0.0f, 0.7f, -2.4f}) {
    // Passes p at distance 10/sqrt(37) = 1.64 < 2, at t = 60/37 = 1.62 < tau.
    const Pair pair = makePair(kRelPos, D2{6.0, 1.0}, kRadiusA, kRadiusB, kTau, angle);
    ASSERT_TRUE(collidesWithin(pair.relPos(), pair.relVel(), pair.r(), kTau));
    EXPECT_EQ(expectNoCollisionLineGeometry(pair), AgentOrcaCase::LeftLeg);
  }
}

TEST(KernelAgentOrca, RightLegWithoutCollision) {
  for (const float angle : {0.0f, 0.7f, -2.4f}) {
    const Pair pair = makePair(kRelPos, D2{6.0, -3.0}, kRadiusA, kRadiusB, kTau, angle);
    ASSERT_FALSE(collidesWithin(pair.relPos(), pair.relVel(), pair.r(), kTau));
    EXPECT_EQ(expectNoCollisionLineGeometry(pair), AgentOrcaCase::RightLeg);
  }
}

TEST(KernelAgentOrca, RightLegWithCollision) {
  for (const float angle : {0.0f, 0.7f, -2.4f}) {
    const Pair pair = makePair(kRelPos, D2{6.0, -1.0}, kRadiusA, kRadiusB, kTau, angle);
    ASSERT_TRUE(collidesWithin(pair.relPos(), pair.relVel(), pair.r(), kTau));
    EXPECT_EQ(expectNoCollisionLineGeometry(pair), AgentOrcaCase::RightLeg);
  }
}

TEST(KernelAgentOrca, CutoffCircleWhenMovingAway) {
  // Moving apart: the nearest boundary point is on the front of the cut-off circle, and the
  // velocity is permitted.
  const Pair pair = makePair(kRelPos, D2{-1.0, 0.5}, kRadiusA, kRadiusB, kTau, 0.3f);
  EXPECT_EQ(expectNoCollisionLineGeometry(pair), AgentOrcaCase::CutoffCircle);
  EXPECT_LT(violation(pair.lineA(), toD(pair.velA)), 0.0);
}

TEST(KernelAgentOrca, LegCaseWhenPassingSideways) {
  // Sideways motion steep enough that w leaves the cut-off circle's wedge (half-angle
  // acos(r/|p|) = 78.5 degrees about -p): the nearest boundary point is on the left leg.
  const Pair pair = makePair(kRelPos, D2{-1.0, 30.0}, kRadiusA, kRadiusB, kTau, 0.3f);
  EXPECT_EQ(expectNoCollisionLineGeometry(pair), AgentOrcaCase::LeftLeg);
  EXPECT_LT(violation(pair.lineA(), toD(pair.velA)), 0.0);
}

TEST(KernelAgentOrca, UIsTheSmallestChangeToTheBoundary) {
  // |u| must equal the brute-force distance from the relative velocity to VO's boundary.
  const D2 velocities[] = {{3.5, 0.0}, {4.5, 0.0},  {6.0, 3.0},  {6.0, 1.0}, {6.0, -1.0},
                           {2.0, 4.0}, {-1.0, 0.5}, {5.0, -0.3}, {12.0, 0.0}};
  for (const D2 rel : velocities) {
    const Pair pair = makePair(kRelPos, rel, kRadiusA, kRadiusB, kTau, 0.4f);
    const OrcaLine line = pair.lineA();
    const double uLength = 2.0 * lenD(toD(line.point) - toD(pair.velA));
    const double brute = bruteDistanceToBoundary(pair.relPos(), pair.relVel(), pair.r(), kTau);
    EXPECT_NEAR(uLength, brute, 1e-4) << "relative velocity (" << rel.x << ", " << rel.y << ")";
  }
}

TEST(KernelAgentOrca, RandomPairsSatisfyTheGeometry) {
  std::mt19937 rng(2024);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  int seen[4] = {0, 0, 0, 0};
  int collisions = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const float radiusA = 0.2f + unit(rng);
    const float radiusB = 0.2f + unit(rng);
    const float tau = 0.5f + 5.0f * unit(rng);
    const double r = static_cast<double>(radiusA) + static_cast<double>(radiusB);
    const double distance = r * 1.05 + 8.0 * static_cast<double>(unit(rng));
    const double angle = 2.0 * kPi * unit(rng);
    const D2 relPos{distance * std::cos(angle), distance * std::sin(angle)};
    const D2 relVel{6.0 * unit(rng) - 3.0, 6.0 * unit(rng) - 3.0};
    const Pair pair = makePair(relPos, relVel, radiusA, radiusB, tau, 0.0f);
    if (pair.r() * pair.r() >= dotD(pair.relPos(), pair.relPos())) continue;
    SCOPED_TRACE(testing::Message() << "trial " << trial);
    const AgentOrcaCase kind = expectNoCollisionLineGeometry(pair);
    ++seen[static_cast<int>(kind)];
    if (collidesWithin(pair.relPos(), pair.relVel(), pair.r(), tau)) ++collisions;
  }
  // The sample must exercise every non-colliding case, with and without collisions.
  EXPECT_GT(seen[static_cast<int>(AgentOrcaCase::CutoffCircle)], 20);
  EXPECT_GT(seen[static_cast<int>(AgentOrcaCase::LeftLeg)], 20);
  EXPECT_GT(seen[static_cast<int>(AgentOrcaCase::RightLeg)], 20);
  EXPECT_GT(collisions, 20);
  EXPECT_LT(collisions, 380);
}

// --- Already overlapping -----------------------------------------------------------------------

TEST(KernelAgentOrca, CollidingPairMustSeparateWithinOneStep) {
  // Overlapping (distance 1.5 < 2): the obstacle is the disc of radius r/dt at p/dt.
  for (const float angle : {0.0f, 1.1f}) {
    const Pair pair = makePair(D2{1.5, 0.0}, D2{0.5, 0.2}, kRadiusA, kRadiusB, kTau, angle);
    AgentOrcaCase kind = AgentOrcaCase::CutoffCircle;
    const OrcaLine line = pair.lineA(&kind);
    EXPECT_EQ(kind, AgentOrcaCase::Colliding);
    EXPECT_NEAR(lenD(toD(line.direction)), 1.0, 1e-6);
    const double invDt = 1.0 / static_cast<double>(pair.timeStep);
    const D2 u = 2.0 * (toD(line.point) - toD(pair.velA));
    const D2 centre = invDt * pair.relPos();
    // w + u lands on that disc's boundary, moving radially (u parallel to w - centre).
    EXPECT_NEAR(lenD(pair.relVel() + u - centre), pair.r() * invDt, 1e-4);
    EXPECT_NEAR(detD(u, pair.relVel() - centre), 0.0, 1e-3);
    EXPECT_NEAR(dotD(toD(line.direction), u), 0.0, 1e-4);
    // This velocity keeps them overlapping after one step, so it is forbidden.
    EXPECT_GT(violation(line, toD(pair.velA)), 0.0);
  }
}

TEST(KernelAgentOrca, CollidingPairAlreadySeparatingFastEnoughKeepsItsVelocity) {
  // Relative velocity -30 along p: after 0.1 s they are 1.5 + 3 apart > 2, so it is permitted.
  const Pair pair = makePair(D2{1.5, 0.0}, D2{-30.0, 0.0}, kRadiusA, kRadiusB, kTau, 0.5f);
  AgentOrcaCase kind = AgentOrcaCase::CutoffCircle;
  const OrcaLine line = pair.lineA(&kind);
  EXPECT_EQ(kind, AgentOrcaCase::Colliding);
  EXPECT_LT(violation(line, toD(pair.velA)), 0.0);
  const double invDt = 1.0 / static_cast<double>(pair.timeStep);
  const D2 u = 2.0 * (toD(line.point) - toD(pair.velA));
  EXPECT_NEAR(lenD(pair.relVel() + u - invDt * pair.relPos()), pair.r() * invDt, 1e-4);
}

// --- Reciprocity ---------------------------------------------------------------------------------

/// The two agents of a pair get mirror-image lines: each takes the opposite half of u.
void expectMirrorImages(const Pair& pair) {
  AgentOrcaCase kindA = AgentOrcaCase::Colliding;
  AgentOrcaCase kindB = AgentOrcaCase::Colliding;
  const OrcaLine a = pair.lineA(&kindA);
  const OrcaLine b = pair.lineB(&kindB);
  const D2 halfUA = toD(a.point) - toD(pair.velA);
  const D2 halfUB = toD(b.point) - toD(pair.velB);
  const double scale = 1e-6 * (1.0 + lenD(halfUA));
  EXPECT_NEAR(halfUA.x, -halfUB.x, scale);
  EXPECT_NEAR(halfUA.y, -halfUB.y, scale);
  EXPECT_NEAR(a.direction.x, -b.direction.x, 1e-6f);
  EXPECT_NEAR(a.direction.y, -b.direction.y, 1e-6f);
  // Mirrored left and right legs are still the same side relative to each one's neighbour.
  EXPECT_EQ(kindA, kindB);
}

TEST(KernelAgentOrca, LinesOfAPairAreMirrorImages) {
  const D2 velocities[] = {{3.5, 0.0}, {4.5, 0.0}, {6.0, 3.0}, {6.0, -1.0}, {-1.0, 0.5}};
  for (const D2 rel : velocities) {
    SCOPED_TRACE(testing::Message() << "relative velocity (" << rel.x << ", " << rel.y << ")");
    expectMirrorImages(makePair(kRelPos, rel, kRadiusA, kRadiusB, kTau, 0.9f));
  }
  SCOPED_TRACE("overlapping");
  expectMirrorImages(makePair(D2{1.5, 0.0}, D2{0.5, 0.2}, kRadiusA, kRadiusB, kTau, 0.9f));
}

TEST(KernelAgentOrca, RandomPairsAreMirrorImages) {
  std::mt19937 rng(77);
  std::uniform_real_distribution<float> coord(-5.0f, 5.0f);
  for (int trial = 0; trial < 300; ++trial) {
    const Pair pair{Vec2(coord(rng), coord(rng)),
                    Vec2(coord(rng), coord(rng)),
                    0.5f,
                    Vec2(coord(rng), coord(rng)),
                    Vec2(coord(rng), coord(rng)),
                    0.7f,
                    3.0f,
                    0.25f};
    SCOPED_TRACE(testing::Message() << "trial " << trial);
    expectMirrorImages(pair);
  }
}

// --- Coincident agents ---------------------------------------------------------------------------

TEST(KernelAgentOrca, SeparationHintsAreOppositeUnitVectors) {
  for (const unsigned a : {0u, 1u, 7u, 1000u}) {
    for (const unsigned b : {0u, 2u, 8u, 999u}) {
      if (a == b) continue;
      const Vec2 ha = crowd::coincidentSeparationHint(a, b);
      const Vec2 hb = crowd::coincidentSeparationHint(b, a);
      EXPECT_FLOAT_EQ(crowd::length(ha), 1.0f);
      EXPECT_EQ(ha.x, -hb.x);
      EXPECT_EQ(ha.y, -hb.y);
    }
  }
}

TEST(KernelAgentOrca, CoincidentAgentsWithEqualVelocitiesGetFiniteOppositeLines) {
  const Vec2 pos(3.0f, -4.0f);
  const Vec2 vel(0.5f, 0.25f);
  const float radius = 0.5f;
  const float invTimeStep = 4.0f;
  const Vec2 hintA = crowd::coincidentSeparationHint(3, 9);
  const Vec2 hintB = crowd::coincidentSeparationHint(9, 3);
  AgentOrcaCase kindA = AgentOrcaCase::CutoffCircle;
  AgentOrcaCase kindB = AgentOrcaCase::CutoffCircle;
  const OrcaLine a =
      crowd::agentOrcaLine(pos, vel, radius, pos, vel, radius, 0.5f, invTimeStep, hintA, &kindA);
  const OrcaLine b =
      crowd::agentOrcaLine(pos, vel, radius, pos, vel, radius, 0.5f, invTimeStep, hintB, &kindB);
  EXPECT_EQ(kindA, AgentOrcaCase::Colliding);
  EXPECT_EQ(kindB, AgentOrcaCase::Colliding);
  for (const OrcaLine& line : {a, b}) {
    ASSERT_TRUE(std::isfinite(line.point.x) && std::isfinite(line.point.y));
    ASSERT_TRUE(std::isfinite(line.direction.x) && std::isfinite(line.direction.y));
    EXPECT_NEAR(crowd::length(line.direction), 1.0f, 1e-6f);
    // Standing still relative to each other keeps them overlapping: forbidden.
    EXPECT_GT(violation(line, toD(vel)), 0.0);
  }
  EXPECT_EQ(a.direction.x, -b.direction.x);
  EXPECT_EQ(a.direction.y, -b.direction.y);
  const D2 halfUA = toD(a.point) - toD(vel);
  const D2 halfUB = toD(b.point) - toD(vel);
  EXPECT_NEAR(halfUA.x, -halfUB.x, 1e-6);
  EXPECT_NEAR(halfUA.y, -halfUB.y, 1e-6);
  // Each takes half of the change that separates them in one step, r/dt, along its own hint.
  const double half = 0.5 * 2.0 * radius * invTimeStep;
  EXPECT_NEAR(halfUA.x, half * hintA.x, 1e-5);
  EXPECT_NEAR(halfUA.y, half * hintA.y, 1e-5);
  // Moving apart along the hints at that speed is permitted for both.
  EXPECT_LE(violation(a, toD(vel) + halfUA), 1e-6);
  EXPECT_LE(violation(b, toD(vel) + halfUB), 1e-6);
}

TEST(KernelAgentOrca, CoincidentAgentsWithDifferentVelocitiesIgnoreTheHint) {
  const Vec2 pos(1.0f, 1.0f);
  const OrcaLine a = crowd::agentOrcaLine(pos, Vec2(1.0f, 0.0f), 0.5f, pos, Vec2(0.0f, 1.0f), 0.5f, 0.5f,
                                          4.0f, Vec2(-1.0f, 0.0f));
  const OrcaLine b = crowd::agentOrcaLine(pos, Vec2(1.0f, 0.0f), 0.5f, pos, Vec2(0.0f, 1.0f), 0.5f, 0.5f,
                                          4.0f, Vec2(0.0f, 1.0f));
  EXPECT_EQ(a.point.x, b.point.x);
  EXPECT_EQ(a.point.y, b.point.y);
  EXPECT_EQ(a.direction.x, b.direction.x);
  EXPECT_EQ(a.direction.y, b.direction.y);
  // The relative velocity (1, -1) is already the way out: u points along it.
  const D2 halfU = toD(a.point) - D2{1.0, 0.0};
  EXPECT_NEAR(detD(halfU, D2{1.0, -1.0}), 0.0, 1e-5);
  EXPECT_GT(dotD(halfU, D2{1.0, -1.0}), 0.0);
}

}  // namespace
