// Scene snapshots for the viewer (no OpenGL needed): instances, colour keys, the selected agent's
// neighbours and ORCA half-planes, picking an agent, and trails.
#include <gtest/gtest.h>

#include <crowd/viewer/scene.hpp>

namespace crowd::viewer {
namespace {

AgentDef walker(Vec2 position, Vec2 velocity) {
  AgentDef agent;
  agent.position = position;
  agent.velocity = velocity;
  agent.params.radius = 0.5f;
  agent.params.maxSpeed = 2.0f;
  agent.params.timeHorizon = 2.0f;
  return agent;
}

TEST(ViewerScene, InstancesCarryPositionHeadingRadiusAndSpeed) {
  Simulator sim;
  sim.addAgent(walker(Vec2(1, 2), Vec2(0, 1)));
  sim.addAgent(walker(Vec2(5, 2), Vec2(0, 0)));
  Frame frame;
  captureAgents(sim, ColorBy::Speed, frame);
  ASSERT_EQ(frame.agents.size(), 2u);
  const AgentInstance& a = frame.agents[0];
  EXPECT_EQ(Vec2(a.x, a.y), Vec2(1, 2));
  EXPECT_EQ(Vec2(a.hx, a.hy), Vec2(0, 1));
  EXPECT_EQ(a.radius, 0.5f);
  EXPECT_FLOAT_EQ(a.value, 0.5f) << "speed 1 of maxSpeed 2";
  EXPECT_EQ(Vec2(frame.agents[1].hx, frame.agents[1].hy), Vec2(0, 0)) << "no heading at rest";
  EXPECT_EQ(frame.agents[1].value, 0.0f);
  EXPECT_EQ(agentAt(frame, Vec2(5.3f, 2.2f)), frame.ids[1]);
  EXPECT_EQ(agentAt(frame, Vec2(3, 2)).index, AgentId{}.index) << "between them: nobody";
}

TEST(ViewerScene, DensityCountsNeighboursWithinTwoRadii) {
  Simulator sim;
  sim.addAgent(walker(Vec2(0, 0), Vec2(0, 0)));
  sim.addAgent(walker(Vec2(0.9f, 0), Vec2(0, 0)));  // Within 1 of the first.
  sim.addAgent(walker(Vec2(5, 0), Vec2(0, 0)));     // Alone.
  Frame frame;
  captureAgents(sim, ColorBy::Density, frame);
  EXPECT_FLOAT_EQ(frame.agents[0].value, 1.0f / 6.0f);
  EXPECT_FLOAT_EQ(frame.agents[1].value, 1.0f / 6.0f);
  EXPECT_EQ(frame.agents[2].value, 0.0f);
}

TEST(ViewerScene, HeadOnNeighbourGivesAHalfPlaneThatExcludesTheCurrentVelocity) {
  Simulator sim;
  const AgentId a = sim.addAgent(walker(Vec2(0, 0), Vec2(1, 0)));
  sim.addAgent(walker(Vec2(3, 0.1f), Vec2(-1, 0)));
  sim.addAgent(walker(Vec2(40, 0), Vec2(0, 0)));  // Beyond neighborDist: not shown.
  Frame frame;
  captureSelection(sim, a, frame);
  ASSERT_EQ(frame.links.size(), 2u) << "one neighbour";
  EXPECT_EQ(frame.links[1], Vec2(3, 0.1f));
  ASSERT_EQ(frame.halfPlanes.size(), 6u) << "a line, its tick, and the velocity";
  const Vec2 at = frame.halfPlanes[2];
  const Vec2 allowed = frame.halfPlanes[3] - at;
  // Heading straight at each other: the current velocity (1, 0), drawn at (1, 0), is not allowed.
  EXPECT_LT(dot(Vec2(1, 0) - at, allowed), 0.0f);
  EXPECT_EQ(frame.halfPlanes[5], Vec2(1, 0)) << "the velocity, drawn from the agent";

  captureSelection(sim, AgentId{}, frame);
  EXPECT_TRUE(frame.links.empty());
  EXPECT_TRUE(frame.halfPlanes.empty());
}

TEST(ViewerScene, TrailsFollowEachAgentAndRestartForANewOne) {
  Trails trails;
  Frame frame;
  frame.ids = {AgentId{0, 1}};
  for (const float x : {0.0f, 1.0f, 2.0f}) {
    frame.agents = {AgentInstance{x, 0, 1, 0, 0.5f, 0}};
    trails.update(frame);
  }
  ASSERT_EQ(frame.trails.size(), 4u);
  EXPECT_EQ(frame.trails[0], Vec2(1, 0));  // Newest piece first.
  EXPECT_EQ(frame.trails[1], Vec2(2, 0));
  EXPECT_EQ(frame.trails[3], Vec2(1, 0));
  // The slot reused by another agent (a new generation): its trail starts afresh.
  frame.ids = {AgentId{0, 2}};
  frame.agents = {AgentInstance{9, 9, 1, 0, 0.5f, 0}};
  trails.update(frame);
  EXPECT_TRUE(frame.trails.empty());
}

TEST(ViewerScene, MarksAreTheScenariosInTheSimulatorsFrame) {
  Scenario scenario;
  MeasurementPlan plan;
  plan.areas.push_back(MeasurementArea{"hall", {{100, 100}, {102, 100}, {102, 103}}});
  plan.lines.push_back(MeasurementLine{"door", {104, 99}, {104, 101}});
  scenario.measure = plan;
  scenario.exits.push_back(ExitSpec{0, 2, {{110, 100}, {90, 100}}});
  scenario.exits.push_back(ExitSpec{2, 1, {{110, 100}}});  // The same exit again: marked once.
  const Marks marks = scenarioMarks(scenario, glm::dvec2(100.0, 100.0));
  ASSERT_EQ(marks.areas.size(), 1u);
  EXPECT_EQ(marks.areas[0], (std::vector<Vec2>{{0, 0}, {2, 0}, {2, 3}}));
  ASSERT_EQ(marks.lines.size(), 1u);
  EXPECT_EQ(marks.lines[0][0], Vec2(4, -1));
  EXPECT_EQ(marks.lines[0][1], Vec2(4, 1));
  EXPECT_EQ(marks.exits, (std::vector<Vec2>{{-10, 0}, {10, 0}}));
}

TEST(ViewerScene, GoalsAreMarkedOnceAndNotWhenEveryoneHasTheirOwn) {
  Simulator shared;
  for (const float y : {0.0f, 2.0f, 4.0f}) {
    AgentDef agent = walker(Vec2(0, y), Vec2(0, 0));
    agent.goal = y > 0.0f ? Vec2(10, 0) : Vec2(-10, 0);
    shared.addAgent(agent);
  }
  EXPECT_EQ(StaticScene::fromSimulator(shared).marks.goals.size(), 2u);
  Simulator own;
  for (std::size_t i = 0; i <= Marks::kMaxGoals; ++i) {
    AgentDef agent = walker(Vec2(static_cast<float>(i) * 2.0f, 0), Vec2(0, 0));
    agent.goal = Vec2(static_cast<float>(i) * 2.0f, 10);
    own.addAgent(agent);
  }
  EXPECT_TRUE(StaticScene::fromSimulator(own).marks.goals.empty()) << Marks::kMaxGoals + 1 << " goals";
}

TEST(ViewerScene, LegendFactsSayTheCommonMaxSpeedAndTheKeysPresent) {
  Simulator sim;
  sim.addAgent(walker(Vec2(0, 0), Vec2(0, 0)));
  AgentDef other = walker(Vec2(3, 0), Vec2(0, 0));
  other.params.radius = 0.4f;  // A second profile, the same maximum speed.
  sim.addAgent(other);
  StaticScene scene = StaticScene::fromSimulator(sim);
  EXPECT_EQ(scene.commonMaxSpeed, 2.0f);
  EXPECT_EQ(scene.profileKeys, (std::vector<int>{0, 1}));
  EXPECT_EQ(scene.behaviorKeys, (std::vector<int>{1})) << "the goal rule, first behaviour kind 0";
  other.params.maxSpeed = 1.0f;
  other.position = Vec2(6, 0);
  sim.addAgent(other);
  EXPECT_EQ(StaticScene::fromSimulator(sim).commonMaxSpeed, 0.0f) << "speeds differ: none common";
}

}  // namespace
}  // namespace crowd::viewer
