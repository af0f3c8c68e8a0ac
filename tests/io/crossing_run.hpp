// A small run that trajectory tests write: four agents crossing round a square post, far from
// the origin, with the positions each kept step should hold.
#pragma once

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include <crowd/simulator.hpp>
#include <crowd/trajectory.hpp>

namespace crowd::test {

struct Kept {
  long long frame;
  unsigned id;
  double x, y;
};

// Four agents crossing round a square post, far from (0, 0): the file must add the frame's
// origin back. Steps 0..10, every 2nd kept.
struct CrossingRun {
  static constexpr double kOriginX = 1000.0;
  static constexpr double kOriginY = -2000.0;
  crowd::Simulator sim;
  std::vector<Kept> expected;

  CrossingRun() : sim(config()) {
    const std::vector<Vec2> post{Vec2(-1.0f, -1.0f), Vec2(1.0f, -1.0f), Vec2(1.0f, 1.0f), Vec2(-1.0f, 1.0f)};
    sim.addObstacle(post);
    for (int k = 0; k < 4; ++k) {
      crowd::AgentDef agent;
      const float angle = 1.5707964f * static_cast<float>(k);
      agent.position = Vec2(6.0f * std::cos(angle), 6.0f * std::sin(angle));
      agent.goal = -agent.position;
      agent.params.radius = 0.3f;
      sim.addAgent(agent);
    }
  }

  static crowd::SimulatorConfig config() {
    crowd::SimulatorConfig c;
    c.timeStep = 0.25f;
    c.origin = {kOriginX, kOriginY};
    return c;
  }

  void runWriting(crowd::TrajectoryWriter& writer) {
    for (int s = 0; s <= 10; ++s) {
      if (s > 0) sim.step();
      writer.write(sim);
      if (s % 2 != 0) continue;
      for (std::size_t i = 0; i < sim.agentCount(); ++i) {
        expected.push_back(Kept{s / 2, sim.ids()[i].index,
                                kOriginX + static_cast<double>(sim.positions()[i].x),
                                kOriginY + static_cast<double>(sim.positions()[i].y)});
      }
    }
    writer.close();
  }
};

inline crowd::TrajectorySettings everyOther() {
  crowd::TrajectorySettings settings;
  settings.timeStep = 0.25;
  settings.everySteps = 2;
  return settings;
}

inline std::string temporaryFile(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("crowd_test_" + name)).string();
}

}  // namespace crowd::test
