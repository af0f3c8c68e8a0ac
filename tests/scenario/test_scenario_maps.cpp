// Scenario maps: reading "map", "route" and "exits", routing agents round walls, the choice of
// the nearest exit, starts and goals in walls, unreachable goals, and the navigation built-ins.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include <crowd/metrics.hpp>
#include <crowd/scenario.hpp>

#include "scenario_error_text.hpp"

namespace crowd {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

bool anyWarning(const Scenario& scenario, const std::string& part) {
  for (const std::string& w : scenario.warnings) {
    if (contains(w, part)) return true;
  }
  return false;
}

struct RunResult {
  RunMetrics metrics;
  std::size_t left = 0;  // Agents still in the simulator.
};

RunResult runToEnd(const Scenario& scenario, int threads = 2) {
  Simulator sim = makeSimulator(scenario, threads);
  MetricsCollector metrics;
  metrics.observe(sim);
  for (std::int64_t s = 0; s < scenario.steps; ++s) {
    sim.step();
    metrics.observe(sim);
    if (metrics.result().arrived == metrics.result().agentsWithGoal) break;
  }
  return {metrics.result(), sim.agentCount()};
}

// A 10 x 7 room with a wall across the middle, open at its north end (rows grow with y).
const char* kWallRows = R"(["..........", "..........", "....@.....", "....@.....", "....@.....",
                            "....@.....", "....@....."])";

TEST(ScenarioMaps, ReadsRowsCellSizeAndOrigin) {
  const Scenario s = parseScenario(std::string(R"({"map": {"rows": )") + kWallRows +
                                       R"(, "cellSize": 2, "origin": [10, 20]},
        "agents": [{"position": [13, 33], "goal": [25, 33], "radius": 0.5}]})",
                                   "walls.json");
  ASSERT_TRUE(s.map);
  EXPECT_EQ(s.map->width(), 10);
  EXPECT_EQ(s.map->height(), 7);
  EXPECT_EQ(s.map->placement().cellSize, 2.0f);
  EXPECT_FALSE(s.obstacles.empty());  // The wall and the map's edge.
  ASSERT_EQ(s.routeOffsets.size(), 2u);
  EXPECT_GE(s.routeOffsets[1] - s.routeOffsets[0], 3);  // Round the wall's north end.
  EXPECT_EQ(s.agents[0].behavior.path, kOwnRoute);
}

TEST(ScenarioMaps, ReadsMapFileBesideScenario) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "crowd_test_scenario_maps";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "room.map") << "type octile\nheight 4\nwidth 5\nmap\n.....\n.@@@.\n.....\n.....\n";
  std::ofstream(dir / "room.json") << R"({"map": "room.map", "route": {"heuristic": "euclidean"},
      "agents": [{"position": [2.5, 0.5], "goal": [2.5, 2.5], "radius": 0.2}]})";
  const Scenario s = loadScenarioFile((dir / "room.json").string());
  ASSERT_TRUE(s.map);
  EXPECT_EQ(s.map->width(), 5);
  EXPECT_EQ(s.route.planner.heuristic, GridHeuristic::Euclidean);
  std::ofstream(dir / "bad.map") << "type octile\nheight 2\nwidth 3\nmap\n...\n.x.\n";
  std::ofstream(dir / "bad.json") << R"({"map": {"file": "bad.map"}, "agents": []})";
  try {
    loadScenarioFile((dir / "bad.json").string());
    FAIL() << "a malformed map was accepted";
  } catch (const ScenarioError& error) {
    EXPECT_TRUE(contains(error.what(), "/map/file: ")) << error.what();
    EXPECT_TRUE(contains(error.what(), "bad.map:6:2:")) << error.what();
  }
  std::filesystem::remove_all(dir);
}

TEST(ScenarioMaps, ErrorsNameTheirPlace) {
  EXPECT_TRUE(contains(scenarioErrorFor(R"({"map": {"rows": ["...", ".x."]}})", "m.json"),
                       "m.json: /map/rows/1: column 2"));
  EXPECT_TRUE(contains(scenarioErrorFor(R"({"agents": [{"position": [0, 0], "exits": [[1, 1]]}]})", "m.json"),
                       "m.json: /agents/0/exits: exits need a map"));
  EXPECT_TRUE(contains(scenarioErrorFor(R"({"map": {"rows": ["..."]}, "agents": [{"position": [0, 0],
      "goal": [1, 0], "exits": [[1, 1]]}]})",
                                        "m.json"),
                       "has both 'exits' and 'goal'"));
  EXPECT_TRUE(contains(scenarioErrorFor(R"({"map": {"rows": ["..."], "cellSize": 0}})", "m.json"),
                       "/map/cellSize: must be > 0"));
  EXPECT_TRUE(contains(
      scenarioErrorFor(R"({"map": {"rows": ["..."]}, "route": {"heuristic": "dijkstra"}})", "m.json"),
      "/route/heuristic: unknown heuristic"));
  const std::string wide = R"({"map": {"rows": [")" + std::string(16385, '.') + R"("]}})";
  const std::string tooWide = scenarioErrorFor(wide, "m.json");
  EXPECT_TRUE(contains(tooWide, "/map/rows/0")) << tooWide;
  EXPECT_TRUE(contains(tooWide, "16384")) << tooWide;
}

TEST(ScenarioMaps, RoutedRoundAWallWithoutPenetrating) {
  const Scenario s =
      parseScenario(std::string(R"({"timeStep": 0.1, "steps": 600, "map": {"rows": )") + kWallRows +
                        R"(}, "agents": [{"position": [2, 2], "goal": [8, 2], "radius": 0.3,
        "timeHorizonObst": 1, "goalRadius": 0.3, "pathRadius": 0.3, "lookAhead": 0.5}]})",
                    "wall.json");
  const RunResult run = runToEnd(s);
  EXPECT_EQ(run.metrics.arrived, 1u);
  EXPECT_EQ(run.metrics.penetrations, 0);
}

TEST(ScenarioMaps, NearestExitByRouteLength) {
  // The west exit is nearer in a straight line but behind a long wall; the east one is nearer
  // by route.
  const char* rows = R"(["..........", "@@@@@@@@@.", "..........", ".........."])";
  const Scenario s = parseScenario(std::string(R"({"map": {"rows": )") + rows + R"(},
        "agents": [{"position": [3.5, 2.5], "exits": [[0.5, 0.5], [9.5, 3.5]], "radius": 0.2}]})",
                                   "exits.json");
  ASSERT_TRUE(s.agents[0].goal);
  EXPECT_EQ(*s.agents[0].goal, Vec2(9.5f, 3.5f));
}

TEST(ScenarioMaps, StartInWallMovesWithWarning) {
  const Scenario s = parseScenario(std::string(R"({"map": {"rows": )") + kWallRows + R"(},
        "agents": [{"position": [4.5, 5.5], "goal": [8, 2], "radius": 0.3}]})",
                                   "wall.json");
  EXPECT_TRUE(anyWarning(s, "starts inside a wall")) << (s.warnings.empty() ? "" : s.warnings[0]);
  EXPECT_NE(s.agents[0].position, Vec2(4.5f, 5.5f));
}

TEST(ScenarioMaps, UnreachableGoalLeavesAgentInPlace) {
  const char* rows = R"(["....@....", "....@....", "....@...."])";
  const Scenario s = parseScenario(std::string(R"({"steps": 50, "map": {"rows": )") + rows + R"(},
        "agents": [{"position": [1.5, 1.5], "goal": [7.5, 1.5], "radius": 0.3}]})",
                                   "cut.json");
  EXPECT_EQ(s.unreachableAgents, 1u);
  EXPECT_TRUE(anyWarning(s, "cannot reach its goal"));
  EXPECT_FALSE(s.agents[0].goal);
  Simulator sim = makeSimulator(s, 1);
  for (int i = 0; i < 50; ++i) sim.step();
  EXPECT_EQ(sim.position(sim.ids()[0]), Vec2(1.5f, 1.5f));
}

// The auditor's narrow.json: room A (x 0 to 1 m, west of a wall at 1.0 to 1.25 m) is narrower
// than agents of radius 0.4 need, and the nearest cells with room lie beyond the wall. Neither
// agent may be routed through it: both stand, and the warning names the first.
TEST(ScenarioMaps, CrampedRoomIsNotLeftThroughItsWall) {
  std::string rows = "[";
  for (int y = 0; y < 16; ++y) rows += std::string(y == 0 ? "" : ", ") + "\"....@...............\"";
  rows += "]";
  const Scenario s = parseScenario(std::string(R"({"timeStep": 0.1, "steps": 300, "map": {"rows": )") + rows +
                                       R"(, "cellSize": 0.25}, "agents": [
        {"position": [0.5, 2.0], "goal": [4.0, 2.0], "radius": 0.4},
        {"position": [4.0, 3.0], "goal": [0.5, 3.0], "radius": 0.4}]})",
                                   "narrow.json");
  EXPECT_EQ(s.unreachableAgents, 2u);
  EXPECT_TRUE(anyWarning(s,
                         "2 agents start or have their goal in a spot too narrow for the agent, with no "
                         "room for it in straight sight (agent 0 first); left standing"))
      << ::testing::PrintToString(s.warnings);
  EXPECT_FALSE(s.agents[0].goal);
  EXPECT_FALSE(s.agents[1].goal);
  EXPECT_EQ(s.agents[0].position, Vec2(0.5f, 2.0f));
}

// A map's enclosed pocket is traced as a clockwise hole holding no agent: that is the map, not a
// polygon listed the wrong way round, so no advice to reverse it; a user's clockwise polygon
// still gets it.
TEST(ScenarioMaps, MapHolesAreNotWindingMistakes) {
  const char* rows = R"(["..........", "..@@@@....", "..@..@....", "..@@@@....", ".........."])";
  const Scenario s = parseScenario(std::string(R"({"map": {"rows": )") + rows + R"(},
        "agents": [{"position": [0.5, 0.5], "goal": [9.5, 4.5], "radius": 0.2}]})",
                                   "room.json");
  EXPECT_FALSE(anyWarning(s, "clockwise")) << ::testing::PrintToString(s.warnings);
  EXPECT_GT(s.mapObstacles, 1u);  // The ring and its hole (and the map's edge).
  const Scenario user = parseScenario(std::string(R"({"map": {"rows": )") + rows + R"(},
        "obstacles": [[[7, 1], [7, 2], [8, 2], [8, 1]]],
        "agents": [{"position": [0.5, 0.5], "goal": [9.5, 4.5], "radius": 0.2}]})",
                                      "room.json");
  EXPECT_TRUE(anyWarning(user, "obstacle 0 is clockwise")) << ::testing::PrintToString(user.warnings);
}

TEST(ScenarioMaps, SmallEvacuationEmpties) {
  const Scenario s = builtinScenario("evacuation", 60);
  const RunResult run = runToEnd(s);
  EXPECT_EQ(run.metrics.arrived, 60u);
  EXPECT_EQ(run.left, 0u);
  EXPECT_EQ(run.metrics.penetrations, 0);
}

TEST(ScenarioMaps, SmallMazeCrossed) {
  const Scenario s = builtinScenario("maze", 20);
  const RunResult run = runToEnd(s);
  EXPECT_EQ(run.metrics.arrived, 20u);
  EXPECT_EQ(run.metrics.penetrations, 0);
}

}  // namespace
}  // namespace crowd
