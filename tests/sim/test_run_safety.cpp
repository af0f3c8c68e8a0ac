// Results a user can trust whatever the input: velocities never leave the maxSpeed disc, the
// same scene gives the same answer wherever it sits in the world, and outputs replace old files
// only when complete.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <glm/geometric.hpp>
#include <gtest/gtest.h>

#include <crowd/metrics.hpp>
#include <crowd/output_file.hpp>
#include <crowd/scenario.hpp>
#include <crowd/trajectory.hpp>

namespace crowd {
namespace {

RunMetrics runFor(const Scenario& scenario, std::int64_t steps, bool exactRvo2 = false) {
  Simulator sim = makeSimulator(scenario, 2);
  SimulatorConfig config = sim.config();
  config.exactRvo2 = exactRvo2;
  sim.setConfig(config);
  MetricsCollector metrics;
  metrics.observe(sim);
  for (std::int64_t s = 0; s < steps; ++s) {
    sim.step();
    metrics.observe(sim);
  }
  return metrics.result();
}

// Many agents on one point: the programs are infeasible and RVO2's fallback (lp3) ends outside
// the maxSpeed disc (RVO2 and exact mode: up to 1.17 times maxSpeed with 1,000 agents).
Scenario pileOnOnePoint(std::size_t count, float timeHorizon) {
  Scenario scenario;
  scenario.name = "pile";
  for (std::size_t i = 0; i < count; ++i) {
    AgentDef def;
    def.position = Vec2(0.01f * static_cast<float>(i % 7), 0.01f * static_cast<float>(i % 5));
    def.goal = Vec2(i % 2 == 0 ? 50.0f : -50.0f, 0.0f);
    def.params.timeHorizon = timeHorizon;
    scenario.agents.push_back(def);
  }
  return scenario;
}

TEST(RunSafety, VelocitiesStayWithinMaxSpeed) {
  for (const float timeHorizon : {10.0f, 0.001f}) {
    const Scenario scenario = pileOnOnePoint(400, timeHorizon);
    const RunMetrics exact = runFor(scenario, 6, true);
    const RunMetrics safe = runFor(scenario, 6);
    std::printf("[ speed ] timeHorizon %g: exact RVO2 %.4f x maxSpeed, clamped run %.6f (%lld clamps)\n",
                static_cast<double>(timeHorizon), exact.maxSpeedRatio, safe.maxSpeedRatio,
                static_cast<long long>(safe.speedClamps));
    EXPECT_GT(exact.maxSpeedRatio, 1.0) << "the case no longer needs the clamp; find one that does";
    EXPECT_EQ(exact.speedClamps, 0);
    EXPECT_LE(safe.maxSpeedRatio, 1.0);
    EXPECT_GT(safe.speedClamps, 0);
  }
}

// The same scene moved across the world: float positions far from (0, 0) are coarse (0.0078 at
// 1e5, 0.0625 at 1e6), and computing there let agents into walls. The simulator computes in a
// frame near the scene, so every placement runs as cleanly as the original.
Scenario shifted(Scenario scenario, float offset) {
  for (AgentDef& agent : scenario.agents) {
    agent.position += Vec2(offset, 0.5f * offset);
    if (agent.goal) *agent.goal += Vec2(offset, 0.5f * offset);
  }
  for (std::vector<Vec2>& polygon : scenario.obstacles) {
    for (Vec2& v : polygon) v += Vec2(offset, 0.5f * offset);
  }
  return scenario;
}

TEST(RunSafety, TheSceneRunsAlikeWhereverItSits) {
  const Scenario corridor = builtinScenario("corridor", 120, 5);
  for (const float offset : {0.0f, 1e4f, 1e5f, 9e5f}) {
    const Scenario scene = shifted(corridor, offset);
    Simulator sim = makeSimulator(scene, 2);
    MetricsCollector metrics;
    metrics.observe(sim);
    for (std::int64_t s = 0; s < scene.steps && metrics.result().arrived < scene.agents.size(); ++s) {
      sim.step();
      metrics.observe(sim);
    }
    const RunMetrics& m = metrics.result();
    EXPECT_EQ(m.penetrations, 0) << "offset " << offset;
    EXPECT_EQ(m.collisions, 0) << "offset " << offset;
    EXPECT_EQ(m.arrived, scene.agents.size()) << "offset " << offset;
    // The frame sits near the scene, a round distance from the world's origin.
    const glm::dvec2 origin = sim.config().origin;
    EXPECT_NEAR(origin.x, offset, 4096.0) << "offset " << offset;
    EXPECT_EQ(origin.x, std::round(origin.x / 4096.0) * 4096.0);
  }
}

// A room 10 m square drawn in 0.25 m cells, a wall with a door and two combs of one-cell pillars,
// crossed both ways by 60 agents of radius 0.1, the whole at (offset, offset).
Scenario fineRoomAt(int offset) {
  std::string rows;
  for (int y = 0; y < 40; ++y) {
    rows += y == 0 ? "[\"" : ", \"";
    for (int x = 0; x < 40; ++x) {
      const bool wall = (x == 20 && (y < 18 || y > 21)) || (y == 10 && x >= 5 && x <= 15 && x % 3 == 0) ||
                        (y == 30 && x >= 25 && x <= 35 && x % 2 == 0);
      rows += wall ? '@' : '.';
    }
    rows += "\"";
  }
  rows += "]";
  const auto at = [&](double x, double y) {
    return "[" + std::to_string(offset + x) + ", " + std::to_string(offset + y) + "]";
  };
  std::string agents;
  for (int i = 0; i < 6; ++i) {
    for (int j = 0; j < 5; ++j) {
      agents += std::string(agents.empty() ? "" : ", ") + R"({"radius": 0.1, "position": )" +
                at(1 + j * 0.8, 1 + i * 1.5) + R"(, "goal": )" + at(9 - j * 0.3, 9 - i * 1.2) + "}";
      agents += R"(, {"radius": 0.1, "position": )" + at(9 - j * 0.8, 1.2 + i * 1.5) + R"(, "goal": )" +
                at(1 + j * 0.3, 9 - i * 1.2) + "}";
    }
  }
  const std::string origin = at(0, 0);
  return parseScenario(R"({"timeStep": 0.1, "steps": 3000, "map": {"cellSize": 0.25, "origin": )" + origin +
                           R"(, "rows": )" + rows + R"(}, "agents": [)" + agents + "]}",
                       "fine_room.json");
}

// Near (0, 0) a scene's coordinates are fine whatever its features; 1,000 m out a float's
// spacing is 6e-5, and 0.25 m cells with 0.1 m agents were fine enough to feel it: 4 agent-steps
// in a wall at offset 0 (an agent starts touching a pillar), 134 at offset 500 and 99 at 1,000.
// The frame's grain now follows the finest feature, so each placement runs as the first.
TEST(RunSafety, AFineSceneRunsAlikeWhereverItSits) {
  std::int64_t atOrigin = -1;
  for (const int offset : {0, 500, 1000, 1500}) {
    const Scenario scene = fineRoomAt(offset);
    Simulator sim = makeSimulator(scene, 2);
    // Within 2^-13 of 0.1 m of the frame's origin a float's spacing is below 2^-13 of the radius.
    const glm::dvec2 middle(offset + 5.0, offset + 5.0);
    EXPECT_LE(glm::length(middle - sim.config().origin), 0.1 * 4096.0 * 0.5 * std::sqrt(2.0))
        << "offset " << offset;
    MetricsCollector metrics;
    metrics.observe(sim);
    for (std::int64_t s = 0; s < scene.steps && metrics.result().arrived < metrics.result().agentsWithGoal;
         ++s) {
      sim.step();
      metrics.observe(sim);
    }
    if (atOrigin < 0) atOrigin = metrics.result().penetrations;
    EXPECT_EQ(metrics.result().penetrations, atOrigin) << "offset " << offset;
  }
  EXPECT_LE(atOrigin, 4);
}

TEST(RunSafety, ScenesNearTheOriginAreComputedWhereTheyStand) {
  // Within half a grain of (0, 0) the frame is the world's: results are RVO2's to the bit.
  const Simulator sim = makeSimulator(builtinScenario("circle", 250), 1);
  EXPECT_EQ(sim.config().origin, glm::dvec2(0.0, 0.0));
}

TEST(RunSafety, TrajectoriesAreWrittenInWorldCoordinates) {
  Scenario scenario;
  AgentDef def;
  def.position = Vec2(100000.5f, -250000.25f);
  def.prefVelocity = Vec2(1.0f, 0.0f);
  scenario.agents.push_back(def);
  scenario.timeStep = 0.5f;
  Simulator sim = makeSimulator(scenario, 1);
  ASSERT_NE(sim.config().origin, glm::dvec2(0.0, 0.0));
  const std::string path = testing::TempDir() + "crowd_world_traj.csv";
  TrajectoryWriter writer(path);
  writer.write(sim);
  sim.step();
  writer.write(sim);
  writer.close();
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), "step,agent,x,y,vx,vy\n0,0,100000.5,-250000.25,0,0\n1,0,100001,-250000.25,1,0\n");
}

TEST(RunSafety, OutputFilesReplaceTheOldOneOnlyWhenComplete) {
  const std::string path = testing::TempDir() + "crowd_output_file.txt";
  {
    std::ofstream old(path);
    old << "old";
  }
  const auto contents = [&] {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  };
  {
    OutputFile file(path);
    std::fputs("new but unfinished", file.stream());
  }  // Abandoned: the old file stays.
  EXPECT_EQ(contents(), "old");
  {
    OutputFile file(path);
    std::fputs("new", file.stream());
    EXPECT_EQ(contents(), "old");  // Not in place until committed.
    file.commit();
  }
  EXPECT_EQ(contents(), "new");
  EXPECT_THROW(OutputFile(testing::TempDir() + "no-such-folder/x.txt"), std::runtime_error);
}

TEST(RunSafety, OutputFilesWriteThroughLinksAndDevices) {
  namespace fs = std::filesystem;
  const fs::path folder = fs::path(testing::TempDir()) / "crowd_output_links";
  fs::remove_all(folder);
  fs::create_directories(folder);
  const auto read = [](const fs::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  };
  const auto write = [](const fs::path& path, const char* text) {
    OutputFile file(path.string());
    std::fputs(text, file.stream());
    file.commit();
  };
  { std::ofstream(folder / "target.csv") << "old"; }
  fs::create_symlink("target.csv", folder / "link.csv");
  write(folder / "link.csv", "through the link");
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(folder / "link.csv")));  // The link is kept...
  EXPECT_EQ(read(folder / "target.csv"), "through the link");            // ...and its target written.
  fs::create_symlink("later.csv", folder / "dangling.csv");
  write(folder / "dangling.csv", "made");
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(folder / "dangling.csv")));
  EXPECT_EQ(read(folder / "later.csv"), "made");
  // A loop of links is refused, not replaced by a file.
  fs::create_symlink("loop-b.csv", folder / "loop-a.csv");
  fs::create_symlink("loop-a.csv", folder / "loop-b.csv");
  EXPECT_THROW(OutputFile((folder / "loop-a.csv").string()), std::runtime_error);
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(folder / "loop-a.csv")));
  // One of the process's own descriptors is written through, as the shell would (a pipe here).
  int ends[2];
  ASSERT_EQ(pipe(ends), 0);
  const std::string writeEnd = "/dev/fd/" + std::to_string(ends[1]);
  EXPECT_EQ(ownDescriptor(writeEnd), ends[1]);
  EXPECT_EQ(ownDescriptor((folder / "target.csv").string()), -1);
  // "-" is standard output, as command lines name it; "./-" is a file of that name.
  EXPECT_EQ(ownDescriptor("-"), STDOUT_FILENO);
  EXPECT_EQ(ownDescriptor("./-"), -1);
  write(writeEnd, "through the pipe");
  ::close(ends[1]);
  char got[32] = {};
  EXPECT_EQ(::read(ends[0], got, sizeof got - 1), 16);
  EXPECT_STREQ(got, "through the pipe");
  ::close(ends[0]);
  // A device stays a device (renaming a finished file over /dev/null would replace it).
  if (fs::is_character_file("/dev/null")) {
    write("/dev/null", "discarded");
    EXPECT_TRUE(fs::is_character_file("/dev/null"));
  }
  fs::remove_all(folder);
}

}  // namespace
}  // namespace crowd
