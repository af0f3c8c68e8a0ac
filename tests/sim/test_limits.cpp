// The table of limits (crowd/limits.hpp): messages that name each bound, checkAgentParams for
// library users, and runs at the very edges of the table that must stay finite in float32.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <crowd/crowd.hpp>

namespace crowd {
namespace {

using ::testing::HasSubstr;

TEST(Limits, ProblemsNameTheBound) {
  EXPECT_EQ(limitProblem(1.2e30, limits::kRadius), "must be <= 10000 (the radius limit)");
  EXPECT_EQ(limitProblem(-1.0, limits::kRadius), "must be >= 0");
  EXPECT_EQ(limitProblem(0.0, limits::kTimeHorizon), "must be >= 1e-4 (the time horizon limit)");
  EXPECT_EQ(limitProblem(2e19, limits::kCoordinate), "must be between -1e6 and 1e6 (the coordinate limit)");
  EXPECT_EQ(limitProblem(-2e19, limits::kCoordinate), "must be between -1e6 and 1e6 (the coordinate limit)");
  EXPECT_EQ(limitProblem(1e-45, limits::kTimeStep), "must be >= 1e-6 (the time step limit)");
  EXPECT_EQ(limitProblem(std::nan(""), limits::kSpeed), "must be a finite number");
  EXPECT_EQ(limitProblem(-INFINITY, limits::kGoalRadius), "must be a finite number");
  EXPECT_EQ(limitProblem(-5e30, limits::kGoalRadius), "");  // Negative: "use the radius".
  EXPECT_EQ(limitProblem(33, limits::kNeighborCount), "must be <= 32 (the neighbour count limit)");
}

TEST(Limits, BoundsAreInclusiveForTheFloatAUserWrites) {
  // Each end of each range is accepted; the next float beyond it is not.
  const Limit all[] = {limits::kCoordinate,  limits::kVelocity,     limits::kRadius,
                       limits::kSpeed,       limits::kNeighborDist, limits::kNeighborCount,
                       limits::kTimeHorizon, limits::kGoalRadius,   limits::kTimeStep};
  for (const Limit& limit : all) {
    SCOPED_TRACE(limit.name);
    EXPECT_EQ(limitProblem(limit.max, limit), "");
    EXPECT_NE(limitProblem(std::nextafter(limit.max, INFINITY), limit), "");
    if (std::isfinite(limit.min)) {
      EXPECT_EQ(limitProblem(limit.min, limit), "");
      EXPECT_NE(limitProblem(std::nextafter(limit.min, -INFINITY), limit), "");
    }
  }
  // A file's "0.0001" becomes the float nearest it, which is a little below 1e-4 as a double.
  EXPECT_LT(static_cast<double>(0.0001f), 0.0001);
  EXPECT_EQ(limitProblem(0.0001f, limits::kTimeHorizon), "");
}

TEST(Limits, CheckAgentParamsAppliesTheTable) {
  EXPECT_EQ(checkAgentParams(AgentParams{}), "");
  struct Case {
    void (*change)(AgentParams&);
    const char* message;
  };
  const Case cases[] = {
      {[](AgentParams& p) { p.radius = 1.2e30f; }, "radius must be <= 10000 (the radius limit), got 1.2e30"},
      {[](AgentParams& p) { p.radius = 3.4e38f; }, "radius must be <= 10000 (the radius limit), got 3.4e38"},
      {[](AgentParams& p) { p.maxSpeed = 2e4f; }, "maxSpeed must be <= 10000 (the speed limit), got 20000"},
      {[](AgentParams& p) { p.prefSpeed = NAN; }, "prefSpeed must be a finite number, got nan"},
      {[](AgentParams& p) { p.neighborDist = 1e6f; },
       "neighborDist must be <= 1e5 (the neighbour distance limit), got 1e6"},
      {[](AgentParams& p) { p.timeHorizon = 1e-5f; },
       "timeHorizon must be >= 1e-4 (the time horizon limit), got 1e-5"},
      {[](AgentParams& p) { p.timeHorizonObst = 1e7f; },
       "timeHorizonObst must be <= 1e6 (the time horizon limit), got 1e7"},
      {[](AgentParams& p) { p.goalRadius = 2e6f; },
       "goalRadius must be <= 1e6 (the goal radius limit), got 2e6"},
      {[](AgentParams& p) { p.maxNeighbors = -3; }, "maxNeighbors must be >= 0, got -3"},
  };
  for (const Case& c : cases) {
    AgentParams params;
    c.change(params);
    EXPECT_EQ(checkAgentParams(params), c.message);
  }
}

TEST(Limits, CoordinatesAndVelocitiesNameTheComponent) {
  EXPECT_EQ(checkCoordinate(Vec2(1e6f, -1e6f), "position"), "");
  EXPECT_EQ(checkCoordinate(Vec2(0.0f, 2e19f), "position"),
            "position y must be between -1e6 and 1e6 (the coordinate limit), got 2e19");
  EXPECT_EQ(checkCoordinate(Vec2(NAN, 0.0f), "goal"), "goal x must be a finite number, got nan");
  EXPECT_EQ(checkVelocity(Vec2(-2e4f, 0.0f), "velocity"),
            "velocity x must be between -10000 and 10000 (the velocity limit), got -20000");
  EXPECT_EQ(checkLimit(1e-45f, limits::kTimeStep, "timeStep"),
            "timeStep must be >= 1e-6 (the time step limit), got 1e-45");
}

TEST(Limits, SimulatorRefusesParamsBeyondTheTable) {
  Simulator sim;
  AgentDef def;
  def.params.radius = 1.2e30f;
  EXPECT_THROW(sim.addAgent(def), std::invalid_argument);
  def.params = AgentParams{};
  def.params.timeHorizon = 1e-30f;
  EXPECT_THROW(sim.addAgent(def), std::invalid_argument);
  EXPECT_EQ(sim.agentCount(), 0u);
}

// ---- runs at the edges of the table stay finite -----------------------------------------------

void expectFiniteRun(Simulator& sim, int steps) {
  for (int s = 0; s < steps; ++s) {
    sim.step();
    for (const Vec2 p : sim.positions())
      ASSERT_TRUE(std::isfinite(p.x) && std::isfinite(p.y)) << "step " << s;
    for (const Vec2 v : sim.velocities())
      ASSERT_TRUE(std::isfinite(v.x) && std::isfinite(v.y)) << "step " << s;
  }
}

AgentParams extremeParams(float timeHorizon) {
  AgentParams params;
  params.radius = limits::kRadius.max;
  params.maxSpeed = limits::kSpeed.max;
  params.prefSpeed = limits::kSpeed.max;
  params.neighborDist = limits::kNeighborDist.max;
  params.maxNeighbors = kMaxNeighbors;
  params.timeHorizon = timeHorizon;
  params.timeHorizonObst = timeHorizon;
  params.goalRadius = limits::kGoalRadius.max;
  return params;
}

// Agents in every ORCA case at once: overlapping pairs (the one-step cut-off, 1 / timeStep),
// neighbours at the edge of neighborDist (the largest cut-off centres, 1 / timeHorizon), all at
// the corners of the coordinate range, moving at the velocity limit, beside obstacles whose
// vertices sit on the limit.
Scenario extremeScenario(float timeStep, float timeHorizon) {
  Scenario scenario;
  scenario.name = "extreme";
  scenario.timeStep = timeStep;
  const float edge = limits::kCoordinate.max;
  const float speed = limits::kVelocity.max;
  const float spacing[] = {0.0f, 1.0f, 1.5e4f, 9e4f};  // Coincident, overlapping, near, far.
  for (const float sx : {-1.0f, 1.0f}) {
    for (const float sy : {-1.0f, 1.0f}) {
      for (std::size_t k = 0; k < std::size(spacing); ++k) {
        AgentDef agent;
        agent.position = Vec2(sx * (edge - spacing[k]), sy * edge);
        agent.velocity = Vec2(-sx * speed, (k % 2 == 0 ? 1.0f : -1.0f) * speed);
        agent.goal = Vec2(-sx * edge, -sy * edge);
        agent.params = extremeParams(timeHorizon);
        scenario.agents.push_back(agent);
      }
    }
  }
  // A boundary on the limit around everyone, and a solid square and a wall segment among them.
  scenario.obstacles.push_back({{-edge, -edge}, {-edge, edge}, {edge, edge}, {edge, -edge}});
  scenario.obstacles.push_back(
      {{edge - 3e4f, edge - 3e4f}, {edge - 1e3f, edge - 3e4f}, {edge - 1e3f, edge - 1e3f}});
  scenario.obstacles.push_back({{-edge, edge - 5e3f}, {-edge + 5e4f, edge - 5e3f}});
  return scenario;
}

TEST(Limits, RunsAtTheShortestTimeStepAndHorizonsStayFinite) {
  Scenario scenario = extremeScenario(limits::kTimeStep.min, limits::kTimeHorizon.min);
  Simulator sim = makeSimulator(scenario, 1);
  expectFiniteRun(sim, 5);
}

TEST(Limits, RunsAtTheLongestTimeStepAndHorizonsStayFinite) {
  // Each step moves agents up to 1e4 * 1e3 = 1e7, far past the coordinate range.
  Scenario scenario = extremeScenario(limits::kTimeStep.max, limits::kTimeHorizon.max);
  Simulator sim = makeSimulator(scenario, 1);
  expectFiniteRun(sim, 20);
}

TEST(Limits, ExtremeScenarioPassesTheReader) {
  // The same extremes written as a file are accepted: the limits are inclusive.
  const std::string text = R"({ "timeStep": 1e-6,
    "agentDefaults": { "radius": 10000, "maxSpeed": 10000, "prefSpeed": 10000,
      "neighborDist": 100000, "maxNeighbors": 32, "timeHorizon": 0.0001,
      "timeHorizonObst": 0.0001, "goalRadius": 1000000 },
    "agents": [ { "position": [1e6, 1e6], "velocity": [-1e4, 1e4], "goal": [-1e6, -1e6] },
                { "position": [999999, 1e6], "prefVelocity": [1e4, -1e4] } ],
    "groups": [ { "type": "circle", "count": 8, "radius": 5e5, "center": [-5e5, 5e5] } ],
    "obstacles": [ [[-1e6, -1e6], [-1e6, 1e6], [1e6, 1e6], [1e6, -1e6]] ] })";
  const Scenario scenario = parseScenario(text, "extreme.json");
  ASSERT_EQ(scenario.agents.size(), 10u);
  Simulator sim = makeSimulator(scenario, 1);
  expectFiniteRun(sim, 5);
}

}  // namespace
}  // namespace crowd
