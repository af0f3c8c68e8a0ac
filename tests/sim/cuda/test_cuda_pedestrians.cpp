// The pedestrian models on the GPU against the CPU backend, step by step, bit for bit: each model
// in the two pedestrian built-ins (a one-way walkway and a room emptying through a door, walls
// pushing), with drawn speeds, premovement times and a speed zone, and in a corridor that
// repeats along x. They skip, saying why, without a usable device.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <crowd/scenario.hpp>

#include "require_gpu.hpp"

namespace crowd {
namespace {

void expectSameStepByStep(Scenario scenario, AvoidanceMode model, bool densitySpeed, int steps) {
  for (AgentDef& agent : scenario.agents) {
    agent.behavior.avoidance = model;
    agent.behavior.model.densitySpeed = densitySpeed;
    agent.startTime = static_cast<float>(agent.position.x > 5.0f ? 0.5 : 0.0);
  }
  if (model == AvoidanceMode::SocialForce) scenario.timeStep = 0.01f;
  scenario.speedZones.push_back(SpeedZoneSpec{{{2, -50}, {6, -50}, {6, 50}, {2, 50}}, 0.5f});
  Simulator cpu = makeSimulator(scenario, 0, BackendKind::Cpu);
  Simulator gpu = makeSimulator(scenario, 0, BackendKind::Cuda);
  for (int s = 0; s < steps; ++s) {
    cpu.step();
    gpu.step();
    ASSERT_EQ(cpu.stateHash(), gpu.stateHash()) << scenario.name << " step " << s + 1;
  }
}

TEST(CudaPedestrians, EveryModelMatchesTheCpuBackendStepByStep) {
  CROWD_REQUIRE_GPU();
  for (const char* name : {"walkway", "doorway"}) {
    const Scenario scenario = builtinScenario(name, 2000, 3);
    expectSameStepByStep(scenario, AvoidanceMode::Csm, false, 40);
    expectSameStepByStep(scenario, AvoidanceMode::SocialForce, false, 40);
    expectSameStepByStep(scenario, AvoidanceMode::Orca, true, 40);
  }
}

TEST(CudaPedestrians, EveryModelMatchesTheCpuBackendInARepeatingCorridor) {
  CROWD_REQUIRE_GPU();
  // Its walkers stand from 0.3 to 19.7 m: those near either end see the other end's at once.
  const Scenario scenario =
      loadScenarioFile(std::string(CROWD_SOURCE_DIR) + "/scenarios/periodic_corridor.json");
  expectSameStepByStep(scenario, AvoidanceMode::Csm, false, 60);
  expectSameStepByStep(scenario, AvoidanceMode::SocialForce, false, 60);
  expectSameStepByStep(scenario, AvoidanceMode::Orca, true, 60);
  expectSameStepByStep(scenario, AvoidanceMode::Orca, false, 60);
}

}  // namespace
}  // namespace crowd
