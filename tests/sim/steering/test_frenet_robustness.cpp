// The Frenet planner through the Simulator on awkward inputs: paths with a short segment among
// long ones, a lane jog and a staircase (the line must make no cusp, and a bend too sharp for the
// regular speeds is crept round); a vehicle starting far off its line; a thin wall and a thin
// circle with no ORCA behind the plan (the sweep between checked points must see them); two
// vehicles head-on with no ORCA (the emergency stop must be hard enough); a loop path (refused).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <crowd/simulator.hpp>

#include "frenet_test_helpers.hpp"

namespace crowd {
namespace {

using test::planningConfig;

// The auditor's small vehicle: radius 0.5, wanting 2 m/s, at most 3.
AgentParams smallVehicle() {
  AgentParams p;
  p.radius = 0.5f;
  p.prefSpeed = 2.0f;
  p.maxSpeed = 3.0f;
  return p;
}

Behavior frenetOn(int path) {
  Behavior b;
  b.planner = LocalPlanner::Frenet;
  b.path = path;
  return b;
}

// Drives one vehicle from `start` along `points` for up to `steps` steps; returns whether it
// arrived at the path's last point.
bool drivesToTheEnd(const std::vector<Vec2>& points, Vec2 start, int steps) {
  Simulator sim(planningConfig());
  const int path = sim.addPath(points, false);
  AgentDef def;
  def.position = start;
  def.goal = points.back();
  def.params = smallVehicle();
  def.behavior = frenetOn(path);
  const AgentId id = sim.addAgent(def);
  for (int s = 0; s < steps && !sim.hasArrived(id); ++s) sim.step();
  return sim.hasArrived(id);
}

// A uniform Catmull-Rom line made a cusp next to the short segment: the vehicle reversed into it
// and froze. The first road is 60 m, the second 40 m: at 2 m/s each takes 30 s and 20 s, and 60 s
// leaves room for starting and stopping.
TEST(FrenetRobustness, StraightRoadsWithUnevenPointsArrive) {
  EXPECT_TRUE(drivesToTheEnd({{0, 0}, {1, 0}, {60, 0}}, Vec2(0, 0), 600));
  EXPECT_TRUE(drivesToTheEnd({{0, 0}, {20, 0}, {21, 0}, {40, 0}}, Vec2(0, 0), 600));
}

// A jog and a staircase: their corners bend the line sharper than maxCurvature (1), so no regular
// end speed (1 to 3) passes there; the recovery set's slower speeds take the vehicle round.
TEST(FrenetRobustness, JogAndStaircaseArrive) {
  EXPECT_TRUE(drivesToTheEnd({{0, 0}, {20, 0}, {20, 4}, {40, 4}}, Vec2(0, 0), 900));
  EXPECT_TRUE(drivesToTheEnd({{0, 0}, {10, 0}, {10, 2}, {20, 2}, {20, 4}, {30, 4}}, Vec2(0, 0), 900));
}

// 10 m off a 100 m line, at rest: no regular candidate gets back within the speed limit (see
// KernelFrenetPlanner.FarOffTheLineHeadsBackWithinTheLimits), and the vehicle used to stand there
// for good. 100 s is more than twice the 45 s the drive takes at 2 m/s.
TEST(FrenetRobustness, VehicleFarOffItsLineArrives) {
  EXPECT_TRUE(drivesToTheEnd({{0, 0}, {100, 0}}, Vec2(10, 10), 1000));
}

// A wall across the road, no ORCA: the vehicle follows its plan alone, so the plan must not cross
// the wall. With radius 0.1 and margin 0, checked points 0.8 m apart at 4 m/s jumped it.
TEST(FrenetRobustness, ThinWallIsNotCrossedWithoutAvoidance) {
  SimulatorConfig config = planningConfig();
  config.timeStep = 0.02f;
  Simulator sim(config);
  const int path = sim.addPath(std::vector<Vec2>{{0, 0}, {100, 0}}, false);
  sim.addObstacle(std::vector<Vec2>{{30, -5}, {30, 5}});
  AgentDef def;
  def.position = Vec2(0, 0);
  def.goal = Vec2(100, 0);
  def.params = smallVehicle();
  def.params.radius = 0.1f;
  def.params.prefSpeed = 3.0f;
  def.params.maxSpeed = 4.0f;
  def.behavior = frenetOn(path);
  def.behavior.avoidance = AvoidanceMode::None;
  def.behavior.frenet.margin = 0.0f;
  const AgentId id = sim.addAgent(def);
  float farthest = 0.0f;
  for (int s = 0; s < 1500; ++s) {
    sim.step();
    farthest = std::max(farthest, sim.position(id).x);
  }
  EXPECT_LT(farthest, 30.0f - 0.1f) << "it stays on its side of the wall";
  EXPECT_GT(farthest, 25.0f) << "after driving up to it";
}

// A circle of radius 0.3 on the line, no ORCA, one offset (no swerve), checked every 1 s at 4 m/s:
// the checked points fell either side of it.
TEST(FrenetRobustness, ThinCircleIsNotCrossedAtALongCheckStep) {
  Simulator sim(planningConfig());
  const int path = sim.addPath(std::vector<Vec2>{{0, 0}, {100, 0}}, false);
  sim.addCircle(Vec2(30, 0), 0.3f);
  AgentDef def;
  def.position = Vec2(0, 0);
  def.goal = Vec2(100, 0);
  def.params = smallVehicle();
  def.params.prefSpeed = 4.0f;
  def.params.maxSpeed = 5.0f;
  def.behavior = frenetOn(path);
  def.behavior.avoidance = AvoidanceMode::None;
  def.behavior.frenet.checkStep = 1.0f;
  def.behavior.frenet.offsets = 1;
  const AgentId id = sim.addAgent(def);
  float nearest = INFINITY;
  for (int s = 0; s < 600; ++s) {
    sim.step();
    nearest = std::min(nearest, length(sim.position(id) - Vec2(30, 0)) - 0.3f - 0.5f);
  }
  EXPECT_GT(nearest, 0.0f) << "no contact with the circle";
}

// Two vehicles head-on along one line, no ORCA: each sees the other coming (at constant velocity)
// and, with no room to pass in the default lane, stops. Braking at 0.6 m/s^2 they met; at the
// 3 m/s^2 limit each needs 1.5 m to stop from 3 m/s.
TEST(FrenetRobustness, HeadOnVehiclesWithoutAvoidanceDoNotTouch) {
  Simulator sim(planningConfig());
  const int east = sim.addPath(std::vector<Vec2>{{0, 0}, {60, 0}}, false);
  const int west = sim.addPath(std::vector<Vec2>{{60, 0}, {0, 0}}, false);
  AgentDef def;
  def.params = test::vehicle();
  def.params.neighborDist = 15.0f;
  def.behavior = frenetOn(east);
  def.behavior.avoidance = AvoidanceMode::None;
  def.position = Vec2(0, 0);
  def.goal = Vec2(60, 0);
  const AgentId a = sim.addAgent(def);
  def.behavior.path = west;
  def.position = Vec2(60, 0);
  def.goal = Vec2(0, 0);
  const AgentId b = sim.addAgent(def);
  float nearest = INFINITY;
  for (int s = 0; s < 800; ++s) {
    sim.step();
    nearest = std::min(nearest, length(sim.position(a) - sim.position(b)));
  }
  EXPECT_GT(nearest, 2.0f * def.params.radius) << "the two discs never overlap";
}

// A loop's line would end at its seam, where the vehicle stops: the planner is refused on loops.
TEST(FrenetRobustness, APlannerOnALoopIsRefused) {
  Simulator sim(planningConfig());
  const int loop = sim.addPath(std::vector<Vec2>{{0, 0}, {20, 0}, {20, 20}, {0, 20}}, true);
  const int open = sim.addPath(std::vector<Vec2>{{0, 0}, {20, 0}}, false);
  AgentDef def;
  def.params = smallVehicle();
  def.behavior = frenetOn(loop);
  try {
    sim.addAgent(def);
    ADD_FAILURE() << "a planner on a loop was accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("path 0 is a loop"), std::string::npos) << error.what();
  }
  def.behavior.path = open;
  const AgentId id = sim.addAgent(def);
  EXPECT_THROW(sim.setBehavior(id, frenetOn(loop)), std::invalid_argument);
  Behavior ownRoute = frenetOn(kOwnRoute);
  sim.setBehavior(id, ownRoute);
  EXPECT_THROW(sim.setRoute(id, loop), std::invalid_argument) << "nor as its own route";
  // `follow` laps it.
  Behavior follow;
  follow.behaviors = {{BehaviorKind::FollowPath, 1.0f}};
  follow.path = loop;
  EXPECT_NO_THROW(sim.setBehavior(id, follow));
}

}  // namespace
}  // namespace crowd
