// Premovement times and speed zones through the simulator: an agent stands until its start time
// (under every model) and then walks; a speed zone scales the desired speed of whoever stands in
// it, the first zone added winning where zones overlap; and the refusals.
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include <crowd/simulator.hpp>

namespace crowd {
namespace {

Simulator walkers(float timeStep = 0.1f) {
  SimulatorConfig config;
  config.timeStep = timeStep;
  return Simulator(config);
}

AgentDef walker(Vec2 position, AvoidanceMode model, float startTime = 0.0f) {
  AgentDef def;
  def.position = position;
  def.prefVelocity = Vec2(1, 0);
  def.params = kPedestrianParams;
  def.behavior.avoidance = model;
  def.startTime = startTime;
  return def;
}

TEST(Premovement, AnAgentStandsUntilItsStartTimeUnderEveryModel) {
  for (const AvoidanceMode model : {AvoidanceMode::None, AvoidanceMode::Orca, AvoidanceMode::Csm}) {
    Simulator sim = walkers();
    const AgentId late = sim.addAgent(walker({0, 0}, model, 1.0f));
    const AgentId early = sim.addAgent(walker({0, 5}, model));
    for (int s = 0; s < 10; ++s) sim.step();  // Steps computed at t = 0 .. 0.9: before 1 s.
    EXPECT_EQ(sim.position(late), Vec2(0, 0)) << static_cast<int>(model);
    EXPECT_NEAR(sim.position(early).x, 1.0f, 1e-5f) << static_cast<int>(model);
    sim.step();  // Computed at t = 1: it sets off.
    EXPECT_NEAR(sim.position(late).x, 0.1f, 1e-6f) << static_cast<int>(model);
  }
}

TEST(SpeedZones, AZoneScalesTheDesiredSpeedOfWhoeverIsInIt) {
  Simulator sim = walkers();
  const std::vector<Vec2> stairs = {{1, -1}, {3, -1}, {3, 1}, {1, 1}};
  const std::vector<Vec2> overlapping = {{2, -1}, {5, -1}, {5, 1}, {2, 1}};
  EXPECT_EQ(sim.addSpeedZone(stairs, 0.5f), 0);
  EXPECT_EQ(sim.addSpeedZone(overlapping, 2.0f), 1);
  EXPECT_EQ(sim.speedZoneCount(), 2u);
  const AgentId id = sim.addAgent(walker({0.5f, 0}, AvoidanceMode::None));
  const auto speedAfterStep = [&] {
    sim.step();
    return sim.velocity(id).x;
  };
  EXPECT_FLOAT_EQ(speedAfterStep(), 1.0f);  // At 0.5: outside.
  sim.setPosition(id, Vec2(1.5f, 0));
  EXPECT_FLOAT_EQ(speedAfterStep(), 0.5f);  // In the stairs.
  sim.setPosition(id, Vec2(2.5f, 0));
  EXPECT_FLOAT_EQ(speedAfterStep(), 0.5f);  // In both: the first added wins.
  sim.setPosition(id, Vec2(4, 0));
  EXPECT_FLOAT_EQ(speedAfterStep(), 2.0f);  // In the second alone.
}

TEST(SpeedZones, BadZonesAndStartTimesAreRefused) {
  Simulator sim = walkers();
  const std::vector<Vec2> two = {{0, 0}, {1, 0}};
  EXPECT_THROW(sim.addSpeedZone(two, 0.5f), std::invalid_argument);
  const std::vector<Vec2> square = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  EXPECT_THROW(sim.addSpeedZone(square, -1.0f), std::invalid_argument);
  EXPECT_THROW(sim.addSpeedZone(square, 11.0f), std::invalid_argument);
  const std::vector<Vec2> far = {{0, 0}, {2e6f, 0}, {0, 1}};
  EXPECT_THROW(sim.addSpeedZone(far, 1.0f), std::invalid_argument);
  EXPECT_EQ(sim.speedZoneCount(), 0u);
  EXPECT_THROW(sim.addAgent(walker({0, 0}, AvoidanceMode::Orca, -1.0f)), std::invalid_argument);
  EXPECT_EQ(sim.agentCount(), 0u);
}

}  // namespace
}  // namespace crowd
