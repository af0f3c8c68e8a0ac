// Navigation in the simulator (crowd/navigation.hpp): routes planned for agents given goals on a
// map, the nearest exit, unreachable goals, and re-planning an agent pushed off its route.
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <crowd/metrics.hpp>
#include <crowd/navigation.hpp>
#include <crowd/scenario.hpp>

namespace crowd {
namespace {

// Two corridors, 3 m wide, one above the other, joined only at the east end (x 17 to 20). Cells
// of 1 m; world y grows with the row.
GridMap twoCorridors() {
  const std::vector<std::string> rows = {
      "....................",  //
      "....................",  //
      "....................",  //
      "@@@@@@@@@@@@@@@@@...",  //
      "....................",  //
      "....................",  //
      "....................",  //
  };
  return GridMap::fromRows(rows, "two corridors");
}

AgentDef person(Vec2 position) {
  AgentDef agent;
  agent.position = position;
  agent.params.radius = 0.3f;
  agent.params.maxSpeed = 1.5f;
  agent.params.prefSpeed = 1.0f;
  agent.params.neighborDist = 3.0f;
  agent.params.timeHorizon = 2.0f;
  agent.params.timeHorizonObst = 1.0f;
  agent.params.goalRadius = 0.5f;
  return agent;
}

Simulator mapSimulator(const GridMap& map, const NavigationOptions& options = {}) {
  SimulatorConfig config;
  config.threads = 1;
  Simulator sim(config);
  for (const std::vector<Vec2>& outline : traceObstacleOutlines(map)) sim.addObstacle(outline);
  sim.setNavigation(map, options);
  return sim;
}

bool runUntilArrived(Simulator& sim, AgentId id, int steps) {
  for (int s = 0; s < steps && !sim.hasArrived(id); ++s) sim.step();
  return sim.hasArrived(id);
}

TEST(Navigation, RoutesAnAgentRoundTheWall) {
  Simulator sim = mapSimulator(twoCorridors());
  const AgentId id = sim.addAgent(person(Vec2(1.5f, 5.5f)));
  const Vec2 goal(1.5f, 1.5f);  // Just across the wall: the way round is 34 m.
  sim.navigate(id, std::span<const Vec2>(&goal, 1));
  sim.step();
  EXPECT_EQ(sim.navigationStats().planned, 1);
  ASSERT_GE(sim.route(id), 0);
  EXPECT_EQ(sim.goal(id), goal);
  const std::span<const Vec2> route = sim.pathPoints(sim.route(id));
  float east = 0.0f;
  for (const Vec2 p : route) east = std::max(east, p.x);
  EXPECT_GT(east, 17.0f) << "the route goes round the east end";
  EXPECT_TRUE(runUntilArrived(sim, id, 400));
  EXPECT_EQ(sim.navigationStats().replans, 0) << "nothing pushed it off its route";
}

TEST(Navigation, TakesTheNearestExitByRoute) {
  Simulator sim = mapSimulator(twoCorridors());
  const AgentId id = sim.addAgent(person(Vec2(2.5f, 5.5f)));
  // The first exit is nearer in a straight line (through the wall), the second by route.
  const std::vector<Vec2> exits = {Vec2(2.5f, 1.5f), Vec2(10.5f, 6.0f)};
  sim.navigate(id, exits);
  sim.step();
  EXPECT_EQ(sim.goal(id), exits[1]);
}

TEST(Navigation, AgentPushedOffItsRouteReplans) {
  // The agent walks east along the south corridor, round the east end and back west along the
  // north one; half-way back it is moved into the south corridor below. Seeking its route's next
  // point, up and west, slides it along the wall into the south corridor's dead end: only a new
  // route, east round the end again, gets it home.
  for (const float replanAfter : {2.0f, 0.0f}) {
    NavigationOptions options;
    options.replanAfter = replanAfter;
    Simulator sim = mapSimulator(twoCorridors(), options);
    const AgentId id = sim.addAgent(person(Vec2(1.5f, 5.5f)));
    const Vec2 goal(1.5f, 1.5f);
    sim.navigate(id, std::span<const Vec2>(&goal, 1));
    for (int s = 0; s < 400 && !(sim.position(id).y < 3.0f && sim.position(id).x < 11.0f); ++s) sim.step();
    ASSERT_LT(sim.position(id).y, 3.0f) << "on its way back west";
    sim.setPosition(id, Vec2(sim.position(id).x, 5.5f));
    sim.setVelocity(id, Vec2(0.0f, 0.0f));
    const bool arrived = runUntilArrived(sim, id, 400);
    if (replanAfter > 0.0f) {
      EXPECT_TRUE(arrived);
      EXPECT_GE(sim.navigationStats().replans, 1);
    } else {
      EXPECT_FALSE(arrived) << "without re-planning it stays in the dead end under its old route";
      EXPECT_LT(sim.position(id).x, 3.0f) << "pressed into the dead end";
      EXPECT_EQ(sim.navigationStats().replans, 0);
    }
  }
}

TEST(Navigation, UnreachableGoalLeavesTheAgentStanding) {
  const std::vector<std::string> rows = {"....@....", "....@....", "....@...."};
  const GridMap map = GridMap::fromRows(rows, "cut");
  Simulator sim = mapSimulator(map);
  const AgentId id = sim.addAgent(person(Vec2(1.5f, 1.5f)));
  const Vec2 goal(7.5f, 1.5f);
  sim.navigate(id, std::span<const Vec2>(&goal, 1));
  for (int s = 0; s < 20; ++s) sim.step();
  EXPECT_EQ(sim.navigationStats().unreachable, 1);
  EXPECT_FALSE(sim.goal(id).has_value());
  EXPECT_EQ(sim.position(id), Vec2(1.5f, 1.5f));
}

TEST(Navigation, RejectsMisuse) {
  Simulator plain;
  const AgentId id = plain.addAgent(person(Vec2(1.5f, 1.5f)));
  const Vec2 goal(3.0f, 1.5f);
  EXPECT_THROW(plain.navigate(id, std::span<const Vec2>(&goal, 1)), std::logic_error);
  EXPECT_FALSE(plain.hasNavigation());
  EXPECT_EQ(plain.navigationStats().agents, 0);

  NavigationOptions bad;
  bad.replanDistance = 0.0f;
  EXPECT_THROW(plain.setNavigation(twoCorridors(), bad), std::invalid_argument);
  bad = NavigationOptions{};
  bad.replanAfter = -1.0f;
  EXPECT_THROW(plain.setNavigation(twoCorridors(), bad), std::invalid_argument);

  plain.setNavigation(twoCorridors());
  EXPECT_THROW(plain.navigate(id, std::span<const Vec2>()), std::invalid_argument);
  const Vec2 far(2e6f, 0.0f);
  EXPECT_THROW(plain.navigate(id, std::span<const Vec2>(&far, 1)), std::invalid_argument);
}

TEST(Navigation, ScenarioKeysAndMetrics) {
  const std::string map = R"("map": {"rows": ["..........", "..........", ".........."]})";
  const Scenario s =
      parseScenario(R"({"steps": 40, )" + map + R"(, "route": {"replanAfter": 0, "replanDistance": 0.25},
        "agents": [{"position": [1.5, 1.5], "goal": [8.5, 1.5], "radius": 0.3}]})",
                    "keys.json");
  EXPECT_EQ(s.route.replanAfter, 0.0f);
  EXPECT_EQ(s.route.replanDistance, 0.25f);
  for (const char* bad : {R"("replanDistance": 0)", R"("replanAfter": -1)", R"("replanEvery": 1)"}) {
    EXPECT_THROW(
        parseScenario(R"({)" + map + R"(, "route": {)" + bad + R"(}, "agents": [{"position": [1.5, 1.5]}]})",
                      "bad.json"),
        ScenarioError)
        << bad;
  }

  Simulator sim = makeSimulator(s, 1);
  ASSERT_TRUE(sim.hasNavigation());
  MetricsCollector metrics;
  metrics.observe(sim);
  sim.step();
  metrics.observe(sim);
  // The route planned when the scenario was expanded is kept, not planned again.
  EXPECT_EQ(sim.navigationStats().agents, 1);
  EXPECT_EQ(sim.navigationStats().planned, 0);
  ASSERT_TRUE(metrics.result().navigation);
  const std::string json = metrics.result().toJson();
  EXPECT_NE(json.find("\"unreachable\": 0"), std::string::npos);
  EXPECT_NE(json.find("\"replans\": 0"), std::string::npos);
}

TEST(Navigation, EvacuationWithReplansIsTheSameForAnyThreadCount) {
  const Scenario scenario = builtinScenario("evacuation", 400, 2);
  std::uint64_t hashes[2] = {};
  std::int64_t replans[2] = {};
  for (const int threads : {1, 2}) {
    Simulator sim = makeSimulator(scenario, threads);
    for (int s = 0; s < 300; ++s) sim.step();
    hashes[threads - 1] = sim.stateHash();
    replans[threads - 1] = sim.navigationStats().replans;
  }
  EXPECT_GT(replans[0], 0) << "the crowd pushes some off their routes";
  EXPECT_EQ(hashes[0], hashes[1]);
  EXPECT_EQ(replans[0], replans[1]);
}

}  // namespace
}  // namespace crowd
