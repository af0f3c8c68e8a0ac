// Unit tests for crowd/kernels/linear_program.hpp (RVO2's lp1/lp2/lp3).
//
// Expected results come from the geometry of each program, and for anything non-trivial from
// an independent brute-force optimiser in double precision: the best feasible point among a fine
// polar grid of velocities, every crossing of two constraint boundaries (or of one with the
// circle), and local grids refined around the best of those. The programs are convex, so that
// finds the optimum to far better than the 1e-4 the tests allow.
//
// Convention checked throughout: a line's permitted side is its left, i.e. a velocity v
// violates the line by det(direction, point - v) (the signed distance, the direction being unit);
// that is the test lp2 itself uses to decide that a line is violated.
#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "crowd/kernels/linear_program.hpp"

namespace {

using crowd::OrcaLine;
using crowd::Vec2;

constexpr double kPi = 3.14159265358979323846;

OrcaLine makeLine(Vec2 point, Vec2 direction) {
  return OrcaLine{point, crowd::normalize(direction)};
}

/// Signed distance by which `v` violates `line` (> 0: on the forbidden right side), in double.
double violation(const OrcaLine& line, double vx, double vy) {
  const double dx = static_cast<double>(line.point.x) - vx;
  const double dy = static_cast<double>(line.point.y) - vy;
  return static_cast<double>(line.direction.x) * dy - static_cast<double>(line.direction.y) * dx;
}

double violation(const OrcaLine& line, Vec2 v) {
  return violation(line, static_cast<double>(v.x), static_cast<double>(v.y));
}

/// Largest violation of lines [begin, end) at (vx, vy).
double maxViolation(const std::vector<OrcaLine>& lines, int begin, int end, double vx, double vy) {
  double worst = -INFINITY;
  for (int i = begin; i < end; ++i) worst = std::max(worst, violation(lines[i], vx, vy));
  return worst;
}

struct BruteResult {
  double value;
  double x;
  double y;
};

/// A line a*x + b*y = c in double precision, for building candidate optima.
struct Boundary {
  double a;
  double b;
  double c;
};

/// The boundary of an ORCA line: violation(line, v) = a*v.x + b*v.y - c.
Boundary boundaryOf(const OrcaLine& line) {
  const double dx = line.direction.x;
  const double dy = line.direction.y;
  return Boundary{dy, -dx, dy * line.point.x - dx * line.point.y};
}

/// The points where two boundaries cross, and where each crosses the circle of `radius`. The
/// optimum of a 2D program whose active constraints are among these boundaries and the circle
/// lies at one of them (or at a point the caller adds, where fewer constraints are active).
std::vector<BruteResult> vertexCandidates(const std::vector<Boundary>& boundaries, double radius) {
  std::vector<BruteResult> points;
  for (size_t i = 0; i < boundaries.size(); ++i) {
    const Boundary& p = boundaries[i];
    for (size_t j = 0; j < i; ++j) {
      const Boundary& q = boundaries[j];
      const double d = p.a * q.b - p.b * q.a;
      if (std::fabs(d) < 1e-12) continue;
      points.push_back(BruteResult{0.0, (p.c * q.b - p.b * q.c) / d, (p.a * q.c - p.c * q.a) / d});
    }
    const double normSq = p.a * p.a + p.b * p.b;
    if (normSq < 1e-24) continue;
    const double footX = p.c * p.a / normSq;  // The boundary's point closest to the origin.
    const double footY = p.c * p.b / normSq;
    const double rest = radius * radius - (footX * footX + footY * footY);
    if (rest < 0.0) continue;
    const double s = std::sqrt(rest / normSq);
    points.push_back(BruteResult{0.0, footX - s * p.b, footY + s * p.a});
    points.push_back(BruteResult{0.0, footX + s * p.b, footY - s * p.a});
  }
  return points;
}

/// Minimises a convex `objective` over the convex set {|v| <= radius, feasible(v)} by brute
/// force: a fine polar grid, the given candidate points, then 21x21 grids around the best point
/// so far, shrinking only when they find nothing better.
BruteResult bruteMinimize(const std::function<double(double, double)>& objective,
                          const std::function<bool(double, double)>& feasible, double radius,
                          const std::vector<BruteResult>& candidates) {
  BruteResult best{INFINITY, 0.0, 0.0};
  // Candidates are exact only up to rounding: allow them a hair outside the constraints.
  const double slack = 1e-12;
  auto consider = [&](double x, double y) {
    if (std::sqrt(x * x + y * y) > radius + slack || !feasible(x, y)) return false;
    const double value = objective(x, y);
    if (!(value < best.value)) return false;
    best = BruteResult{value, x, y};
    return true;
  };
  const int radii = 200;
  const int angles = 720;
  consider(0.0, 0.0);
  for (int i = 1; i <= radii; ++i) {
    const double r = radius * i / radii;
    for (int j = 0; j < angles; ++j) {
      const double a = 2.0 * kPi * j / angles;
      consider(r * std::cos(a), r * std::sin(a));
    }
  }
  for (const BruteResult& c : candidates) consider(c.x, c.y);
  double half = 4.0 * radius * 2.0 * kPi / angles;
  for (int round = 0; round < 200 && half > 1e-9; ++round) {
    const double cx = best.x;
    const double cy = best.y;
    bool improved = false;
    for (int i = -10; i <= 10; ++i) {
      for (int j = -10; j <= 10; ++j) {
        improved = consider(cx + half * i / 10.0, cy + half * j / 10.0) || improved;
      }
    }
    if (!improved) half *= 0.5;
  }
  return best;
}

/// Hard constraints for the brute-force search: lines [0, count) must not be violated.
std::function<bool(double, double)> satisfiesLines(const std::vector<OrcaLine>& lines, int count) {
  return [&lines, count](double x, double y) {
    return count == 0 || maxViolation(lines, 0, count, x, y) <= 1e-12;
  };
}

/// The velocity closest to `pref` that satisfies every line, inside the disc of `radius`.
BruteResult bruteClosest(const std::vector<OrcaLine>& lines, double radius, Vec2 pref) {
  std::vector<Boundary> boundaries;
  for (const OrcaLine& line : lines) boundaries.push_back(boundaryOf(line));
  std::vector<BruteResult> candidates = vertexCandidates(boundaries, radius);
  // One active constraint: the preferred velocity projected on a line, or on the circle.
  const double px = pref.x;
  const double py = pref.y;
  const double prefLength = std::hypot(px, py);
  candidates.push_back(BruteResult{0.0, px, py});
  if (prefLength > 0.0) {
    candidates.push_back(BruteResult{0.0, px * radius / prefLength, py * radius / prefLength});
  }
  for (const Boundary& b : boundaries) {
    const double excess = (b.a * px + b.b * py - b.c) / (b.a * b.a + b.b * b.b);
    candidates.push_back(BruteResult{0.0, px - excess * b.a, py - excess * b.b});
  }
  return bruteMinimize([&](double x, double y) { return std::hypot(x - px, y - py); },
                       satisfiesLines(lines, static_cast<int>(lines.size())), radius, candidates);
}

/// The velocity furthest along the unit `direction` that satisfies every line.
BruteResult bruteFurthest(const std::vector<OrcaLine>& lines, double radius, Vec2 direction) {
  std::vector<Boundary> boundaries;
  for (const OrcaLine& line : lines) boundaries.push_back(boundaryOf(line));
  std::vector<BruteResult> candidates = vertexCandidates(boundaries, radius);
  candidates.push_back(BruteResult{0.0, radius * direction.x, radius * direction.y});
  const double dx = direction.x;
  const double dy = direction.y;
  return bruteMinimize([&](double x, double y) { return -(x * dx + y * dy); },
                       satisfiesLines(lines, static_cast<int>(lines.size())), radius, candidates);
}

/// The best achievable largest violation of the agent lines [obstacleCount, size), obstacle
/// lines [0, obstacleCount) being hard, inside the disc of `radius`. As a 3D program in
/// (v, z) its optimum has z equal to the violation of one, two or three agent lines, so the
/// candidates include where pairs of agent lines are violated equally.
double bruteMinMaxViolation(const std::vector<OrcaLine>& lines, int obstacleCount, double radius) {
  const int count = static_cast<int>(lines.size());
  std::vector<Boundary> boundaries;
  for (const OrcaLine& line : lines) boundaries.push_back(boundaryOf(line));
  for (int i = obstacleCount; i < count; ++i) {
    for (int j = obstacleCount; j < i; ++j) {
      const Boundary& p = boundaries[i];
      const Boundary& q = boundaries[j];
      boundaries.push_back(Boundary{p.a - q.a, p.b - q.b, p.c - q.c});
    }
  }
  std::vector<BruteResult> candidates = vertexCandidates(boundaries, radius);
  // One active agent line and the circle: the point of the circle deepest inside that line.
  for (int i = obstacleCount; i < count; ++i) {
    const Vec2 inward = crowd::perpLeft(lines[i].direction);
    candidates.push_back(BruteResult{0.0, radius * inward.x, radius * inward.y});
  }
  return bruteMinimize([&](double x, double y) { return maxViolation(lines, obstacleCount, count, x, y); },
                       satisfiesLines(lines, obstacleCount), radius, candidates)
      .value;
}

/// Random lines for property tests. `offset` gives each line's violation at the origin. Pairs of
/// nearly parallel lines are avoided: lp3 then meets far-away bisector points and float rounding
/// dominates (see NearlyParallelLinesOnlyCostRounding).
std::vector<OrcaLine> randomLines(std::mt19937& rng, int count, const std::function<float(int)>& offset) {
  std::uniform_real_distribution<float> angle(0.0f, 6.2831853f);
  std::vector<OrcaLine> lines;
  while (static_cast<int>(lines.size()) < count) {
    const float a = angle(rng);
    const Vec2 dir(std::cos(a), std::sin(a));
    bool wellConditioned = true;
    for (const OrcaLine& other : lines) {
      if (std::fabs(crowd::det(dir, other.direction)) < 0.25f) wellConditioned = false;
    }
    if (!wellConditioned) continue;
    const int index = static_cast<int>(lines.size());
    lines.push_back(OrcaLine{offset(index) * crowd::perpLeft(dir), dir});
  }
  return lines;
}

// --- lp1: solveOnLine -------------------------------------------------------------------------

TEST(KernelLpOnLine, ProjectsTheOptimumOntoTheLine) {
  // y >= 1: the left of a line heading +x through (0, 1).
  const OrcaLine lines[] = {makeLine(Vec2(0.0f, 1.0f), Vec2(1.0f, 0.0f))};
  Vec2 result(99.0f, 99.0f);
  ASSERT_TRUE(crowd::solveOnLine(lines, 0, 2.0f, Vec2(0.5f, -0.7f), false, result));
  EXPECT_FLOAT_EQ(result.x, 0.5f);
  EXPECT_FLOAT_EQ(result.y, 1.0f);
}

TEST(KernelLpOnLine, ClampsToTheMaxSpeedCircle) {
  const OrcaLine lines[] = {makeLine(Vec2(0.0f, 1.0f), Vec2(1.0f, 0.0f))};
  Vec2 result;
  ASSERT_TRUE(crowd::solveOnLine(lines, 0, 2.0f, Vec2(5.0f, 0.0f), false, result));
  // The chord y = 1 of the circle of radius 2 ends at x = sqrt(3).
  EXPECT_NEAR(result.x, std::sqrt(3.0f), 1e-6f);
  EXPECT_NEAR(result.y, 1.0f, 1e-6f);
  ASSERT_TRUE(crowd::solveOnLine(lines, 0, 2.0f, Vec2(-5.0f, 0.0f), false, result));
  EXPECT_NEAR(result.x, -std::sqrt(3.0f), 1e-6f);
  EXPECT_NEAR(result.y, 1.0f, 1e-6f);
}

TEST(KernelLpOnLine, FailsForALineOutsideTheCircle) {
  const OrcaLine lines[] = {makeLine(Vec2(0.0f, 3.0f), Vec2(1.0f, 0.0f))};
  Vec2 result(7.0f, 7.0f);
  EXPECT_FALSE(crowd::solveOnLine(lines, 0, 2.0f, Vec2(0.0f, 0.0f), false, result));
  // Same line, from a point that is not the closest to the origin.
  const OrcaLine shifted[] = {makeLine(Vec2(-40.0f, 3.0f), Vec2(1.0f, 0.0f))};
  EXPECT_FALSE(crowd::solveOnLine(shifted, 0, 2.0f, Vec2(0.0f, 0.0f), false, result));
}

TEST(KernelLpOnLine, TangentLineHasExactlyOnePoint) {
  const OrcaLine lines[] = {makeLine(Vec2(0.0f, 2.0f), Vec2(1.0f, 0.0f))};
  Vec2 result;
  ASSERT_TRUE(crowd::solveOnLine(lines, 0, 2.0f, Vec2(1.0f, 0.0f), false, result));
  EXPECT_NEAR(result.x, 0.0f, 1e-6f);
  EXPECT_NEAR(result.y, 2.0f, 1e-6f);
}

TEST(KernelLpOnLine, FailsForParallelOpposingLines) {
  // Line 0 permits y <= 0 (heading -x); line 1 is y = 1, heading +x: entirely forbidden.
  const OrcaLine lines[] = {makeLine(Vec2(0.0f, 0.0f), Vec2(-1.0f, 0.0f)),
                            makeLine(Vec2(0.0f, 1.0f), Vec2(1.0f, 0.0f))};
  Vec2 result;
  EXPECT_FALSE(crowd::solveOnLine(lines, 1, 5.0f, Vec2(0.0f, 0.0f), false, result));
}

TEST(KernelLpOnLine, ParallelLineThatPermitsItConstrainsNothing) {
  // Line 0 permits y <= 2; line 1 (y = 1) lies inside it, in either direction.
  for (const float dirX : {1.0f, -1.0f}) {
    const OrcaLine lines[] = {makeLine(Vec2(0.0f, 2.0f), Vec2(-1.0f, 0.0f)),
                              makeLine(Vec2(0.0f, 1.0f), Vec2(dirX, 0.0f))};
    Vec2 result;
    ASSERT_TRUE(crowd::solveOnLine(lines, 1, 5.0f, Vec2(0.25f, -3.0f), false, result));
    EXPECT_FLOAT_EQ(result.x, 0.25f);
    EXPECT_FLOAT_EQ(result.y, 1.0f);
  }
}

TEST(KernelLpOnLine, EarlierLinesBoundTheSegment) {
  // Line 0 permits x <= 0 (heading +y); line 1 is y = 1 heading +x.
  const OrcaLine lines[] = {makeLine(Vec2(0.0f, 0.0f), Vec2(0.0f, 1.0f)),
                            makeLine(Vec2(0.0f, 1.0f), Vec2(1.0f, 0.0f))};
  Vec2 result;
  ASSERT_TRUE(crowd::solveOnLine(lines, 1, 2.0f, Vec2(1.5f, 0.0f), false, result));
  EXPECT_NEAR(result.x, 0.0f, 1e-6f);
  EXPECT_NEAR(result.y, 1.0f, 1e-6f);
  // An optimum on the permitted part is not moved along the line.
  ASSERT_TRUE(crowd::solveOnLine(lines, 1, 2.0f, Vec2(-0.5f, 0.0f), false, result));
  EXPECT_NEAR(result.x, -0.5f, 1e-6f);
  EXPECT_NEAR(result.y, 1.0f, 1e-6f);
}

TEST(KernelLpOnLine, FailsWhenEarlierLinesExcludeTheChord) {
  // Line 0 permits x <= -3, which misses the chord y = 1 of the radius-2 circle.
  const OrcaLine lines[] = {makeLine(Vec2(-3.0f, 0.0f), Vec2(0.0f, 1.0f)),
                            makeLine(Vec2(0.0f, 1.0f), Vec2(1.0f, 0.0f))};
  Vec2 result;
  EXPECT_FALSE(crowd::solveOnLine(lines, 1, 2.0f, Vec2(0.0f, 0.0f), false, result));
}

TEST(KernelLpOnLine, DirectionModeTakesTheFarEndOfTheSegment) {
  const OrcaLine lines[] = {makeLine(Vec2(0.0f, 1.0f), Vec2(1.0f, 0.0f))};
  Vec2 result;
  ASSERT_TRUE(crowd::solveOnLine(lines, 0, 2.0f, Vec2(0.6f, 0.8f), true, result));
  EXPECT_NEAR(result.x, std::sqrt(3.0f), 1e-6f);
  EXPECT_NEAR(result.y, 1.0f, 1e-6f);
  ASSERT_TRUE(crowd::solveOnLine(lines, 0, 2.0f, Vec2(-0.6f, 0.8f), true, result));
  EXPECT_NEAR(result.x, -std::sqrt(3.0f), 1e-6f);
  EXPECT_NEAR(result.y, 1.0f, 1e-6f);
}

// --- lp2: solveIncremental --------------------------------------------------------------------

TEST(KernelLpIncremental, NoLinesKeepsAPreferredVelocityInsideTheCircle) {
  Vec2 result;
  EXPECT_EQ(crowd::solveIncremental(nullptr, 0, 2.0f, Vec2(0.3f, -1.1f), false, result), 0);
  EXPECT_EQ(result.x, 0.3f);
  EXPECT_EQ(result.y, -1.1f);
}

TEST(KernelLpIncremental, PreferredVelocityIsClippedToTheCircle) {
  Vec2 result;
  EXPECT_EQ(crowd::solveIncremental(nullptr, 0, 2.0f, Vec2(6.0f, -8.0f), false, result), 0);
  EXPECT_NEAR(result.x, 1.2f, 1e-6f);
  EXPECT_NEAR(result.y, -1.6f, 1e-6f);
}

TEST(KernelLpIncremental, PreferredVelocitySatisfyingEveryLineIsReturnedExactly) {
  const std::vector<OrcaLine> lines = {
      makeLine(Vec2(1.0f, 0.0f), Vec2(0.0f, 1.0f)),     // x <= 1
      makeLine(Vec2(0.0f, 1.0f), Vec2(-1.0f, 0.0f)),    // y <= 1
      makeLine(Vec2(-1.0f, -1.0f), Vec2(1.0f, -1.0f)),  // x + y >= -2
  };
  const Vec2 pref(0.25f, -0.75f);
  Vec2 result;
  EXPECT_EQ(crowd::solveIncremental(lines.data(), 3, 2.0f, pref, false, result), 3);
  EXPECT_EQ(result.x, pref.x);
  EXPECT_EQ(result.y, pref.y);
}

TEST(KernelLpIncremental, SingleViolatedLineGivesTheProjection) {
  // x + y <= 1, as the left of a line heading (-1, 1) through (1, 0).
  const OrcaLine line = makeLine(Vec2(1.0f, 0.0f), Vec2(-1.0f, 1.0f));
  const Vec2 pref(1.5f, 0.5f);
  ASSERT_GT(violation(line, pref), 0.0);
  Vec2 result;
  EXPECT_EQ(crowd::solveIncremental(&line, 1, 5.0f, pref, false, result), 1);
  // The projection of (1.5, 0.5) onto x + y = 1 is (1, 0).
  EXPECT_NEAR(result.x, 1.0f, 1e-6f);
  EXPECT_NEAR(result.y, 0.0f, 1e-6f);
  EXPECT_NEAR(violation(line, result), 0.0, 1e-6);
  EXPECT_NEAR(crowd::dot(pref - result, line.direction), 0.0f, 1e-6f);
}

TEST(KernelLpIncremental, TwoViolatedLinesMeetAtTheirIntersection) {
  const std::vector<OrcaLine> lines = {
      makeLine(Vec2(1.0f, 0.0f), Vec2(0.0f, 1.0f)),   // x <= 1
      makeLine(Vec2(0.0f, 1.0f), Vec2(-1.0f, 0.0f)),  // y <= 1
  };
  Vec2 result;
  EXPECT_EQ(crowd::solveIncremental(lines.data(), 2, 10.0f, Vec2(3.0f, 3.0f), false, result), 2);
  EXPECT_NEAR(result.x, 1.0f, 1e-6f);
  EXPECT_NEAR(result.y, 1.0f, 1e-6f);
}

TEST(KernelLpIncremental, LaterLineMovesAnEarlierOptimumBackOntoTheFeasibleSet) {
  // Line 1's projection of the preferred velocity violates line 0; lp1 must respect line 0.
  const std::vector<OrcaLine> lines = {
      makeLine(Vec2(0.0f, 0.0f), Vec2(1.0f, 1.0f)),   // y >= x
      makeLine(Vec2(0.0f, 0.5f), Vec2(-1.0f, 0.0f)),  // y <= 0.5
  };
  Vec2 result;
  EXPECT_EQ(crowd::solveIncremental(lines.data(), 2, 10.0f, Vec2(-1.0f, 3.0f), false, result), 2);
  EXPECT_NEAR(result.x, -1.0f, 1e-6f);
  EXPECT_NEAR(result.y, 0.5f, 1e-6f);
  EXPECT_EQ(crowd::solveIncremental(lines.data(), 2, 10.0f, Vec2(3.0f, 3.0f), false, result), 2);
  EXPECT_NEAR(result.x, 0.5f, 1e-6f);
  EXPECT_NEAR(result.y, 0.5f, 1e-6f);
}

TEST(KernelLpIncremental, DirectionModeGoesFurthestAlongTheDirection) {
  const std::vector<OrcaLine> lines = {
      makeLine(Vec2(1.0f, 0.0f), Vec2(0.0f, 1.0f)),   // x <= 1
      makeLine(Vec2(0.0f, 1.0f), Vec2(-1.0f, 0.0f)),  // y <= 1
  };
  const Vec2 dir = crowd::normalize(Vec2(1.0f, 1.0f));
  Vec2 result;
  EXPECT_EQ(crowd::solveIncremental(lines.data(), 2, 2.0f, dir, true, result), 2);
  EXPECT_NEAR(result.x, 1.0f, 1e-6f);
  EXPECT_NEAR(result.y, 1.0f, 1e-6f);

  // Without a binding line the answer is on the circle, along the direction.
  const Vec2 down(0.0f, -1.0f);
  EXPECT_EQ(crowd::solveIncremental(lines.data(), 2, 2.0f, down, true, result), 2);
  EXPECT_NEAR(result.x, 0.0f, 1e-6f);
  EXPECT_NEAR(result.y, -2.0f, 1e-6f);
}

TEST(KernelLpIncremental, DirectionModeMatchesBruteForce) {
  std::mt19937 rng(1234);
  std::uniform_real_distribution<float> offset(-1.5f, 1.5f);
  std::uniform_real_distribution<float> angle(0.0f, 6.2831853f);
  int checked = 0;
  for (int trial = 0; trial < 300 && checked < 40; ++trial) {
    const std::vector<OrcaLine> lines = randomLines(rng, 4, [&](int) { return offset(rng); });
    const float b = angle(rng);
    const Vec2 opt(std::cos(b), std::sin(b));
    Vec2 result;
    if (crowd::solveIncremental(lines.data(), 4, 2.0f, opt, true, result) < 4) continue;
    ++checked;
    const BruteResult best = bruteFurthest(lines, 2.0, opt);
    EXPECT_LE(maxViolation(lines, 0, 4, result.x, result.y), 1e-5) << "trial " << trial;
    EXPECT_LE(crowd::length(result), 2.0f + 1e-5f) << "trial " << trial;
    EXPECT_NEAR(-crowd::dot(result, opt), best.value, 1e-4) << "trial " << trial;
  }
  EXPECT_GE(checked, 20);
}

TEST(KernelLpIncremental, FeasibleProgramsMatchBruteForce) {
  // Random programs that lp2 solves: the result must be feasible and as close to the preferred
  // velocity as the best feasible point that an independent search finds.
  std::mt19937 rng(42);
  // Mostly negative violations at the origin, so that many programs are feasible.
  std::uniform_real_distribution<float> offset(-2.0f, 1.0f);
  std::uniform_real_distribution<float> coord(-3.0f, 3.0f);
  int checked = 0;
  for (int trial = 0; trial < 400 && checked < 80; ++trial) {
    const int count = 1 + trial % 6;
    const std::vector<OrcaLine> lines = randomLines(rng, count, [&](int) { return offset(rng); });
    const Vec2 pref(coord(rng), coord(rng));
    Vec2 result;
    if (crowd::solveIncremental(lines.data(), count, 2.0f, pref, false, result) < count) continue;
    ++checked;
    const BruteResult best = bruteClosest(lines, 2.0, pref);
    EXPECT_LE(maxViolation(lines, 0, count, result.x, result.y), 1e-5) << "trial " << trial;
    EXPECT_LE(crowd::length(result), 2.0f + 1e-5f) << "trial " << trial;
    EXPECT_NEAR(crowd::length(result - pref), best.value, 1e-4) << "trial " << trial;
  }
  EXPECT_GE(checked, 40);
}

// --- lp3 and the whole program ----------------------------------------------------------------

TEST(KernelLpLeastViolation, InfeasibleTriangleReportsTheFailingLine) {
  // x >= 1, y >= 1 and x + y <= 1 have no common point.
  const std::vector<OrcaLine> lines = {
      makeLine(Vec2(1.0f, 0.0f), Vec2(0.0f, -1.0f)),  // x >= 1
      makeLine(Vec2(0.0f, 1.0f), Vec2(1.0f, 0.0f)),   // y >= 1
      makeLine(Vec2(1.0f, 0.0f), Vec2(-1.0f, 1.0f)),  // x + y <= 1
  };
  Vec2 result;
  const int failed = crowd::solveIncremental(lines.data(), 3, 2.0f, Vec2(0.0f, 0.0f), false, result);
  EXPECT_EQ(failed, 2);
  // The point left behind is lp2's optimum for the lines before the failing one: (1, 1).
  EXPECT_NEAR(result.x, 1.0f, 1e-6f);
  EXPECT_NEAR(result.y, 1.0f, 1e-6f);

  const Vec2 v = crowd::solveOrcaProgram(lines.data(), 3, 0, 2.0f, Vec2(0.0f, 0.0f));
  EXPECT_LE(crowd::length(v), 2.0f + 1e-5f);
  // By symmetry the optimum is x = y with 1 - x = (2x - 1)/sqrt(2): x = 1/sqrt(2), where every
  // line is violated by 1 - 1/sqrt(2).
  const double expected = 1.0 - 1.0 / std::sqrt(2.0);
  EXPECT_NEAR(maxViolation(lines, 0, 3, v.x, v.y), expected, 1e-5);
  EXPECT_NEAR(bruteMinMaxViolation(lines, 0, 2.0), expected, 1e-5);  // The oracle agrees.
  EXPECT_NEAR(v.x, 1.0 / std::sqrt(2.0), 1e-4);
  EXPECT_NEAR(v.y, 1.0 / std::sqrt(2.0), 1e-4);
}

TEST(KernelLpLeastViolation, ParallelOpposingLinesMeetHalfWay) {
  // y >= 1 and y <= -1: the least violation is y = 0, each line missed by 1.
  const std::vector<OrcaLine> lines = {
      makeLine(Vec2(0.0f, 1.0f), Vec2(1.0f, 0.0f)),
      makeLine(Vec2(0.0f, -1.0f), Vec2(-1.0f, 0.0f)),
  };
  const Vec2 v = crowd::solveOrcaProgram(lines.data(), 2, 0, 2.0f, Vec2(0.5f, 0.0f));
  EXPECT_NEAR(v.y, 0.0f, 1e-6f);
  EXPECT_NEAR(maxViolation(lines, 0, 2, v.x, v.y), 1.0, 1e-6);
  EXPECT_LE(crowd::length(v), 2.0f + 1e-5f);
}

TEST(KernelLpLeastViolation, InfeasibleProgramsMatchBruteForce) {
  std::mt19937 rng(7);
  // Mostly positive violations at the origin, so that many programs are infeasible.
  std::uniform_real_distribution<float> offset(-0.5f, 2.5f);
  std::uniform_real_distribution<float> coord(-2.0f, 2.0f);
  int checked = 0;
  for (int trial = 0; trial < 2000 && checked < 80; ++trial) {
    const int count = 3 + trial % 5;
    const std::vector<OrcaLine> lines = randomLines(rng, count, [&](int) { return offset(rng); });
    const Vec2 pref(coord(rng), coord(rng));
    Vec2 scratch;
    const int failed = crowd::solveIncremental(lines.data(), count, 2.0f, pref, false, scratch);
    if (failed == count) continue;
    EXPECT_GE(failed, 0);
    ++checked;
    const Vec2 v = crowd::solveOrcaProgram(lines.data(), count, 0, 2.0f, pref);
    ASSERT_TRUE(std::isfinite(v.x) && std::isfinite(v.y));
    EXPECT_LE(crowd::length(v), 2.0f + 1e-5f) << "trial " << trial;
    const double best = bruteMinMaxViolation(lines, 0, 2.0);
    EXPECT_NEAR(maxViolation(lines, 0, count, v.x, v.y), best, 1e-4) << "trial " << trial;
  }
  EXPECT_GE(checked, 40);
}

TEST(KernelLpLeastViolation, NearlyParallelLinesOnlyCostRounding) {
  // Lines 0 and 1 are almost opposite (det ~ 0.0096, above the parallel epsilon), so lp3's
  // bisector of them passes through their intersection ~250 away, and the discriminant in lp1
  // is a difference of two numbers near 250^2 in float. The answer is then only as good as that
  // rounding (RVO2 has the same arithmetic): near the circle and near the optimum, not on them.
  const std::vector<OrcaLine> lines = {
      OrcaLine{Vec2(-0.137449622f, 0.936628222f), Vec2(0.989403188f, 0.145194322f)},
      OrcaLine{Vec2(0.234696403f, -1.49888694f), Vec2(-0.987962186f, -0.15469557f)},
      OrcaLine{Vec2(2.08123684f, -0.724334478f), Vec2(-0.328693092f, -0.944436789f)},
  };
  const Vec2 pref(0.267065525f, -0.291786075f);
  const Vec2 v = crowd::solveOrcaProgram(lines.data(), 3, 0, 2.0f, pref);
  ASSERT_TRUE(std::isfinite(v.x) && std::isfinite(v.y));
  EXPECT_LE(crowd::length(v), 2.0f + 1e-2f);
  EXPECT_NEAR(maxViolation(lines, 0, 3, v.x, v.y), bruteMinMaxViolation(lines, 0, 2.0), 1e-2);
}

TEST(KernelLpLeastViolation, ObstacleLinesStayHard) {
  // Obstacle line x <= 0.5 is feasible alone. The agent lines x >= 1, y >= 0.5 and y <= -0.5
  // cannot all hold; the least violation that respects the obstacle is at (0.5, 0), where every
  // agent line is violated by 0.5.
  const std::vector<OrcaLine> lines = {
      makeLine(Vec2(0.5f, 0.0f), Vec2(0.0f, 1.0f)),    // obstacle: x <= 0.5
      makeLine(Vec2(1.0f, 0.0f), Vec2(0.0f, -1.0f)),   // x >= 1
      makeLine(Vec2(0.0f, 0.5f), Vec2(1.0f, 0.0f)),    // y >= 0.5
      makeLine(Vec2(0.0f, -0.5f), Vec2(-1.0f, 0.0f)),  // y <= -0.5
  };
  const Vec2 v = crowd::solveOrcaProgram(lines.data(), 4, 1, 2.0f, Vec2(1.5f, 0.2f));
  EXPECT_LE(violation(lines[0], v), 1e-6);
  EXPECT_NEAR(v.x, 0.5f, 1e-5f);
  EXPECT_NEAR(v.y, 0.0f, 1e-5f);
  EXPECT_NEAR(maxViolation(lines, 1, 4, v.x, v.y), 0.5, 1e-5);
  EXPECT_NEAR(bruteMinMaxViolation(lines, 1, 2.0), 0.5, 1e-5);
}

TEST(KernelLpLeastViolation, RandomProgramsKeepObstacleLinesSatisfied) {
  std::mt19937 rng(99);
  std::uniform_real_distribution<float> obstacleOffset(-1.5f, -0.1f);
  std::uniform_real_distribution<float> agentOffset(-0.5f, 2.5f);
  std::uniform_real_distribution<float> coord(-2.0f, 2.0f);
  int checked = 0;
  for (int trial = 0; trial < 2000 && checked < 60; ++trial) {
    const int obstacleCount = 1 + trial % 2;
    const int count = obstacleCount + 2 + trial % 4;
    // Obstacle lines permit the origin, so they are feasible on their own.
    const std::vector<OrcaLine> lines = randomLines(
        rng, count, [&](int i) { return i < obstacleCount ? obstacleOffset(rng) : agentOffset(rng); });
    const Vec2 pref(coord(rng), coord(rng));
    Vec2 scratch;
    const int failed = crowd::solveIncremental(lines.data(), count, 2.0f, pref, false, scratch);
    if (failed == count) continue;
    ++checked;
    const Vec2 v = crowd::solveOrcaProgram(lines.data(), count, obstacleCount, 2.0f, pref);
    EXPECT_LE(maxViolation(lines, 0, obstacleCount, v.x, v.y), 1e-5) << "trial " << trial;
    EXPECT_LE(crowd::length(v), 2.0f + 1e-5f) << "trial " << trial;
    const double best = bruteMinMaxViolation(lines, obstacleCount, 2.0);
    EXPECT_NEAR(maxViolation(lines, obstacleCount, count, v.x, v.y), best, 1e-4) << "trial " << trial;
  }
  EXPECT_GE(checked, 30);
}

TEST(KernelLpProgram, FeasibleProgramSkipsLeastViolation) {
  // With a feasible program the answer is lp2's: the projection onto the one violated line.
  const std::vector<OrcaLine> lines = {
      makeLine(Vec2(0.0f, 0.0f), Vec2(0.0f, -1.0f)),  // x >= 0 (obstacle)
      makeLine(Vec2(0.0f, 1.0f), Vec2(-1.0f, 0.0f)),  // y <= 1
  };
  const Vec2 v = crowd::solveOrcaProgram(lines.data(), 2, 1, 2.0f, Vec2(1.0f, 1.5f));
  EXPECT_NEAR(v.x, 1.0f, 1e-6f);
  EXPECT_NEAR(v.y, 1.0f, 1e-6f);
}

}  // namespace
