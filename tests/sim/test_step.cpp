// The step as a whole: a step whose result is not finite is refused and leaves the state as it
// was; results do not depend on the grid's cell size; the cell size follows the search range.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <crowd/scenario.hpp>
#include <crowd/simulator.hpp>

#include "sim/backend.hpp"

namespace crowd {
namespace {

TEST(Step, NonFiniteResultIsRefusedAndNamesTheAgentAndStep) {
  // The backend on its own, with a state the simulator's input checks would refuse: agent 1
  // heads for a goal so far away that goal - position overflows float, so its preferred
  // velocity, and then its new velocity, are not finite. Agents 0 and 2 are ordinary.
  AgentStore agents;
  AgentRow row{};
  row.flags = kHasGoal;
  for (unsigned i = 0; i < 3; ++i) {
    row.id = AgentId{i, 0};
    row.position = i == 1 ? Vec2(-3.0e38f, 0.0f) : Vec2(100.0f * static_cast<float>(i), 0.0f);
    row.goal = i == 1 ? Vec2(3.0e38f, 0.0f) : row.position + Vec2(10.0f, 0.0f);
    agents.append(row);
  }
  const AgentStore before = agents;
  const ProfileTable profiles = makeProfileTable({AgentParams{}}, {Behavior{}});
  ObstacleSet obstacles;
  const std::unique_ptr<Backend> backend = makeCpuBackend();
  const StepReport report = backend->step(StepRequest{agents, profiles, obstacles, 0.25f, 0.0f, 2, 0.0f, false, 1, 1, nullptr, PathView{}, ReferenceLines{}});
  ASSERT_TRUE(report.nonFinite.has_value());
  EXPECT_EQ(report.nonFinite->dense, 1u);
  EXPECT_FALSE(isFinite(report.nonFinite->velocity) && isFinite(report.nonFinite->position));
  // Nothing was written back.
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(agents.position[i], before.position[i]);
    EXPECT_EQ(agents.velocity[i], before.velocity[i]);
    EXPECT_EQ(agents.flags[i], before.flags[i]);
  }
}

// Through the library, the limits keep the maths finite: a state like the one above is refused
// where it would enter, naming the limit.
TEST(Step, StatesBeyondTheLimitsAreRefusedOnEntry) {
  Simulator sim;
  AgentDef def;
  def.position = Vec2(-3.0e38f, 0.0f);
  try {
    sim.addAgent(def);
    FAIL() << "a position beyond the coordinate limit must be refused";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("coordinate limit"), std::string::npos) << error.what();
  }
  def.position = Vec2(0.0f, 0.0f);
  def.goal = Vec2(3.0e38f, 0.0f);
  EXPECT_THROW(sim.addAgent(def), std::invalid_argument);
  def.goal.reset();
  def.velocity = Vec2(0.0f, 1e30f);
  EXPECT_THROW(sim.addAgent(def), std::invalid_argument);
  def.velocity = Vec2(0.0f, 0.0f);
  const AgentId id = sim.addAgent(def);
  EXPECT_THROW(sim.setPosition(id, Vec2(2e6f, 0.0f)), std::invalid_argument);
  EXPECT_THROW(sim.addObstacle(std::vector<Vec2>{{0.0f, 0.0f}, {1e7f, 0.0f}}), std::invalid_argument);
  SimulatorConfig config;
  config.timeStep = 1e-45f;
  EXPECT_THROW(sim.setConfig(config), std::invalid_argument);
  EXPECT_EQ(sim.position(id), Vec2(0.0f, 0.0f));
}

// Candidate lists are made in sparse crowds and used for several steps: the results must be the
// grid search's to the bit. A configured cell narrower than a list keeps them from being made.
TEST(Step, CandidateListsGiveTheGridSearchResults) {
  const Scenario scenario = builtinScenario("circle", 250);
  Simulator withLists = makeSimulator(scenario, 2);
  Simulator withoutLists = makeSimulator(scenario, 2);
  for (Simulator* sim : {&withLists, &withoutLists}) {
    SimulatorConfig config = sim->config();
    config.exactRvo2 = true;
    config.cellSize = sim == &withoutLists ? 7.0f : 0.0f;
    sim->setConfig(config);
  }
  // Through the approach, the crush in the middle (lists overflow there) and the way out.
  for (int s = 0; s < 1200; ++s) {
    withLists.step();
    withoutLists.step();
    ASSERT_EQ(withLists.stateHash(), withoutLists.stateHash()) << "step " << s + 1;
  }
}

// Beyond x = 65536 positions round to 1/128: an agent moving 0.005 a step moves 0.0078. Lists
// must be dropped by how far agents really moved, not by their speed, or these two, closing from
// just beyond a list's reach, would not see each other in time: with a long time horizon they
// start to give way as soon as they are neighbours (the run without lists judges).
TEST(Step, ListsFarFromTheOriginFollowTheRoundedMoves) {
  auto run = [](float cellSize, std::vector<std::uint64_t>& hashes) {
    SimulatorConfig config;
    config.timeStep = 0.125f;
    config.threads = 1;
    config.exactRvo2 = true;
    config.cellSize = cellSize;
    Simulator sim(config);
    AgentDef def;  // neighborDist 15: lists reach 18.
    def.params.timeHorizon = 500.0f;
    def.position = Vec2(70000.0f, 0.0f);
    const AgentId left = sim.addAgent(def);
    def.position = Vec2(70018.2f, 0.0f);
    const AgentId right = sim.addAgent(def);
    sim.setPrefVelocity(left, Vec2(0.04f, 0.0f));
    sim.setPrefVelocity(right, Vec2(-0.04f, 0.0f));
    for (int s = 0; s < 400; ++s) {
      sim.step();
      hashes.push_back(sim.stateHash());
    }
  };
  std::vector<std::uint64_t> withLists, withoutLists;
  run(0.0f, withLists);
  run(5.0f, withoutLists);
  EXPECT_EQ(withLists, withoutLists);
}

std::uint64_t hashAfterSteps(const Scenario& scenario, float cellSize, int steps) {
  Simulator sim = makeSimulator(scenario, 2);
  SimulatorConfig config = sim.config();
  config.cellSize = cellSize;
  sim.setConfig(config);
  for (int s = 0; s < steps; ++s) sim.step();
  return sim.stateHash();
}

TEST(Step, ResultsDoNotDependOnTheCellSize) {
  for (const char* name : {"random", "bottleneck", "circle"}) {
    const Scenario scenario = builtinScenario(name, 500, 3);
    const std::uint64_t automatic = hashAfterSteps(scenario, 0.0f, 40);
    // From the smallest allowed (raised to 1/2.5 of neighborDist) to much larger than a query.
    for (const float cellSize : {1.0f, 6.0f, 9.5f, 15.0f, 60.0f}) {
      EXPECT_EQ(hashAfterSteps(scenario, cellSize, 40), automatic) << name << " cell " << cellSize;
    }
  }
}

TEST(Step, CellSizeFollowsTheSearchRange) {
  CellSizeChooser chooser;
  // First step: half the neighbour distance.
  EXPECT_FLOAT_EQ(chooser.choose(0.0f, 15.0f), 7.5f);
  // Sparse agents keep the whole neighbour distance as their range: cells grow to it, and past
  // it to hold the candidate lists (neighbour distance plus skin, and a hundredth for rounding).
  chooser.observe(1000, 1000 * 15 * 1024);
  EXPECT_TRUE(chooser.sparse());
  EXPECT_FLOAT_EQ(chooser.listSkin(), 3.0f);  // A fifth of the neighbour distance.
  EXPECT_FLOAT_EQ(chooser.choose(0.0f, 15.0f), 1.01f * 18.0f);
  // A crowd whose K-th neighbour is 8 away: cells of 8.
  chooser.observe(1000, 1000 * 8 * 1024);
  EXPECT_FALSE(chooser.sparse());
  EXPECT_FLOAT_EQ(chooser.choose(0.0f, 15.0f), 8.0f);
  // Small drifts leave it alone.
  chooser.observe(1000, 1000 * 8.3 * 1024);
  EXPECT_FLOAT_EQ(chooser.choose(0.0f, 15.0f), 8.0f);
  // Never below 1/2.5 of the neighbour distance, whatever the crowd.
  chooser.observe(1000, 1000 * 1024);
  EXPECT_FLOAT_EQ(chooser.choose(0.0f, 15.0f), 6.0f);
  // A configured size is kept (raised to the same floor).
  EXPECT_FLOAT_EQ(chooser.choose(12.0f, 15.0f), 12.0f);
  EXPECT_FLOAT_EQ(chooser.choose(2.0f, 15.0f), 6.0f);
}

}  // namespace
}  // namespace crowd
