// The pedestrian built-ins: people with the pedestrian preset's SI values moved by the
// collision-free speed model, in the two settings pedestrian engineers measure first. `walkway`
// is a crowd at 2 P/m^2 walking one way down a 10 m wide walkway (the fundamental diagram's
// setting, and the benchmark of a model's cost); `doorway` is a room emptying through a 1 m door
// (a bottleneck's flow). Either's model can be swapped (crowdsim run --model, bench --model).
#include <algorithm>
#include <cmath>
#include <optional>

#include "scenario/builtins/builtin_support.hpp"

namespace crowd::builtin_detail {
namespace {

constexpr double kDensity = 2.0;  // P/m^2.
constexpr double kWallThickness = 1.0;

/// A pedestrian of the preset under the collision-free speed model.
AgentDef pedestrian(Vec2 position) {
  AgentDef agent;
  agent.position = position;
  agent.params = kPedestrianParams;
  agent.behavior.avoidance = AvoidanceMode::Csm;
  return agent;
}

/// `count` people on a jittered lattice filling the box [min, max] (cells of the box's share of
/// area per person; each person in the middle of its cell, shaken by up to half the room its
/// body leaves there, so that nobody overlaps anybody or the box's edges).
void fillBox(Scenario& scenario, std::size_t count, Point min, Point max, Vec2 prefVelocity,
             std::optional<Vec2> goal) {
  const double width = max.x - min.x;
  const double height = max.y - min.y;
  const double cell = std::sqrt(width * height / static_cast<double>(std::max<std::size_t>(count, 1)));
  const auto columns = static_cast<std::size_t>(std::max(1.0, std::round(width / cell)));
  const std::size_t rows = ceilDiv(count, columns);
  const double dx = width / static_cast<double>(columns);
  const double dy = height / static_cast<double>(rows);
  const double room = std::min(dx, dy) - 2.0 * static_cast<double>(kPedestrianParams.radius) - 0.02;
  const double jitter = std::max(0.0, 0.5 * room);
  scenario_detail::ScenarioRandom random(scenario.seed, 0);
  for (std::size_t k = 0; k < count; ++k) {
    const double x = min.x + (static_cast<double>(k % columns) + 0.5) * dx + random.between(-jitter, jitter);
    const double y = min.y + (static_cast<double>(k / columns) + 0.5) * dy + random.between(-jitter, jitter);
    AgentDef agent = pedestrian(toVec2(Point{x, y}));
    agent.prefVelocity = prefVelocity;
    agent.goal = goal;
    scenario.agents.push_back(agent);
  }
}

}  // namespace

void buildWalkway(Scenario& scenario, std::size_t count) {
  scenario.timeStep = kPedestrianTimeStep;
  constexpr double kWidth = 10.0;
  // The crowd's block, then room ahead for a minute's walk.
  const double length = std::max(10.0, static_cast<double>(count) / (kDensity * kWidth));
  const double ahead = 90.0;
  const double t = kWallThickness;
  requireWithinCoordinateLimit(scenario, count, length + ahead + t);
  scenario.obstacles.push_back(solidRectangle(Point{-1.0, -t}, Point{length + ahead, 0.0}));
  scenario.obstacles.push_back(solidRectangle(Point{-1.0, kWidth}, Point{length + ahead, kWidth + t}));
  fillBox(scenario, count, Point{0.0, 0.0}, Point{length, kWidth}, Vec2(kPedestrianParams.prefSpeed, 0.0f),
          std::nullopt);
  scenario.steps = 600;
}

void buildDoorway(Scenario& scenario, std::size_t count) {
  scenario.timeStep = kPedestrianTimeStep;
  constexpr double kDoorWidth = 1.0;
  constexpr double kGoalBeyondDoor = 3.0;
  const double side = std::max(4.0, std::sqrt(static_cast<double>(count) / kDensity) + 1.0);
  const double half = 0.5 * side;
  const double t = kWallThickness;
  requireWithinCoordinateLimit(scenario, count, half + t + kGoalBeyondDoor);
  addRoomWithEastDoor(scenario, half, t, kDoorWidth);
  const Vec2 goal = toVec2(Point{half + t + kGoalBeyondDoor, 0.0});
  fillBox(scenario, count, Point{-half + 0.5, -half + 0.5}, Point{half - 0.5, half - 0.5}, Vec2(0.0f), goal);
  for (AgentDef& agent : scenario.agents) agent.params.goalRadius = 1.0f;
  scenario.removeArrived = true;
  // The walk across the room, then the door at a generous 1 person/s.
  scenario.steps = stepsToWalk(scenario, 2.0 * side, 1.3, kPedestrianParams.prefSpeed) +
                   static_cast<std::int64_t>(std::ceil(static_cast<double>(count) / kPedestrianTimeStep));
}

}  // namespace crowd::builtin_detail
