// Pinned state hashes (Box2D's EXPECTED_HASH habit): a few feature-rich built-ins run for a fixed
// number of steps on the CPU backend, and the hash of every agent's id, position and velocity
// bits after each tenth step is folded into one number that must equal the pinned value. A change
// that moves any agent by one bit anywhere in these runs fails here, naming the scene and the new
// hash. When results are meant to change (a model fix, say), update the value on purpose and say
// why in the commit; a refactoring must leave every value as it is. (Every value here was
// computed before the simulators, stores and step were rebuilt around one core.)
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <crowd/scenario.hpp>
#include <crowd/scenario3.hpp>

namespace crowd {
namespace {

// Folds the state hash after every tenth step (and the last) into one value, so that a
// difference that comes and goes mid-run is caught too.
template <class Sim>
std::uint64_t runHash(Sim& sim, int steps) {
  std::uint64_t folded = 1469598103934665603ull;
  for (int s = 1; s <= steps; ++s) {
    sim.step();
    if (s % 10 == 0 || s == steps) folded = (folded ^ sim.stateHash()) * 1099511628211ull;
  }
  return folded;
}

struct Pinned {
  const char* name;
  std::size_t agents;
  int steps;
  std::uint64_t hash;
};

// Every planar feature: ORCA among agents and obstacles (RVO2-exact and with deadlock
// breaking), steering with wander's random draws, pursuit and evasion, path following, the
// detection box, map routes with re-planning and removal on arrival, and the Frenet planner.
constexpr Pinned kPlanar[] = {
    {"circle", 120, 120, 3886074653653027604ull},     {"bottleneck", 200, 100, 7484544988236425645ull},
    {"mix", 1500, 80, 1837334679385344751ull},        {"pursuit", 120, 100, 17231717755077098501ull},
    {"pathloop", 36, 100, 13220699813694400573ull},   {"forest", 200, 100, 3055803991854301938ull},
    {"evacuation", 300, 120, 7044984599331200991ull}, {"lanes", 24, 120, 7328098158650315209ull},
    {"maze", 120, 100, 19066183230264141ull},
};

TEST(GoldenHash, PlanarBuiltinsGiveThePinnedStates) {
  for (const Pinned& pinned : kPlanar) {
    const Scenario scenario = builtinScenario(pinned.name, pinned.agents, 7);
    Simulator sim = makeSimulator(scenario, 2);
    EXPECT_EQ(runHash(sim, pinned.steps), pinned.hash) << pinned.name;
  }
}

TEST(GoldenHash, RvoExactCircleGivesThePinnedState) {
  const Scenario scenario = builtinScenario("circle", 100, 1);
  Simulator sim = makeSimulator(scenario, 2);
  SimulatorConfig config = sim.config();
  config.exactRvo2 = true;
  sim.setConfig(config);
  EXPECT_EQ(runHash(sim, 150), 15121659422987138282ull);
}

// 3D: ORCA among spheres, and a swarm that steers (arrive, seek with separation, wander,
// pursuit and evasion of a target).
TEST(GoldenHash, ThreeDimensionalWorldsGiveThePinnedStates) {
  for (const auto& [name, agents, steps, hash] : {Pinned{"sphere", 200, 100, 18143679718293571114ull},
                                                  Pinned{"swarm", 600, 60, 11725336021347424645ull}}) {
    Simulator3 sim = makeSimulator3(builtinScenario3(name, agents, 7), 2);
    EXPECT_EQ(runHash(sim, steps), hash) << name;
  }
  Scenario3 steered = builtinScenario3("swarm", 600, 5);
  for (std::size_t i = 0; i < steered.agents.size(); ++i) {
    Behavior& b = steered.agents[i].behavior;
    b.behaviors = {WeightedBehavior{i % 3 == 0 ? BehaviorKind::Arrive : BehaviorKind::Seek, 1.0f}};
    if (i % 3 == 1) b.behaviors.push_back(WeightedBehavior{BehaviorKind::Separation, 0.5f});
    if (i % 5 == 0) b.behaviors = {WeightedBehavior{BehaviorKind::Wander, 1.0f}};
    if (i % 7 == 0 && i + 1 < steered.agents.size()) {
      b.behaviors = {WeightedBehavior{i % 2 == 0 ? BehaviorKind::Pursue : BehaviorKind::Evade, 1.0f}};
      steered.agents[i].target = AgentId{static_cast<std::uint32_t>(i + 1), 0};
    }
  }
  Simulator3 sim = makeSimulator3(steered, 2);
  EXPECT_EQ(runHash(sim, 60), 16881833404105428032ull) << "steered swarm";
}

// Changes between steps: agents removed and added (handles reused), behaviours, targets and
// goals changed, all applied to the newest state.
TEST(GoldenHash, ChangesBetweenStepsGiveThePinnedState) {
  Simulator sim = makeSimulator(builtinScenario("mix", 600, 3), 2);
  for (int s = 0; s < 20; ++s) sim.step();
  const std::span<const AgentId> ids = sim.ids();
  const std::vector<AgentId> some(ids.begin(), ids.begin() + 40);
  for (std::size_t i = 0; i < some.size(); i += 4) sim.removeAgent(some[i]);
  Behavior wander;
  wander.behaviors = {WeightedBehavior{BehaviorKind::Wander, 1.0f}};
  sim.setBehavior(some[1], wander);
  sim.setTarget(some[2], some[3]);
  sim.setGoal(some[5], Vec2(10.0f, -10.0f));
  AgentDef def;
  def.position = Vec2(0.5f, 0.25f);
  def.goal = Vec2(-20.0f, 15.0f);
  sim.addAgent(def);
  EXPECT_EQ(runHash(sim, 60), 9593737031498420403ull);
}

// The same in 3D, where the steering state now stays with the backend between steps: behaviours
// and targets changed, targets removed, an agent added on a reused handle with a target, a target
// cleared and another set.
TEST(GoldenHash, ThreeDimensionalChangesBetweenStepsGiveThePinnedState) {
  Scenario3 steered = builtinScenario3("swarm", 400, 9);
  for (std::size_t i = 0; i < steered.agents.size(); ++i) {
    Behavior& b = steered.agents[i].behavior;
    b.behaviors = {WeightedBehavior{i % 2 == 0 ? BehaviorKind::Seek : BehaviorKind::Arrive, 1.0f}};
    if (i % 4 == 1) b.behaviors.push_back(WeightedBehavior{BehaviorKind::Separation, 0.5f});
    if (i % 6 == 0) b.behaviors = {WeightedBehavior{BehaviorKind::Wander, 1.0f}};
  }
  Simulator3 sim = makeSimulator3(steered, 2);
  std::uint64_t folded = runHash(sim, 20);
  const std::vector<AgentId> ids(sim.ids().begin(), sim.ids().end());
  Behavior pursue;
  pursue.behaviors = {WeightedBehavior{BehaviorKind::Pursue, 1.0f}};
  Behavior evade;
  evade.behaviors = {WeightedBehavior{BehaviorKind::Evade, 1.0f}};
  Behavior wander;
  wander.behaviors = {WeightedBehavior{BehaviorKind::Wander, 1.0f},
                      WeightedBehavior{BehaviorKind::Separation, 0.3f}};
  for (std::size_t i = 0; i < 60; i += 3) {
    sim.setBehavior(ids[i], i % 2 == 0 ? pursue : evade);
    sim.setTarget(ids[i], ids[i + 1]);
  }
  for (std::size_t i = 100; i < 140; i += 2) sim.setBehavior(ids[i], wander);
  for (std::size_t i = 1; i < 30; i += 6) sim.removeAgent(ids[i]);  // Some targets go.
  AgentDef3 def;
  def.position = Vec3(1.0f, 2.0f, 3.0f);
  def.goal = Vec3(-20.0f, 10.0f, 5.0f);
  def.behavior = pursue;
  def.target = ids[200];
  const AgentId added = sim.addAgent(def);
  folded = (folded ^ runHash(sim, 30)) * 1099511628211ull;
  sim.setTarget(added, std::nullopt);
  sim.setTarget(ids[3], ids[300]);
  folded = (folded ^ runHash(sim, 30)) * 1099511628211ull;
  EXPECT_EQ(folded, 6452320849450815802ull);
}

}  // namespace
}  // namespace crowd
