// Contact metrics against a brute-force count, and trajectory output.
#include <cmath>
#include <fstream>
#include <random>
#include <sstream>

#include <gtest/gtest.h>

#include <crowd/metrics.hpp>
#include <crowd/trajectory.hpp>

namespace crowd {
namespace {

TEST(Metrics, ContactCountsMatchBruteForce) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> coord(0.0f, 60.0f);
  std::uniform_real_distribution<float> size(0.3f, 1.2f);
  std::vector<Vec2> positions(800);
  std::vector<float> radii(800);
  for (std::size_t i = 0; i < positions.size(); ++i) {
    positions[i] = Vec2(coord(rng), coord(rng));
    radii[i] = size(rng);
  }
  ObstacleSet obstacles;
  obstacles.addPolygon(std::vector<Vec2>{{20, 20}, {30, 20}, {30, 30}, {20, 30}});  // Solid box.
  obstacles.addPolygon(std::vector<Vec2>{{0, 45}, {60, 45}});                       // A wall.

  std::int64_t pairs = 0;
  double minRatio = INFINITY;
  for (std::size_t i = 0; i < positions.size(); ++i) {
    for (std::size_t j = i + 1; j < positions.size(); ++j) {
      const double dx = static_cast<double>(positions[i].x) - positions[j].x;
      const double dy = static_cast<double>(positions[i].y) - positions[j].y;
      const double d = std::sqrt(dx * dx + dy * dy);
      const double r = static_cast<double>(radii[i]) + radii[j];
      if (d < 0.99 * r) ++pairs;
      if (d < 1.5 * r) minRatio = std::min(minRatio, d / r);
    }
  }
  std::int64_t inside = 0;
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const Vec2 p = positions[i];
    const bool inBox = p.x > 20 && p.x < 30 && p.y > 20 && p.y < 30;
    const float dx = std::max({20.0f - p.x, 0.0f, p.x - 30.0f});
    const float dy = std::max({20.0f - p.y, 0.0f, p.y - 30.0f});
    const float boxDist = inBox ? 0.0f : std::sqrt(dx * dx + dy * dy);
    const bool nearBoxEdge = inBox || boxDist < 0.99f * radii[i];
    const bool nearWall = std::abs(p.y - 45.0f) < 0.99f * radii[i];
    inside += nearBoxEdge || nearWall;
  }
  const ContactStats stats = measureContacts(positions, radii, obstacles);
  EXPECT_GT(pairs, 0);
  EXPECT_EQ(stats.collisions, pairs);
  EXPECT_EQ(stats.penetrations, inside);
  EXPECT_NEAR(stats.minSeparationRatio, minRatio, 1e-6);
}

TEST(Metrics, CollectorCountsArrivalsAndSpeed) {
  SimulatorConfig config;
  config.timeStep = 1.0f;
  Simulator sim(config);
  AgentDef def;
  def.goal = Vec2(2, 0);
  def.params.radius = 0.1f;
  sim.addAgent(def);
  MetricsCollector metrics;
  metrics.observe(sim);
  for (int s = 0; s < 4; ++s) {
    sim.step();
    metrics.observe(sim);
  }
  const RunMetrics& m = metrics.result();
  EXPECT_EQ(m.steps, 4);
  EXPECT_EQ(m.arrived, 1u);
  EXPECT_DOUBLE_EQ(m.firstArrivalTime, 2.0);
  EXPECT_DOUBLE_EQ(m.meanSpeed, 0.5);  // Speed 1 for two steps, then 0 at the goal.
  EXPECT_EQ(m.collisions, 0);
  EXPECT_NE(m.toJson().find("\"arrived\": 1"), std::string::npos);
}

TEST(Trajectory, WritesHeaderInitialStateAndEveryStep) {
  const std::string path = testing::TempDir() + "crowd_traj_test.csv";
  Simulator sim;
  AgentDef def;
  def.prefVelocity = Vec2(1, 0);
  sim.addAgent(def);
  def.position = Vec2(100, 0);  // Beyond neighborDist: each walks undisturbed.
  sim.addAgent(def);
  TrajectoryWriter writer(path);
  writer.write(sim);
  sim.step();
  writer.write(sim);
  writer.close();
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(),
            "step,agent,x,y,vx,vy\n"
            "0,0,0,0,0,0\n0,1,100,0,0,0\n"
            "1,0,0.25,0,1,0\n1,1,100.25,0,1,0\n");
  EXPECT_THROW(TrajectoryWriter("/nonexistent-dir/x.csv"), std::runtime_error);
}

}  // namespace
}  // namespace crowd
