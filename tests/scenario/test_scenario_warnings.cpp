// Winding warnings: a clockwise polygon is a boundary that keeps agents inside; one that holds
// no agent was almost always meant as a solid obstacle. Checked against a brute-force count, and
// cheap for many agents and polygons.
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <crowd/scenario.hpp>

namespace crowd {
namespace {

using Polygon = std::vector<Vec2>;

// An axis-aligned square around `c`, counter-clockwise (solid) or clockwise (boundary).
Polygon square(Vec2 c, float half, bool clockwise) {
  Polygon p{c + Vec2(-half, -half), c + Vec2(half, -half), c + Vec2(half, half), c + Vec2(-half, half)};
  if (clockwise) std::reverse(p.begin(), p.end());
  return p;
}

Scenario withAgentsAt(const std::vector<Vec2>& positions) {
  Scenario scenario;
  for (const Vec2 p : positions) {
    AgentDef agent;
    agent.position = p;
    agent.params.radius = 0.5f;
    scenario.agents.push_back(agent);
  }
  return scenario;
}

const std::string kOneEmpty =
    " is clockwise (a boundary that keeps agents inside) but encloses no agent; list its vertices "
    "counter-clockwise for a solid obstacle";

TEST(ScenarioWinding, ClockwisePolygonWithNoAgentInsideIsFlagged) {
  Scenario scenario = withAgentsAt({{0, 0}, {50, 50}});
  scenario.obstacles.push_back(square({20, 20}, 5, true));
  addWindingWarnings(scenario);
  EXPECT_EQ(scenario.warnings, std::vector<std::string>{"obstacle 0" + kOneEmpty});
}

TEST(ScenarioWinding, SolidsBoundariesInUseAndWallsAreNot) {
  Scenario scenario = withAgentsAt({{0, 0}, {50, 50}});
  scenario.obstacles.push_back(square({20, 20}, 5, false));  // Solid, as meant.
  scenario.obstacles.push_back(square({50, 50}, 10, true));  // A boundary around agent 1.
  scenario.obstacles.push_back({{-30, -30}, {-30, 30}});     // A wall segment has no inside.
  scenario.obstacles.push_back(square({0, 0}, 100, true));   // A room around everyone.
  addWindingWarnings(scenario);
  EXPECT_TRUE(scenario.warnings.empty()) << scenario.warnings.front();
}

TEST(ScenarioWinding, AConcaveBoundaryMustHoldTheAgentNotJustItsBox) {
  // A U open to the north, clockwise; the agent stands in the notch, inside the bounding box
  // but outside the polygon.
  Scenario scenario = withAgentsAt({{5, 8}});
  scenario.obstacles.push_back({{0, 0}, {0, 10}, {2, 10}, {2, 2}, {8, 2}, {8, 10}, {10, 10}, {10, 0}});
  ASSERT_LT(signedArea(scenario.obstacles[0]), 0.0f);
  addWindingWarnings(scenario);
  EXPECT_EQ(scenario.warnings, std::vector<std::string>{"obstacle 0" + kOneEmpty});
}

TEST(ScenarioWinding, SeveralAreCountedAndTheFirstNamed) {
  Scenario scenario = withAgentsAt({{0, 0}});
  scenario.obstacles.push_back(square({0, 0}, 5, true));    // Holds agent 0.
  scenario.obstacles.push_back(square({30, 0}, 5, true));   // Empty.
  scenario.obstacles.push_back(square({60, 0}, 5, false));  // Solid.
  scenario.obstacles.push_back(square({90, 0}, 5, true));   // Empty.
  addWindingWarnings(scenario);
  EXPECT_EQ(
      scenario.warnings,
      std::vector<std::string>{"2 obstacles are clockwise (boundaries that keep agents inside) but enclose "
                               "no agent (first: obstacle 1); list their vertices counter-clockwise for "
                               "solid obstacles"});
}

TEST(ScenarioWinding, FilesGetTheWarningOnceAndGroupsCount) {
  // A room drawn clockwise around a circle group, and a pillar drawn clockwise by mistake.
  const Scenario scenario = parseScenario(R"({
    "groups": [ { "type": "circle", "count": 12, "radius": 20 } ],
    "obstacles": [ [[-30, -30], [-30, 30], [30, 30], [30, -30]],
                   [[40, 40], [40, 44], [44, 44], [44, 40]] ] })",
                                          "room.json");
  EXPECT_EQ(scenario.warnings, std::vector<std::string>{"obstacle 1" + kOneEmpty});
  // With no agents at all there is nothing to enclose; "no agents" says it all.
  const Scenario empty =
      parseScenario(R"({ "obstacles": [ [[40, 40], [40, 44], [44, 44], [44, 40]] ] })", "e.json");
  EXPECT_EQ(empty.warnings, std::vector<std::string>{"no agents"});
}

TEST(ScenarioWinding, MatchesBruteForceForManyAgentsAndPolygons) {
  std::mt19937 random(2024);
  std::uniform_real_distribution<float> coordinate(-500.0f, 500.0f);
  std::uniform_real_distribution<float> size(0.5f, 6.0f);
  std::vector<Vec2> positions;
  for (int i = 0; i < 20000; ++i) positions.emplace_back(coordinate(random), coordinate(random));
  Scenario scenario = withAgentsAt(positions);
  for (int k = 0; k < 3000; ++k) {
    scenario.obstacles.push_back(
        square(Vec2(coordinate(random), coordinate(random)), size(random), k % 3 != 0));
  }
  scenario.obstacles.push_back(square({0, 0}, 600, true));  // Holds everyone.

  std::size_t empty = 0;
  std::size_t first = 0;
  for (std::size_t p = 0; p < scenario.obstacles.size(); ++p) {
    const Polygon& polygon = scenario.obstacles[p];
    if (signedArea(polygon) >= 0.0f) continue;
    const Vec2 lo = polygon[0];  // Clockwise squares start at the top-left corner.
    const Vec2 hi = polygon[2];
    const bool holds = std::any_of(positions.begin(), positions.end(), [&](Vec2 a) {
      return a.x > std::min(lo.x, hi.x) && a.x < std::max(lo.x, hi.x) && a.y > std::min(lo.y, hi.y) &&
             a.y < std::max(lo.y, hi.y);
    });
    if (!holds && empty++ == 0) first = p;
  }
  ASSERT_GT(empty, 100u);
  addWindingWarnings(scenario);
  ASSERT_EQ(scenario.warnings.size(), 1u);
  EXPECT_THAT(scenario.warnings[0],
              ::testing::StartsWith(std::to_string(empty) + " obstacles are clockwise"));
  EXPECT_THAT(scenario.warnings[0], ::testing::HasSubstr("(first: obstacle " + std::to_string(first) + ")"));
}

}  // namespace
}  // namespace crowd
