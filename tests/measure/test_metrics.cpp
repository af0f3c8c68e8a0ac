// Contact metrics against a brute-force count, captures and path distances on hand-made runs
// whose figures are worked out by hand, and trajectory output.
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
  obstacles.addCircle(Vec2(45, 15), 5);  // Measured as its disc, not as ORCA's polygon round it.

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
    const bool nearPost = length(p - Vec2(45, 15)) < 5.0f + 0.99f * radii[i];
    inside += nearBoxEdge || nearWall || nearPost;
  }
  const ContactStats stats = measureContacts(positions, radii, obstacles);
  EXPECT_GT(pairs, 0);
  EXPECT_EQ(stats.collisions, pairs);
  EXPECT_EQ(stats.penetrations, inside);
  EXPECT_NEAR(stats.minSeparationRatio, minRatio, 1e-6);
}

TEST(Metrics, ContactCountsIn3dMatchBruteForceFromSparseToPiledUp) {
  // A sparse swarm, and a pile of 100 spheres within a cube of side 1 (4,950 pairs, each within
  // more than a neighbour list's 32 of every sphere): every pair counts.
  std::mt19937 rng(12);
  std::uniform_real_distribution<float> size(0.3f, 1.2f);
  for (const float side : {40.0f, 1.0f}) {
    std::uniform_real_distribution<float> coord(0.0f, side);
    std::vector<Vec3> positions(side > 1.0f ? 900 : 100);
    std::vector<float> radii(positions.size());
    for (std::size_t i = 0; i < positions.size(); ++i) {
      positions[i] = Vec3(coord(rng), coord(rng), coord(rng));
      radii[i] = size(rng);
    }
    std::int64_t pairs = 0;
    double minRatio = INFINITY;
    for (std::size_t i = 0; i < positions.size(); ++i) {
      for (std::size_t j = i + 1; j < positions.size(); ++j) {
        const double dx = static_cast<double>(positions[i].x) - positions[j].x;
        const double dy = static_cast<double>(positions[i].y) - positions[j].y;
        const double dz = static_cast<double>(positions[i].z) - positions[j].z;
        const double d = std::sqrt(dx * dx + dy * dy + dz * dz);
        const double r = static_cast<double>(radii[i]) + radii[j];
        if (d < 0.99 * r) ++pairs;
        if (d < 1.5 * r) minRatio = std::min(minRatio, d / r);
      }
    }
    const ContactStats stats = measureContacts3(positions, radii, 2);
    EXPECT_GT(pairs, 0) << side;
    EXPECT_EQ(stats.collisions, pairs) << side;
    EXPECT_NEAR(stats.minSeparationRatio, minRatio, 1e-6) << side;
  }
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

// A standing target and pursuers that move straight at it at 1 per 1 s step (no avoidance,
// gain 1: each step's velocity is the desired one). Capture is at 1.05 * (1 + 1) = 2.1.
TEST(Metrics, CapturesPerPursuitKind) {
  SimulatorConfig config;
  config.timeStep = 1.0f;
  Simulator sim(config);
  AgentDef target;
  target.position = Vec2(10, 0);
  target.params.radius = 1.0f;
  target.behavior.avoidance = AvoidanceMode::None;  // Stands still: no goal, no preferred velocity.
  const AgentId evader = sim.addAgent(target);
  const auto addPursuer = [&](Vec2 position, PursuitKind kind) {
    AgentDef def;
    def.position = position;
    def.params.radius = 1.0f;
    def.params.maxSpeed = 1.0f;
    def.behavior.behaviors = {{BehaviorKind::Pursue, 1.0f}};
    def.behavior.pursuit = kind;
    def.behavior.avoidance = AvoidanceMode::None;
    const AgentId id = sim.addAgent(def);
    sim.setTarget(id, evader);
    return id;
  };
  addPursuer(Vec2(0, 0), PursuitKind::Sight);       // 10 away: 10 - 8 = 2 <= 2.1 after 8 steps.
  addPursuer(Vec2(12, 0), PursuitKind::Sight);      // 2 away: caught in the initial state, at 0 s.
  addPursuer(Vec2(-100, 0), PursuitKind::Sight);    // Too far to arrive within 20 steps.
  addPursuer(Vec2(10, -20), PursuitKind::Chase);    // Straight up: 20 - 18 = 2 after 18 steps.
  addPursuer(Vec2(0, 10), PursuitKind::Intercept);  // sqrt(200) - 13 = 1.14 (12: 2.14) after 13.
  MetricsCollector metrics(false);
  metrics.observe(sim);
  for (int s = 0; s < 20; ++s) {
    sim.step();
    metrics.observe(sim);
  }
  const RunMetrics& m = metrics.result();
  ASSERT_TRUE(m.hasPursuers());
  const CaptureStats& chase = m.captures[static_cast<int>(PursuitKind::Chase)];
  const CaptureStats& sight = m.captures[static_cast<int>(PursuitKind::Sight)];
  const CaptureStats& intercept = m.captures[static_cast<int>(PursuitKind::Intercept)];
  EXPECT_EQ(sight.pursuers, 3u);
  EXPECT_EQ(sight.caught, 2u);
  EXPECT_DOUBLE_EQ(sight.meanTime, 4.0);  // (8 + 0) / 2.
  EXPECT_DOUBLE_EQ(sight.maxTime, 8.0);
  EXPECT_EQ(chase.pursuers, 1u);
  EXPECT_EQ(chase.caught, 1u);
  EXPECT_DOUBLE_EQ(chase.meanTime, 18.0);
  EXPECT_EQ(intercept.caught, 1u);
  EXPECT_DOUBLE_EQ(intercept.maxTime, 13.0);
  const std::string json = m.toJson(-1);
  const std::string sightJson = R"("sight":{"caught":2,"maxTime":8.0,"meanTime":4.0,"pursuers":3})";
  EXPECT_NE(json.find(sightJson), std::string::npos) << json;
}

TEST(Metrics, NoPursuersNoCaptures) {
  Simulator sim;
  sim.addAgent(AgentDef{});
  MetricsCollector metrics;
  metrics.observe(sim);
  sim.step();
  metrics.observe(sim);
  EXPECT_FALSE(metrics.result().hasPursuers());
  EXPECT_EQ(metrics.result().paths.agentSteps, 0);
  EXPECT_NE(metrics.result().toJson(-1).find("\"meanDistance\":null"), std::string::npos);
}

// Followers that cannot move (maxSpeed 0), so their distances are known: 1 from a square loop,
// 5 from it (its centre), and 10 from an open path that, closed, would pass 7.07 away.
TEST(Metrics, PathDistanceOfFollowers) {
  Simulator sim;
  const std::vector<Vec2> square{{0, 0}, {10, 0}, {10, 10}, {0, 10}};
  const std::vector<Vec2> bend{{0, 20}, {10, 20}, {10, 30}};
  const int loop = sim.addPath(square, true);
  const int open = sim.addPath(bend, false);
  const auto addFollower = [&](Vec2 position, int path) {
    AgentDef def;
    def.position = position;
    def.params.maxSpeed = 0.0f;
    def.behavior.behaviors = {{BehaviorKind::FollowPath, 1.0f}};
    def.behavior.path = path;
    def.behavior.pathRadius = 2.0f;
    def.behavior.avoidance = AvoidanceMode::None;
    sim.addAgent(def);
  };
  addFollower(Vec2(5, -1), loop);
  addFollower(Vec2(5, 5), loop);
  addFollower(Vec2(0, 30), open);
  AgentDef bystander;  // Not a follower: not counted.
  bystander.position = Vec2(50, 50);
  sim.addAgent(bystander);
  MetricsCollector metrics(false);
  metrics.observe(sim);  // The initial state is not counted.
  for (int s = 0; s < 4; ++s) {
    sim.step();
    metrics.observe(sim);
  }
  const PathStats& paths = metrics.result().paths;
  EXPECT_EQ(paths.followers, 3u);
  EXPECT_EQ(paths.agentSteps, 12);
  EXPECT_NEAR(paths.meanDistance, (1.0 + 5.0 + 10.0) / 3.0, 1e-9);
  EXPECT_NEAR(paths.withinRadius, 1.0 / 3.0, 1e-12);
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

TEST(Metrics, ContactsRefuseMismatchedInputs) {
  const std::vector<Vec2> positions{{0, 0}, {1, 0}, {2, 0}};
  const std::vector<float> oneRadius{0.5f};
  EXPECT_THROW(measureContacts(positions, oneRadius, ObstacleSet{}), std::invalid_argument);
  const std::vector<Vec3> positions3{Vec3{0.0f}, Vec3{1.0f}};
  EXPECT_THROW(measureContacts3(positions3, oneRadius), std::invalid_argument);
  const std::vector<float> radii{0.5f, 0.5f, 0.5f};
  EXPECT_THROW(measureContacts(positions, radii, ObstacleSet{}, kMaxThreads + 1), std::invalid_argument);
  EXPECT_EQ(measureContacts(positions, radii, ObstacleSet{}, 1).collisions, 0);
  // Radii beyond the agents' limit (or not numbers) would size the grids past their range.
  for (const float bad : {1e30f, -0.5f, std::numeric_limits<float>::quiet_NaN()}) {
    const std::vector<float> wrong{0.5f, bad, 0.5f};
    try {
      measureContacts(positions, wrong, ObstacleSet{});
      ADD_FAILURE() << "radius " << bad << " was measured";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("contacts: radius 1 is "), std::string::npos) << e.what();
    }
    EXPECT_THROW(measureContacts3(std::vector<Vec3>(3, Vec3{0.0f}), wrong), std::invalid_argument);
  }
  // Two agents a whole limit-sized radius apart, overlapping: still counted.
  const std::vector<Vec2> far{{0, 0}, {1.5e4f, 0}};
  EXPECT_EQ(measureContacts(far, std::vector<float>{1e4f, 1e4f}, ObstacleSet{}).collisions, 1);
}

TEST(Metrics, TrajectoryFilesRefuseTheOtherWorldAndNoName) {
  EXPECT_THROW(TrajectoryWriter(testing::TempDir() + "crowd_dims.csv", 5), std::invalid_argument);
  EXPECT_THROW(TrajectoryWriter(""), std::runtime_error);
  TrajectoryWriter planar(testing::TempDir() + "crowd_planar.csv", 2);
  EXPECT_THROW(planar.write(Simulator3{}), std::invalid_argument);
  TrajectoryWriter spatial(testing::TempDir() + "crowd_spatial.csv", 3);
  EXPECT_THROW(spatial.write(Simulator{}), std::invalid_argument);
}

}  // namespace
}  // namespace crowd
