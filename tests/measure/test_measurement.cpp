// Measurement areas and lines on hand-made crowds whose figures are worked out by hand: lattices
// of known spacing (classic and Voronoi density, Voronoi cells cut by the disc), a concave area,
// walkers crossing a line at known speeds (interpolated times, directions, flows), agents that
// come and go, refused plans and observations, and the same results however the input is ordered.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <crowd/errors.hpp>
#include <crowd/measurement.hpp>

#include "geometry/geometry.hpp"
#include "io/measurement_json.hpp"
#include "measure/voronoi_raster.hpp"

namespace crowd {
namespace {

struct Crowd {
  std::vector<AgentId> ids;
  std::vector<Vec2> positions;
  std::vector<Vec2> velocities;

  void add(Vec2 position, Vec2 velocity = Vec2(0.0f, 0.0f)) {
    ids.push_back(AgentId{static_cast<std::uint32_t>(ids.size()), 0});
    positions.push_back(position);
    velocities.push_back(velocity);
  }
  void observeBy(Measurements& m, double time) const { m.observe(time, ids, positions, velocities); }
};

MeasurementArea rectangle(std::string name, float x0, float y0, float x1, float y1) {
  return MeasurementArea{std::move(name), {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}};
}

// Agents on a square lattice of the given spacing, at (x0 + i * spacing, y0 + j * spacing) for i,
// j in [first, last], each with velocity speedOf(i) along (0.6, -0.8).
template <typename SpeedOf>
Crowd lattice(float x0, float y0, float spacing, int first, int last, SpeedOf&& speedOf) {
  Crowd crowd;
  for (int j = first; j <= last; ++j) {
    for (int i = first; i <= last; ++i) {
      const float speed = speedOf(i);
      crowd.add(Vec2(x0 + static_cast<float>(i) * spacing, y0 + static_cast<float>(j) * spacing),
                Vec2(0.6f * speed, -0.8f * speed));
    }
  }
  return crowd;
}

TEST(Measurement, OneMetreLatticeGivesOnePersonPerSquareMetreBothWays) {
  // Agents at half-metres (0.5, 1.5, ...) far beyond the area [0.375, 4.375]^2 (16 m^2). Inside:
  // centres 0.5 .. 3.5 on each axis, 16 agents, so the classic density is 16 / 16 = 1. With a
  // cut-off of 1 m (more than a cell's half-diagonal, 0.71 m) every Voronoi cell is its unit
  // square; the cells tile the area, so sum_i |V_i & A| / |V_i| = |A| and the Voronoi density is 1.
  // Speed = column index i: of those inside, columns 0..3, mean 1.5. By Voronoi, the area holds
  // 0.625 m of column 0, all of columns 1 to 3 and 0.375 m of column 4, each 4 m tall:
  // (0 * 2.5 + (1 + 2 + 3) * 4 + 4 * 1.5) / 16 = 1.875.
  MeasurementPlan plan;
  plan.areas.push_back(rectangle("square", 0.375f, 0.375f, 4.375f, 4.375f));
  Measurements m(plan);
  lattice(0.5f, 0.5f, 1.0f, -5, 9, [](int i) {
    return static_cast<float>(std::max(i, 0));
  }).observeBy(m, 0.0);
  const AreaSeries& a = m.areas()[0];
  ASSERT_EQ(a.time.size(), 1u);
  EXPECT_DOUBLE_EQ(a.area, 16.0);
  EXPECT_EQ(a.count[0], 16);
  EXPECT_DOUBLE_EQ(a.density[0], 1.0);
  EXPECT_NEAR(a.speed[0], 1.5, 1e-6);
  // Cells are counted in whole 0.02 m pixels: column 4's 0.375 m inside is 19 pixels (0.38 m),
  // which makes 1.88; the density is off by the pixel area's rounding in float only.
  EXPECT_NEAR(a.voronoiDensity[0], 1.0, 1e-6);
  EXPECT_NEAR(a.voronoiSpeed[0], 1.875, 0.006);
}

TEST(Measurement, HalfMetreLatticeGivesFourPersonsPerSquareMetre) {
  // Spacing 0.5 m: 4 P/m^2. Area [0, 3]^2 with agents at 0.25, 0.75, ...: 36 inside, 36 / 9 = 4.
  // All at 0.7 m/s, and every pixel of the area is owned: the Voronoi speed is 0.7 exactly.
  MeasurementPlan plan;
  plan.areas.push_back(rectangle("dense", 0.0f, 0.0f, 3.0f, 3.0f));
  Measurements m(plan);
  lattice(0.25f, 0.25f, 0.5f, -8, 14, [](int) { return 0.7f; }).observeBy(m, 0.0);
  const AreaSeries& a = m.areas()[0];
  EXPECT_EQ(a.count[0], 36);
  EXPECT_DOUBLE_EQ(a.density[0], 4.0);
  EXPECT_NEAR(a.speed[0], 0.7, 1e-6);
  EXPECT_NEAR(a.voronoiDensity[0], 4.0, 0.04);
  EXPECT_NEAR(a.voronoiSpeed[0], 0.7, 1e-6);
}

TEST(Measurement, CutOffDiscsBoundSparseCells) {
  // Agents 2 m apart with a cut-off of 0.5 m: each cell is the disc of radius 0.5 (pi / 4 m^2).
  // In the area [0, 8]^2 with agents at 1, 3, 5, 7 on each axis, all 16 discs lie inside: the
  // Voronoi density is 16 / 64 = 0.25 (as the classic one), and the Voronoi speed, which weighs
  // each speed by the area its cell covers, 16 * 1.2 * (pi / 4) / 64 = 1.2 * pi / 16.
  MeasurementPlan plan;
  plan.areas.push_back(rectangle("sparse", 0.0f, 0.0f, 8.0f, 8.0f));
  plan.voronoiCutOff = 0.5f;
  plan.voronoiResolution = 0.01f;
  Measurements m(plan);
  lattice(1.0f, 1.0f, 2.0f, -3, 6, [](int) { return 1.2f; }).observeBy(m, 0.0);
  const AreaSeries& a = m.areas()[0];
  EXPECT_EQ(a.count[0], 16);
  EXPECT_DOUBLE_EQ(a.density[0], 0.25);
  EXPECT_NEAR(a.voronoiDensity[0], 0.25, 1e-6);  // Whole cells: each one's share is 1 exactly.
  EXPECT_NEAR(a.voronoiSpeed[0], 1.2 * std::numbers::pi / 16.0, 0.002);
}

TEST(Measurement, ACellHalfInsideCountsHalf) {
  // One agent on the area's left edge, alone: half its disc (cut-off 0.5) lies inside, so the
  // Voronoi density is 0.5 / 16. Moved to the middle it counts whole: 1 / 16.
  MeasurementPlan plan;
  plan.areas.push_back(rectangle("square", 0.0f, 0.0f, 4.0f, 4.0f));
  plan.voronoiCutOff = 0.5f;
  Measurements m(plan);
  Crowd crowd;
  crowd.add(Vec2(0.0f, 2.0f), Vec2(1.0f, 0.0f));
  crowd.observeBy(m, 0.0);
  crowd.positions[0] = Vec2(2.0f, 2.0f);
  crowd.observeBy(m, 0.1);
  const AreaSeries& a = m.areas()[0];
  EXPECT_NEAR(a.voronoiDensity[0], 0.5 / 16.0, 0.01 / 16.0);
  EXPECT_NEAR(a.voronoiDensity[1], 1.0 / 16.0, 1e-6);
  EXPECT_EQ(a.count[1], 1);
  EXPECT_DOUBLE_EQ(a.density[1], 1.0 / 16.0);
}

TEST(Measurement, ConcaveAreaCountsOnlyThoseInside) {
  // A U: the 6 x 4 box less the notch [2, 4] x [1, 4], 24 - 6 = 18 m^2; wound either way.
  const std::vector<Vec2> u{{0, 0}, {6, 0}, {6, 4}, {4, 4}, {4, 1}, {2, 1}, {2, 4}, {0, 4}};
  MeasurementPlan plan;
  plan.areas.push_back(MeasurementArea{"u", u});
  plan.areas.push_back(MeasurementArea{"u reversed", std::vector<Vec2>(u.rbegin(), u.rend())});
  Measurements m(plan);
  Crowd crowd;
  crowd.add(Vec2(1, 3), Vec2(1.0f, 0.0f));     // Left arm: inside.
  crowd.add(Vec2(3, 3), Vec2(9.0f, 0.0f));     // In the notch: outside.
  crowd.add(Vec2(3, 0.5f), Vec2(0.0f, 2.0f));  // The base under the notch: inside.
  crowd.add(Vec2(5, 2), Vec2(0.0f, -3.0f));    // Right arm: inside.
  crowd.add(Vec2(7, 1), Vec2(9.0f, 0.0f));     // Beyond the box: outside.
  crowd.add(Vec2(3, 1.5f), Vec2(9.0f, 0.0f));  // The notch again.
  crowd.observeBy(m, 0.0);
  for (const AreaSeries& a : m.areas()) {
    EXPECT_DOUBLE_EQ(a.area, 18.0) << a.name;
    EXPECT_EQ(a.count[0], 3) << a.name;
    EXPECT_DOUBLE_EQ(a.density[0], 3.0 / 18.0) << a.name;
    EXPECT_DOUBLE_EQ(a.speed[0], (1.0 + 2.0 + 3.0) / 3.0) << a.name;  // The fast ones are all outside.
  }
  EXPECT_EQ(m.areas()[0].voronoiDensity, m.areas()[1].voronoiDensity);
}

TEST(Measurement, LineCrossingsAreInterpolatedWithTheirDirection) {
  // The line runs from (0, 5) to (0, -5): its left normal points to +x, so forward is +x.
  // Walker A from x = -1 at 1.2 m/s crosses forward at 1 / 1.2 = 0.8333 s; walker B from x = 0.5
  // at -0.8 m/s crosses backward at 0.5 / 0.8 = 0.625 s; C passes beyond the line's end (y = 7).
  MeasurementPlan plan;
  plan.lines.push_back(MeasurementLine{"door", Vec2(0, 5), Vec2(0, -5)});
  Measurements m(plan);
  const std::vector<Vec2> starts{{-1.0f, 0.0f}, {0.5f, 1.0f}, {-1.0f, 7.0f}};
  const std::vector<Vec2> velocities{{1.2f, 0.0f}, {-0.8f, 0.0f}, {1.0f, 0.0f}};
  Crowd crowd;
  for (std::size_t i = 0; i < starts.size(); ++i) crowd.add(starts[i], velocities[i]);
  for (int k = 0; k <= 20; ++k) {
    const double t = 0.1 * k;
    for (std::size_t i = 0; i < starts.size(); ++i) {
      crowd.positions[i] = starts[i] + velocities[i] * static_cast<float>(t);
    }
    crowd.observeBy(m, t);
  }
  const LineSeries& line = m.lines()[0];
  EXPECT_DOUBLE_EQ(line.length, 10.0);
  ASSERT_EQ(line.crossings.size(), 2u);
  EXPECT_EQ(line.crossings[0].id.index, 1u);  // In time order: B first.
  EXPECT_EQ(line.crossings[0].direction, -1);
  EXPECT_NEAR(line.crossings[0].time, 0.625, 1e-6);
  EXPECT_EQ(line.crossings[1].id.index, 0u);
  EXPECT_EQ(line.crossings[1].direction, +1);
  EXPECT_NEAR(line.crossings[1].time, 1.0 / 1.2, 1e-6);
  // The N-t curve: A counted from the sample at 0.9 s on, B from 0.7 s on.
  ASSERT_EQ(line.time.size(), 21u);
  EXPECT_EQ(line.forward[8], 0);
  EXPECT_EQ(line.forward[9], 1);
  EXPECT_EQ(line.backward[6], 0);
  EXPECT_EQ(line.backward[7], 1);
  EXPECT_EQ(line.forward.back(), 1);
  EXPECT_EQ(line.backward.back(), 1);
  // Flows over the run (0, 2]: one each way, 0.5 persons/s, 0.05 persons/(m s); net nothing.
  EXPECT_DOUBLE_EQ(flowRate(line, 0.0, 2.0), 0.5);
  EXPECT_DOUBLE_EQ(flowRate(line, 0.0, 2.0, FlowDirection::Backward), 0.5);
  EXPECT_DOUBLE_EQ(flowRate(line, 0.0, 2.0, FlowDirection::Net), 0.0);
  EXPECT_DOUBLE_EQ(specificFlow(line, 0.0, 2.0), 0.05);
  // Per interval: A's crossing falls in (0.8, 0.9], one person in 0.1 s.
  const std::vector<double> perInterval = flowPerInterval(line);
  ASSERT_EQ(perInterval.size(), 20u);
  for (std::size_t k = 0; k < perInterval.size(); ++k) {
    EXPECT_NEAR(perInterval[k], k == 8 ? 10.0 : 0.0, 1e-9) << "interval " << k;
  }
}

TEST(Measurement, AStreamGivesItsFlow) {
  // Ten walkers in file 0.5 m apart at 1 m/s, the first 0.25 m before a 2 m line: they cross at
  // 0.25, 0.75, ..., 4.75 s, two persons a second, one per metre of line and second.
  MeasurementPlan plan;
  plan.lines.push_back(MeasurementLine{"gate", Vec2(0, 1), Vec2(0, -1)});
  Measurements m(plan);
  Crowd crowd;
  for (int k = 0; k < 10; ++k) crowd.add(Vec2(-0.25f - 0.5f * static_cast<float>(k), 0.0f), Vec2(1.0f, 0.0f));
  for (int step = 0; step <= 50; ++step) {
    crowd.observeBy(m, 0.1 * step);
    for (Vec2& p : crowd.positions) p.x += 0.1f;
  }
  const LineSeries& line = m.lines()[0];
  ASSERT_EQ(line.crossings.size(), 10u);
  for (std::size_t k = 0; k < 10; ++k) {
    EXPECT_NEAR(line.crossings[k].time, 0.25 + 0.5 * static_cast<double>(k), 1e-5);
    EXPECT_EQ(line.crossings[k].direction, +1);
  }
  EXPECT_NEAR(flowRate(line, 0.0, 5.0), 2.0, 1e-12);
  EXPECT_NEAR(flowRate(line, 1.0, 3.0), 2.0, 1e-12);  // 1.25, 1.75, 2.25 and 2.75 s.
  EXPECT_NEAR(specificFlow(line, 0.0, 5.0), 1.0, 1e-12);
  EXPECT_EQ(line.backward.back(), 0);
}

TEST(Measurement, AgentsThatComeOrGoDoNotCross) {
  // Four agents step across the line x = 0 (forward is +x) between each pair of samples:
  // 0 stays throughout (counted twice: forward, then back); 1 is missing at the middle sample;
  // 2's slot is reused by a new agent (another generation) on the far side; 3 only appears there.
  MeasurementPlan plan;
  plan.lines.push_back(MeasurementLine{"line", Vec2(0, 10), Vec2(0, -10)});
  Measurements m(plan);
  const auto observe = [&](double t, std::vector<AgentId> ids, std::vector<Vec2> positions) {
    const std::vector<Vec2> velocities(ids.size(), Vec2(0.0f, 0.0f));
    m.observe(t, ids, positions, velocities);
  };
  observe(0.0, {{0, 0}, {1, 0}, {2, 0}}, {{-0.1f, 0}, {-0.1f, 1}, {-0.1f, 2}});
  observe(0.1, {{0, 0}, {2, 1}, {3, 0}}, {{0.1f, 0}, {0.1f, 2}, {0.1f, 3}});
  observe(0.2, {{0, 0}, {1, 0}, {2, 1}, {3, 0}}, {{-0.1f, 0}, {0.1f, 1}, {0.1f, 2}, {0.1f, 3}});
  const LineSeries& line = m.lines()[0];
  ASSERT_EQ(line.crossings.size(), 2u);
  EXPECT_EQ(line.crossings[0].id, (AgentId{0, 0}));
  EXPECT_EQ(line.crossings[0].direction, +1);
  EXPECT_NEAR(line.crossings[0].time, 0.05, 1e-6);
  EXPECT_EQ(line.crossings[1].id, (AgentId{0, 0}));
  EXPECT_EQ(line.crossings[1].direction, -1);
  EXPECT_NEAR(line.crossings[1].time, 0.15, 1e-6);
  EXPECT_EQ(line.forward, (std::vector<std::int64_t>{0, 1, 1}));
  EXPECT_EQ(line.backward, (std::vector<std::int64_t>{0, 0, 1}));
}

TEST(Measurement, FundamentalDiagramLeavesOutEmptySamples) {
  // A 1 m lattice at 1.3 m/s over [0, 4]^2, then nobody, then again: two points of density 1,
  // speed 1.3, flow 1.3; the empty sample is left out both ways.
  MeasurementPlan plan;
  plan.areas.push_back(rectangle("square", 0.0f, 0.0f, 4.0f, 4.0f));
  Measurements m(plan);
  const Crowd crowd = lattice(0.5f, 0.5f, 1.0f, -4, 8, [](int) { return 1.3f; });
  crowd.observeBy(m, 0.0);
  m.observe(0.1, {}, {}, {});
  crowd.observeBy(m, 0.2);
  for (const bool voronoi : {false, true}) {
    const std::vector<FundamentalPoint> points = fundamentalDiagram(m.areas()[0], voronoi);
    ASSERT_EQ(points.size(), 2u) << voronoi;
    EXPECT_DOUBLE_EQ(points[1].time, 0.2);
    EXPECT_NEAR(points[0].density, 1.0, 0.01) << voronoi;
    EXPECT_NEAR(points[0].speed, 1.3, 1e-6) << voronoi;
    EXPECT_NEAR(points[0].flow, 1.3, 0.013) << voronoi;
    const std::optional<FundamentalPoint> mean = meanFundamental(m.areas()[0], voronoi, 0.0, 0.2);
    ASSERT_TRUE(mean.has_value());
    EXPECT_NEAR(mean->speed, 1.3, 1e-6);
    EXPECT_FALSE(meanFundamental(m.areas()[0], voronoi, 0.05, 0.15).has_value());
  }
  EXPECT_EQ(m.areas()[0].count[1], 0);
  EXPECT_EQ(m.areas()[0].speed[1], 0.0);
  EXPECT_EQ(m.areas()[0].voronoiDensity[1], 0.0);
}

TEST(Measurement, VoronoiRasterMatchesPixelByPixelSearch) {
  // The raster finds each row's nearest agents by the lower envelope of their distances; here
  // every pixel centre of the same lattice asks every agent, and tests the concave U itself.
  const std::vector<Vec2> u{{0, 0}, {6, 0}, {6, 4}, {4, 4}, {4, 1}, {2, 1}, {2, 4}, {0, 4}};
  const double cutOff = 0.8;
  const double resolution = 0.04;
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> x(-3.0f, 9.0f);
  std::uniform_real_distribution<float> y(-3.0f, 7.0f);
  std::vector<Vec2> positions(150);
  for (Vec2& p : positions) p = Vec2(x(rng), y(rng));
  positions[3] = Vec2(1.02f, 0.5f);  // Two at one point, in the U's base: the first listed keeps
  positions[7] = positions[3];       // the pixels.

  const VoronoiRaster raster(u, cutOff, resolution);
  std::vector<VoronoiRaster::Share> shares;
  raster.measure(positions, 0, shares);

  // The lattice: the bounding box [0, 6] x [0, 4] grown by 2 * 0.8, in 0.04 m pixels.
  const int columns = static_cast<int>(std::ceil((6.0 + 4 * cutOff) / resolution));
  const int rows = static_cast<int>(std::ceil((4.0 + 4 * cutOff) / resolution));
  std::vector<VoronoiRaster::Share> expected(positions.size());
  std::int64_t areaPixels = 0;
  for (int row = 0; row < rows; ++row) {
    for (int column = 0; column < columns; ++column) {
      const Point centre{-2 * cutOff + (column + 0.5) * resolution, -2 * cutOff + (row + 0.5) * resolution};
      const bool inside = insidePolygon(centre, u);
      areaPixels += inside;
      std::size_t owner = positions.size();
      double nearest = cutOff * cutOff;
      for (std::size_t i = 0; i < positions.size(); ++i) {
        const double dx = positions[i].x - centre.x;
        const double dy = positions[i].y - centre.y;
        if (dx * dx + dy * dy < nearest || (dx * dx + dy * dy == nearest && owner == positions.size())) {
          nearest = dx * dx + dy * dy;
          owner = i;
        }
      }
      if (owner == positions.size()) continue;
      ++expected[owner].cell;
      expected[owner].inside += inside;
    }
  }
  EXPECT_EQ(raster.areaPixels(), areaPixels);
  EXPECT_EQ(areaPixels, 18 * 625);  // 18 m^2 in 0.04 m pixels, the edges on pixel edges.
  for (std::size_t i = 0; i < positions.size(); ++i) {
    EXPECT_EQ(shares[i].cell, expected[i].cell) << "agent " << i;
    EXPECT_EQ(shares[i].inside, expected[i].inside) << "agent " << i;
  }
  EXPECT_EQ(shares[7].cell, 0);
  EXPECT_GT(shares[3].inside, 0);
}

std::string refusal(const MeasurementPlan& plan) {
  const std::string problem = checkMeasurementPlan(plan);
  if (problem.empty()) {
    EXPECT_NO_THROW(Measurements{plan});
    return problem;
  }
  try {
    Measurements m(plan);
    ADD_FAILURE() << "accepted a plan refused with: " << problem;
  } catch (const InputError& e) {
    EXPECT_EQ(e.what(), problem);
  }
  return problem;
}

TEST(MeasurementPlan, BadPlansAreRefusedNamingTheProblem) {
  MeasurementPlan good;
  good.areas.push_back(rectangle("hall", 0, 0, 10, 10));
  good.lines.push_back(MeasurementLine{"exit", Vec2(0, 0), Vec2(1, 0)});
  EXPECT_EQ(checkMeasurementPlan(good), "");
  EXPECT_EQ(checkMeasurementPlan(MeasurementPlan{}), "");

  const auto with = [&](auto change) {
    MeasurementPlan plan = good;
    change(plan);
    return refusal(plan);
  };
  const auto refusedFor = [](const std::string& message, const std::string& part) {
    return message.find(part) != std::string::npos;
  };
  EXPECT_PRED2(refusedFor, with([](MeasurementPlan& p) { p.interval = 0; }), "interval");
  EXPECT_PRED2(refusedFor, with([](MeasurementPlan& p) { p.interval = NAN; }), "interval");
  EXPECT_PRED2(refusedFor, with([](MeasurementPlan& p) { p.voronoiCutOff = 0; }), "voronoiCutOff");
  EXPECT_PRED2(refusedFor, with([](MeasurementPlan& p) { p.voronoiResolution = 0.5f; }), "too coarse");
  EXPECT_PRED2(refusedFor, with([](MeasurementPlan& p) { p.voronoiResolution = 1e-4f; }), "at least 0.001");
  EXPECT_PRED2(refusedFor, with([](MeasurementPlan& p) { p.threads = -1; }), "threads");
  EXPECT_PRED2(refusedFor, with([](MeasurementPlan& p) { p.areas[0].name = ""; }), "area 0 has no name");
  EXPECT_PRED2(refusedFor, with([](MeasurementPlan& p) { p.areas.push_back(p.areas[0]); }),
               "two measurement areas are named \"hall\"");
  EXPECT_PRED2(refusedFor, with([](MeasurementPlan& p) { p.areas[0].polygon.resize(2); }),
               "\"hall\" has 2 vertices; a polygon needs at least 3");
  EXPECT_PRED2(refusedFor, with([](MeasurementPlan& p) { p.areas[0].polygon[2] = Vec2(INFINITY, 0); }),
               "vertex 2 is not finite");
  EXPECT_PRED2(refusedFor, with([](MeasurementPlan& p) { p.areas[0].polygon[2] = p.areas[0].polygon[1]; }),
               "vertex 2 repeats vertex 1");
  const auto withPolygon = [&](std::vector<Vec2> polygon) {
    return with([&](MeasurementPlan& p) { p.areas[0].polygon = polygon; });
  };
  EXPECT_PRED2(refusedFor, withPolygon({{0, 0}, {1, 1}, {2, 2}}), "has no area");
  EXPECT_PRED2(refusedFor,  // A lopsided bow tie: its edges 0 and 2 cross at (4/3, 4/3).
               withPolygon({{0, 0}, {4, 4}, {4, 0}, {0, 2}}), "\"hall\" is not simple: edge 0 meets edge 2");
  EXPECT_PRED2(refusedFor, withPolygon({{0, 0}, {4, 0}, {2, 0}, {2, 3}}), "folds back on itself at vertex 1");
  EXPECT_PRED2(refusedFor, with([](MeasurementPlan& p) { p.areas[0] = rectangle("tiny", 0, 0, 0.1f, 0.1f); }),
               "\"tiny\" covers only 25 pixels");
  // 204 m / 0.02 m = 10,200 pixels a side (the box grown by 2 m each way): over 1.04e8 in all.
  const std::string field = with([](MeasurementPlan& p) { p.areas[0] = rectangle("field", 0, 0, 200, 200); });
  EXPECT_PRED2(refusedFor, field, "\"field\" needs 1040");
  EXPECT_PRED2(refusedFor, field, "pixels, more than 16000000");
  EXPECT_PRED2(refusedFor, with([](MeasurementPlan& p) { p.lines[0].name = ""; }), "line 0 has no name");
  EXPECT_PRED2(refusedFor, with([](MeasurementPlan& p) { p.lines.push_back(p.lines[0]); }),
               "two measurement lines are named \"exit\"");
  EXPECT_PRED2(refusedFor, with([](MeasurementPlan& p) { p.lines[0].to = p.lines[0].from; }),
               "line \"exit\" has zero length");
  EXPECT_PRED2(refusedFor, with([](MeasurementPlan& p) { p.lines[0].to.y = NAN; }), "not finite");
  // An area and a line may share a name: they are listed apart.
  EXPECT_EQ(with([](MeasurementPlan& p) { p.lines[0].name = "hall"; }), "");
}

TEST(MeasurementPlan, BadObservationsAreRefusedAndLeaveNoTrace) {
  MeasurementPlan plan;
  plan.areas.push_back(rectangle("hall", 0, 0, 10, 10));
  plan.lines.push_back(MeasurementLine{"exit", Vec2(0, 0), Vec2(1, 0)});
  Measurements m(plan);
  const std::vector<AgentId> ids{{0, 0}, {1, 0}};
  const std::vector<Vec2> positions{{1, 1}, {2, 2}};
  const std::vector<Vec2> velocities{{0, 0}, {0, 0}};
  m.observe(1.0, ids, positions, velocities);
  EXPECT_THROW(m.observe(1.0, ids, positions, velocities), InputError);  // Not after the last.
  EXPECT_THROW(m.observe(2.0, ids, positions, std::vector<Vec2>(1)), InputError);
  EXPECT_THROW(m.observe(2.0, std::vector<AgentId>{{0, 0}, {0, 0}}, positions, velocities), InputError);
  EXPECT_THROW(m.observe(2.0, std::vector<AgentId>{{0, 0}, {}}, positions, velocities), InputError);
  EXPECT_THROW(m.observe(2.0, ids, std::vector<Vec2>{{1, 1}, {NAN, 2}}, velocities), InputError);
  EXPECT_THROW(m.observe(NAN, ids, positions, velocities), InputError);
  try {
    m.observe(2.0, std::vector<AgentId>{{1, 0}, {1, 0}}, positions, velocities);
    FAIL() << "a repeated id was accepted";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "measurements: agent 1 (generation 0) is listed twice");
  }
  EXPECT_EQ(m.areas()[0].time.size(), 1u);
  EXPECT_EQ(m.lines()[0].time.size(), 1u);
  m.observe(2.0, ids, positions, velocities);  // Still usable.
  EXPECT_EQ(m.areas()[0].count, (std::vector<std::int64_t>{2, 2}));
}

// A random crowd walking for 20 samples through two areas and two lines.
Measurements measureRandomWalk(bool reversed, int threads) {
  MeasurementPlan plan;
  plan.areas.push_back(rectangle("a", 2, 2, 8, 6));
  plan.areas.push_back(MeasurementArea{"b", {{5, 5}, {9, 7}, {6, 9}, {6.5f, 7}}});
  plan.lines.push_back(MeasurementLine{"x", Vec2(5, 0), Vec2(5, 10)});
  plan.lines.push_back(MeasurementLine{"y", Vec2(0, 5), Vec2(10, 5)});
  plan.threads = threads;
  Measurements m(plan);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> coord(0.0f, 10.0f);
  std::uniform_real_distribution<float> speed(-1.5f, 1.5f);
  Crowd crowd;
  for (int i = 0; i < 300; ++i) crowd.add(Vec2(coord(rng), coord(rng)), Vec2(speed(rng), speed(rng)));
  if (reversed) {
    std::reverse(crowd.ids.begin(), crowd.ids.end());
    std::reverse(crowd.positions.begin(), crowd.positions.end());
    std::reverse(crowd.velocities.begin(), crowd.velocities.end());
  }
  for (int k = 0; k < 20; ++k) {
    crowd.observeBy(m, 0.1 * k);
    for (std::size_t i = 0; i < crowd.positions.size(); ++i) crowd.positions[i] += 0.1f * crowd.velocities[i];
  }
  return m;
}

TEST(Measurement, SameInputSameResultsWhateverTheOrderOrThreads) {
  const std::string once = measureRandomWalk(false, 0).toJson();
  EXPECT_EQ(measureRandomWalk(false, 0).toJson(), once);
  EXPECT_EQ(measureRandomWalk(true, 0).toJson(), once);  // Agents listed the other way round.
  EXPECT_EQ(measureRandomWalk(false, 1).toJson(), once);
  EXPECT_EQ(measureRandomWalk(false, 3).toJson(), once);
  const Measurements m = measureRandomWalk(false, 0);
  EXPECT_GT(m.lines()[0].crossings.size(), 0u);  // The walk is not empty.
  EXPECT_GT(m.areas()[1].voronoiDensity[0], 0.0);
}

TEST(Measurement, JsonNamesEveryUnit) {
  MeasurementPlan plan;
  plan.areas.push_back(rectangle("square", 0, 0, 4, 4));
  plan.lines.push_back(MeasurementLine{"door", Vec2(0, 5), Vec2(0, -5)});
  plan.interval = 0.5;
  Measurements m(plan);
  Crowd crowd;
  crowd.add(Vec2(-0.5f, -1.0f), Vec2(2.0f, 0.0f));
  crowd.observeBy(m, 0.0);
  crowd.positions[0] = Vec2(0.5f, -1.0f);
  crowd.observeBy(m, 0.5);
  const nlohmann::json doc = measurementsJson(m);
  EXPECT_EQ(doc["interval_s"], 0.5);
  EXPECT_EQ(doc["voronoi_cut_off_m"], 1.0);
  EXPECT_EQ(doc["voronoi_resolution_m"], 0.02);  // As written in the plan, not as float widens it.
  const nlohmann::json& area = doc["areas"][0];
  EXPECT_EQ(area["name"], "square");
  EXPECT_EQ(area["area_m2"], 16.0);
  EXPECT_EQ(area["time_s"], nlohmann::json({0.0, 0.5}));
  EXPECT_EQ(area["count"], nlohmann::json({0, 0}));  // y = -1 is below the square.
  EXPECT_TRUE(area["speed_m_per_s"][0].is_null());   // A mean speed of nobody.
  EXPECT_EQ(area["density_per_m2"][0], 0.0);
  EXPECT_TRUE(area.contains("voronoi_density_per_m2"));
  EXPECT_TRUE(area.contains("voronoi_speed_m_per_s"));
  const nlohmann::json& line = doc["lines"][0];
  EXPECT_EQ(line["length_m"], 10.0);
  ASSERT_EQ(line["crossings"].size(), 1u);
  EXPECT_DOUBLE_EQ(line["crossings"][0]["time_s"].get<double>(), 0.25);
  EXPECT_EQ(line["crossings"][0]["dir"], 1);
  EXPECT_EQ(line["crossings"][0]["agent"], 0);
  EXPECT_EQ(line["nt"]["forward"], nlohmann::json({0, 1}));
  EXPECT_EQ(line["nt"]["backward"], nlohmann::json({0, 0}));
  EXPECT_DOUBLE_EQ(line["flow_per_s"]["forward"].get<double>(), 2.0);  // One in 0.5 s.
  EXPECT_DOUBLE_EQ(line["specific_flow_per_m_s"]["forward"].get<double>(), 0.2);
  EXPECT_EQ(nlohmann::json::parse(m.toJson()), doc);
}

}  // namespace
}  // namespace crowd
