// The step as a whole: a step whose result is not finite is refused and leaves the state as it
// was; in both worlds, results do not depend on the grid's cell size, candidate lists or the
// thread count; the cell size follows the search range.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <crowd/kernels/agent_grid.hpp>
#include <crowd/scenario.hpp>
#include <crowd/simulator.hpp>

#include "sim/step/cell_size.hpp"
#include "sim/step/step_driver.hpp"
#include "sim/worlds.hpp"

namespace crowd {
namespace {

TEST(Step, NonFiniteResultIsRefusedAndNamesTheAgentAndStep) {
  // The step driver on its own, with a state the simulator's input checks would refuse: agent 1
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
  StepDriverOf<Vec2> driver(makeCpuExecutor<Vec2>());
  const StepReportOf<Vec2> report = driver.step(StepRequestOf<Vec2>{
      agents, nullptr, profiles, StaticWorldView{}, 0.0, 0.25f, 0.0f, 2, 0.0f, false, 1, 1});
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

// The step in either world, written once: each test runs as StepWorlds/Planar.<name> and
// StepWorlds/Spatial.<name>, with the figures of that world's built-ins.
template <class World>
class StepWorlds : public ::testing::Test {};
TYPED_TEST_SUITE(StepWorlds, test::Worlds, test::WorldNames);

// Candidate lists are made while agents are spread out (the circle's, the sphere's) and used for
// several steps: the results must be the grid search's to the bit, through the approach, the
// crush in the middle (lists overflow there) and the way out. A configured cell narrower than a
// list keeps them from being made.
TYPED_TEST(StepWorlds, CandidateListsGiveTheGridSearchResults) {
  using World = TypeParam;
  const typename World::Scenario scenario =
      World::builtin(World::kDefaultBuiltin, test::byWorld<World>(250, 300));
  typename World::Simulator withLists = World::make(scenario, 2);
  typename World::Simulator withoutLists = World::make(scenario, 2);
  for (typename World::Simulator* sim : {&withLists, &withoutLists}) {
    SimulatorConfig config = sim->config();
    config.exactRvo2 = true;
    config.cellSize = sim == &withoutLists ? 7.0f : 0.0f;
    sim->setConfig(config);
  }
  int listSteps = 0;  // Steps that read lists hold at most 10 candidates an agent; a tile, many more.
  const int steps = test::byWorld<World>(1200, 1500);
  for (int s = 0; s < steps; ++s) {
    withLists.step();
    withoutLists.step();
    listSteps += withLists.lastCandidatesPerAgent() <= 10.0 ? 1 : 0;
    ASSERT_EQ(withLists.stateHash(), withoutLists.stateHash()) << "step " << s + 1;
  }
  if (!World::kPlanar) {
    EXPECT_GT(listSteps, 200);
  }
}

// Beyond x = 65536 positions round to 1/128: an agent moving 0.005 a step moves 0.0078. Lists
// must be dropped by how far agents really moved, not by their speed, or these two, closing from
// just beyond a list's reach, would not see each other in time: with a long time horizon they
// start to give way as soon as they are neighbours (the run without lists judges).
TYPED_TEST(StepWorlds, ListsFarFromTheOriginFollowTheRoundedMoves) {
  using World = TypeParam;
  using Vector = typename World::Vector;
  auto run = [](float cellSize, std::vector<std::uint64_t>& hashes) {
    SimulatorConfig config;
    config.timeStep = 0.125f;
    config.threads = 1;
    config.exactRvo2 = true;
    config.cellSize = cellSize;
    typename World::Simulator sim(config);
    typename World::AgentDef def;  // neighborDist 15: lists reach 18.
    def.params.timeHorizon = 500.0f;
    def.position = test::onAxis<Vector>(70000.0f);
    const AgentId left = sim.addAgent(def);
    def.position = test::onAxis<Vector>(70018.2f);
    const AgentId right = sim.addAgent(def);
    sim.setPrefVelocity(left, test::onAxis<Vector>(0.04f));
    sim.setPrefVelocity(right, test::onAxis<Vector>(-0.04f));
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

// Far from the origin the binning rounds more, so cells must be wider to hold a whole list: a
// sparse row 200 km out still has its lists made and read. (A step that reads lists examines at
// most 10 candidates an agent; this row's tiles hold about 13. Cells sized as if at the origin
// held no list here, and every step searched the grid.)
TYPED_TEST(StepWorlds, CandidateListsAreMadeFarFromTheOrigin) {
  using World = TypeParam;
  using Vector = typename World::Vector;
  SimulatorConfig config;
  config.threads = 1;
  config.exactRvo2 = true;
  typename World::Simulator sim(config);
  typename World::AgentDef def;  // neighborDist 15, 10 neighbours: 7 or 8 lie within reach.
  std::vector<AgentId> row;
  for (int i = 0; i < 40; ++i) {
    def.position = test::onAxis<Vector>(200000.0f + 4.0f * static_cast<float>(i));
    row.push_back(sim.addAgent(def));
  }
  for (const AgentId id : row) sim.setPrefVelocity(id, test::onAxis<Vector>(0.5f));
  int listSteps = 0;
  for (int s = 0; s < 60; ++s) {
    sim.step();
    listSteps += sim.lastCandidatesPerAgent() <= 10.0 ? 1 : 0;
  }
  EXPECT_GT(listSteps, 40);
}

// The neighbour search reads a block tile, or the grid when the tile overflows, and in a sparse
// crowd candidate lists: none of that may change a bit, whatever the cells.
TYPED_TEST(StepWorlds, ResultsDoNotDependOnTheCellSize) {
  using World = TypeParam;
  const std::vector<std::string> names =
      test::byWorld<World>(std::vector<std::string>{"random", "bottleneck", "circle"},
                           std::vector<std::string>{"sphere", "swarm"});
  for (const std::string& name : names) {
    const typename World::Scenario scenario = World::builtin(name, test::byWorld<World>(500, 600), 3);
    const std::uint64_t automatic = test::hashAfter<World>(scenario, 2, 40, 0.0f);
    // From the smallest allowed (raised to 1/2.5 of neighborDist) to blocks too full for a tile.
    for (const float cellSize : {1.0f, 6.0f, 9.5f, 15.0f, 60.0f}) {
      EXPECT_EQ(test::hashAfter<World>(scenario, 2, 40, cellSize), automatic) << name << " cell " << cellSize;
    }
  }
}

// The same scenario gives bit-identical states for any thread count, run after run.
TYPED_TEST(StepWorlds, SameStateForAnyThreadCount) {
  using World = TypeParam;
  const std::vector<std::string> names = test::byWorld<World>(
      std::vector<std::string>{"random", "bottleneck", "crossing"}, std::vector<std::string>{"swarm"});
  // Against one thread: in the plane 2 and 4, and 4 again (a second run).
  const std::vector<int> threadCounts =
      test::byWorld<World>(std::vector<int>{2, 4, 4}, std::vector<int>{2, 3});
  const int steps = test::byWorld<World>(60, 40);
  for (const std::string& name : names) {
    const typename World::Scenario scenario =
        World::builtin(name, test::byWorld<World>(600, 3000), test::byWorld<World>(5, 9));
    const std::uint64_t one = test::hashAfter<World>(scenario, 1, steps);
    for (std::size_t run = 0; run < threadCounts.size(); ++run) {
      EXPECT_EQ(test::hashAfter<World>(scenario, threadCounts[run], steps), one)
          << name << ", " << threadCounts[run] << " threads (run " << run + 1 << ")";
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
  EXPECT_NEAR(chooser.choose(0.0f, 15.0f), 1.01f * 18.0f, 0.05f);
  // Far from the origin, wide enough that every agent's block holds its whole list.
  for (const float farthest : {0.0f, 1e4f, 1e5f, 1e6f}) {
    const float cell = chooser.choose(0.0f, 15.0f, farthest);
    EXPECT_GE(blockReach(cell, cellMarginAt(cell, farthest)), 18.0f) << farthest;
    EXPECT_LT(blockReach(cell, cellMarginAt(cell, farthest)), 18.5f) << farthest;
  }
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
