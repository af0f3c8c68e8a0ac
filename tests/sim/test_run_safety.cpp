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

TEST(RunSafety, ScenesNearTheOriginAreComputedWhereTheyStand) {
  // Within 2048 of (0, 0) the frame is the world's: results are RVO2's to the bit.
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
