// Reference lines for the Frenet planner (crowd/reference_line.hpp, kernels/reference_line.hpp):
// straight, circular and S-shaped lines resampled with heading and curvature; no cusp next to a
// short segment, and jogs and U-turns kept near their polylines; lookups by arc length and
// projections of points; bad polylines refused.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <crowd/errors.hpp>

#include "nav/reference_line.hpp"

namespace crowd {
namespace {

constexpr double kPi = 3.141592653589793;

std::vector<Vec2> arc(double radius, double from, double to, int points) {
  std::vector<Vec2> out;
  for (int i = 0; i < points; ++i) {
    const double a = from + (to - from) * i / (points - 1);
    out.emplace_back(static_cast<float>(radius * std::cos(a)), static_cast<float>(radius * std::sin(a)));
  }
  return out;
}

TEST(ReferenceLine, StraightLineIsEvenlySampledAndFlat) {
  const std::vector<Vec2> polyline = {{0, 0}, {4, 0}, {10, 0}};
  const std::vector<ReferencePoint> line = buildReferenceLine(polyline, 0.5);
  ASSERT_EQ(line.size(), 21u);
  for (std::size_t i = 0; i < line.size(); ++i) {
    EXPECT_DOUBLE_EQ(line[i].s, 0.5 * static_cast<double>(i));
    EXPECT_NEAR(line[i].x, 0.5 * static_cast<double>(i), 1e-9);
    EXPECT_NEAR(line[i].y, 0.0, 1e-12);
    EXPECT_NEAR(line[i].theta, 0.0, 1e-12);
    EXPECT_NEAR(line[i].kappa, 0.0, 1e-12);
  }
  const ReferenceLineView view = referenceLineView(line, 0.5);
  EXPECT_NEAR(referenceAt(view, 3.25).x, 3.25, 1e-9);
  EXPECT_NEAR(referenceAt(view, 99.0).x, 10.0, 1e-9) << "clamped to the end";
  EXPECT_NEAR(projectOnto(view, 3.3, 1.0, -1, 0), 3.3, 1e-9);
  EXPECT_NEAR(projectOnto(view, 3.3, -2.0, 6, 3), 3.3, 1e-9) << "from a hint";
}

TEST(ReferenceLine, CircleHasItsCurvature) {
  const double radius = 20.0;
  const std::vector<ReferencePoint> line = buildReferenceLine(arc(radius, 0.0, 1.5 * kPi, 240), 0.25);
  const double length = 1.5 * kPi * radius;
  EXPECT_NEAR(line.back().s, length, 0.3);
  for (std::size_t i = 20; i + 20 < line.size(); ++i) {
    ASSERT_NEAR(line[i].kappa, 1.0 / radius, 0.03 / radius) << "sample " << i;
    ASSERT_NEAR(std::hypot(line[i].x, line[i].y), radius, 0.01);
  }
  // A point 1 outside the circle at angle 1 projects to arc length 20 there.
  const ReferenceLineView view = referenceLineView(line, 0.25);
  EXPECT_NEAR(projectOnto(view, 21.0 * std::cos(1.0), 21.0 * std::sin(1.0), -1, 0), 20.0, 0.05);
  // And an agent there, driving along the circle, is 1 to the right with no heading error.
  const double s = projectOnto(view, 21.0 * std::cos(1.0), 21.0 * std::sin(1.0), -1, 0);
  const FrenetState f = toFrenet(
      referenceAt(view, s),
      CartesianState{21.0 * std::cos(1.0), 21.0 * std::sin(1.0), 1.0 + kPi / 2, 1.0 / 21.0, 2.0, 0.0});
  EXPECT_NEAR(f.d, -1.0, 1e-3);
  EXPECT_NEAR(f.dPrime, 0.0, 0.01);
}

TEST(ReferenceLine, SBendTurnsLeftThenRight) {
  const std::vector<Vec2> polyline = {{0, 0}, {10, 0}, {20, 6}, {30, 12}, {40, 12}};
  const std::vector<ReferencePoint> line = buildReferenceLine(polyline, 0.5);
  double most = 0, least = 0;
  std::size_t mostAt = 0, leastAt = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i].kappa > most) most = line[i].kappa, mostAt = i;
    if (line[i].kappa < least) least = line[i].kappa, leastAt = i;
    ASSERT_TRUE(std::isfinite(line[i].dkappa));
  }
  EXPECT_GT(most, 0.02);
  EXPECT_LT(least, -0.02);
  EXPECT_LT(mostAt, leastAt) << "left first";
}

// Collinear points give the straight line itself, evenly sampled (x = s), whatever the spacing
// of the points: the centripetal spline makes no cusp next to a short segment (the uniform one
// ran back to x = -3.58 on the first of these).
TEST(ReferenceLine, ShortSegmentAmongLongOnesMakesNoCusp) {
  for (const std::vector<Vec2>& polyline :
       {std::vector<Vec2>{{0, 0}, {1, 0}, {60, 0}}, std::vector<Vec2>{{0, 0}, {20, 0}, {21, 0}, {40, 0}}}) {
    const std::vector<ReferencePoint> line = buildReferenceLine(polyline, 0.25);
    const double length = polyline.back().x;
    ASSERT_EQ(line.size(), static_cast<std::size_t>(length / 0.25) + 1);
    for (std::size_t i = 0; i < line.size(); ++i) {
      ASSERT_NEAR(line[i].x, 0.25 * static_cast<double>(i), 1e-9) << "sample " << i << " of " << length;
      ASSERT_EQ(line[i].y, 0.0);
      ASSERT_NEAR(line[i].theta, 0.0, 1e-12);
      ASSERT_NEAR(line[i].kappa, 0.0, 1e-12);
    }
  }
}

// Distance from p to the polyline.
double distanceToPolyline(const std::vector<Vec2>& polyline, double x, double y) {
  double best = INFINITY;
  for (std::size_t i = 0; i + 1 < polyline.size(); ++i) {
    const double ax = polyline[i].x, ay = polyline[i].y;
    const double ex = polyline[i + 1].x - ax, ey = polyline[i + 1].y - ay;
    const double t = std::clamp(((x - ax) * ex + (y - ay) * ey) / (ex * ex + ey * ey), 0.0, 1.0);
    best = std::min(best, std::hypot(ax + ex * t - x, ay + ey * t - y));
  }
  return best;
}

// A lane jog (4 m across between 20 m stretches) and a U-turn 2 m wide: the centripetal spline
// through their corners stays within 0.92 and 0.72 of the polyline and swings out past the U-turn's
// end by 0.38 (worked out separately with the same Barry-Goldman construction; the uniform spline
// swung 2.5 past it), and turns smoothly: no step turns the heading by more than a curvature of
// 1.3 allows (a cusp turns it by pi).
TEST(ReferenceLine, JogAndUTurnStayNearTheirPolylines) {
  struct Case {
    std::vector<Vec2> polyline;
    double deviation;
    double mostX;
  };
  const Case cases[] = {{{{0, 0}, {20, 0}, {20, 4}, {40, 4}}, 0.93, 40.0},
                        {{{0, 0}, {20, 0}, {20, 2}, {0, 2}}, 0.73, 20.39}};
  for (const Case& c : cases) {
    const std::vector<ReferencePoint> line = buildReferenceLine(c.polyline, 0.25);
    for (std::size_t i = 0; i < line.size(); ++i) {
      ASSERT_LT(distanceToPolyline(c.polyline, line[i].x, line[i].y), c.deviation) << "sample " << i;
      ASSERT_LT(line[i].x, c.mostX + 1e-9) << "sample " << i;
      if (i > 0) {
        ASSERT_LT(std::fabs(wrapAngle(line[i].theta - line[i - 1].theta)), 1.3 * 0.25) << "sample " << i;
      }
    }
  }
}

TEST(ReferenceLine, RefusesBadPolylines) {
  const std::vector<Vec2> one = {{0, 0}};
  const std::vector<Vec2> repeated = {{0, 0}, {0, 0}, {1, 0}};
  const std::vector<Vec2> shortLine = {{0, 0}, {0.1f, 0}};
  const std::vector<Vec2> fine = {{0, 0}, {5, 0}};
  EXPECT_THROW(buildReferenceLine(one, 0.5), std::invalid_argument);
  EXPECT_THROW(buildReferenceLine(repeated, 0.5), std::invalid_argument);
  EXPECT_THROW(buildReferenceLine(shortLine, 0.5), std::invalid_argument);
  EXPECT_THROW(buildReferenceLine(fine, 0.0), std::invalid_argument);
  EXPECT_THROW(buildReferenceLine(fine, NAN), std::invalid_argument);
}

TEST(ReferenceLine, LinesOfTooManySamplesAreRefusedBeforeTheyAreMade) {
  // Zig-zags 2e6 m long once took gigabytes (three points 2.5 GB): refused from the points'
  // spacing alone, with the estimate.
  const std::vector<Vec2> zigzag{Vec2(0.0f, 0.0f), Vec2(2e6f, 1.0f), Vec2(0.0f, 2.0f)};
  try {
    (void)buildReferenceLine(zigzag, kReferenceSpacing);
    FAIL() << "a 4e6 m line was built";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("about 1.6e+07 samples"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("1048576 a line may have"), std::string::npos) << error.what();
  }
  // Just within the limit: built.
  const double longest = static_cast<double>(kMaxReferenceSamples - 1) * kReferenceSpacing;
  const std::vector<Vec2> within{Vec2(0.0f, 0.0f), Vec2(static_cast<float>(longest - 1.0), 0.0f)};
  EXPECT_LE(buildReferenceLine(within, kReferenceSpacing).size(), kMaxReferenceSamples);
}

}  // namespace
}  // namespace crowd
