// The built-in scenarios: standard crowd tests that scale with the agent count, so the same
// set-up serves tests (a few agents), demos and benchmarks (millions). All use RVO2's Circle
// parameters (AgentParams{}) and a time step of 0.25 s.
#include <crowd/scenario.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "scenario_internal.hpp"

namespace crowd {
namespace {

using scenario_detail::ScenarioRandom;

constexpr float kTimeStep = 0.25f;

// Blocks of agents heading one way (crossing, corridor) stand on a lattice this far apart,
// shaken by up to kBlockJitter in each axis: 4 - 2 * 0.4 = 3.2 > 2 * 1.5, so nobody overlaps.
constexpr double kBlockSpacing = 4.0;
constexpr double kBlockJitter = 0.4;

// Agents per unit area in the bottleneck room and the random square.
constexpr double kDensity = 0.05;

// Rough evacuation rate of the bottleneck's 8-wide door in agents per second: about 2.7 lanes
// of agents 3 wide walking at 1 unit/s would pass 0.9; crowding at the door halves it.
constexpr double kDoorFlow = 0.5;

struct Point {
  double x;
  double y;
};

Vec2 toVec2(Point p) { return Vec2(static_cast<float>(p.x), static_cast<float>(p.y)); }

/// Steps for an agent at the preferred speed to walk `distance` with 30% to spare for
/// avoiding others, plus 200 steps to settle.
std::int64_t stepsToWalk(double distance) {
  const double stepLength = static_cast<double>(AgentParams{}.prefSpeed) * kTimeStep;
  return static_cast<std::int64_t>(std::ceil(1.3 * distance / stepLength)) + 200;
}

std::size_t ceilDiv(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

/// Length along the travel direction of a block of `count` agents in `lanes` lanes.
double blockLength(std::size_t count, std::size_t lanes) {
  if (count == 0) return 0.0;
  const std::size_t rows = ceilDiv(count, std::min(lanes, count));
  return static_cast<double>(rows - 1) * kBlockSpacing;
}

/// A block of `count` agents moving along the unit vector `direction`: up to `lanes` lanes
/// centred on the line through `front` (the middle of the leading row), rows behind it. Each
/// agent's goal is its start moved `travel` along `direction`.
void addBlock(Scenario& scenario, std::size_t count, std::size_t lanes, Point front,
              Point direction, double travel, std::uint64_t stream) {
  if (count == 0) return;
  lanes = std::min(lanes, count);
  ScenarioRandom random(scenario.seed, stream);
  const Point across{-direction.y, direction.x};
  for (std::size_t k = 0; k < count; ++k) {
    const double back = static_cast<double>(k / lanes) * kBlockSpacing;
    const double side =
        (static_cast<double>(k % lanes) - 0.5 * static_cast<double>(lanes - 1)) * kBlockSpacing;
    const double jitterX = random.between(-kBlockJitter, kBlockJitter);
    const double jitterY = random.between(-kBlockJitter, kBlockJitter);
    const Point start{front.x - back * direction.x + side * across.x + jitterX,
                      front.y - back * direction.y + side * across.y + jitterY};
    AgentDef agent;
    agent.position = toVec2(start);
    agent.goal = toVec2(Point{start.x + travel * direction.x, start.y + travel * direction.y});
    scenario.agents.push_back(agent);
  }
}

/// A solid (counter-clockwise) axis-aligned rectangle.
std::vector<Vec2> solidRectangle(Point min, Point max) {
  return {toVec2(min), toVec2(Point{max.x, min.y}), toVec2(max), toVec2(Point{min.x, max.y})};
}

// RVO2's Circle example at 250 agents; the circle grows with the count to keep the spacing.
void buildCircle(Scenario& scenario, std::size_t count) {
  double radius = 200.0 * static_cast<double>(count) / 250.0;
  if (count < 10) radius = std::max(radius, 10.0);  // Keep a handful from starting in contact.
  scenario_detail::GroupSpec circle;
  circle.shape = scenario_detail::GroupSpec::Shape::circle;
  circle.count = count;
  circle.circleRadius = static_cast<float>(radius);
  scenario_detail::appendGroup(circle, scenario.seed, scenario.agents);
  scenario.steps = stepsToWalk(2.0 * radius);
}

// Two streams meet at right angles at the origin and pass fully through each other.
void buildCrossing(Scenario& scenario, std::size_t count) {
  constexpr std::size_t kLanes = 10;   // A block 40 wide across its direction of travel.
  constexpr double kNearEdge = 30.0;   // From the origin to each block's leading row.
  constexpr double kOvershoot = 40.0;  // How far past the far side the rear row ends up.
  const std::size_t eastbound = count - count / 2;
  const std::size_t northbound = count / 2;
  double longest = 0.0;
  const auto addStream = [&](std::size_t n, Point direction, std::uint64_t stream) {
    const double travel = 2.0 * kNearEdge + blockLength(n, kLanes) + kOvershoot;
    longest = std::max(longest, travel);
    const Point front{-kNearEdge * direction.x, -kNearEdge * direction.y};
    addBlock(scenario, n, kLanes, front, direction, travel, stream);
  };
  addStream(eastbound, Point{1.0, 0.0}, 0);
  addStream(northbound, Point{0.0, 1.0}, 1);
  scenario.steps = stepsToWalk(longest);
}

// Two groups swap ends of a walled corridor, meeting head-on.
void buildCorridor(Scenario& scenario, std::size_t count) {
  constexpr double kHalfWidth = 15.0;
  constexpr double kWallThickness = 2.0;
  constexpr double kEndMargin = 5.0;  // From each corridor end to the nearest agent row.
  // Lanes fit between the walls with the agent's radius + 0.5 to spare after jitter.
  const double clearance = static_cast<double>(AgentParams{}.radius) + 0.5;
  const double laneSpan = 2.0 * (kHalfWidth - clearance - kBlockJitter);
  const auto lanes = static_cast<std::size_t>(std::floor(laneSpan / kBlockSpacing)) + 1;

  const std::size_t eastbound = count - count / 2;
  const std::size_t westbound = count / 2;
  const double block = blockLength(eastbound, lanes);  // The larger block.
  const double length = std::max(200.0, 3.0 * block);
  const double half = 0.5 * length;
  const double travel = length - block - 2.0 * kEndMargin;

  scenario.obstacles.push_back(
      solidRectangle(Point{-half, -kHalfWidth - kWallThickness}, Point{half, -kHalfWidth}));
  scenario.obstacles.push_back(
      solidRectangle(Point{-half, kHalfWidth}, Point{half, kHalfWidth + kWallThickness}));
  const double frontX = -half + kEndMargin + block;
  addBlock(scenario, eastbound, lanes, Point{frontX, 0.0}, Point{1.0, 0.0}, travel, 0);
  addBlock(scenario, westbound, lanes, Point{-frontX, 0.0}, Point{-1.0, 0.0}, travel, 1);
  scenario.steps = stepsToWalk(travel);
}

// A crowded square room empties through one door in its east wall.
void buildBottleneck(Scenario& scenario, std::size_t count) {
  constexpr double kWallThickness = 2.0;
  constexpr double kDoorWidth = 8.0;
  constexpr double kGoalBeyondDoor = 15.0;
  const AgentParams params;
  const double side = std::max(30.0, std::sqrt(static_cast<double>(count) / kDensity));
  const double half = 0.5 * side;
  const double t = kWallThickness;
  const double door = 0.5 * kDoorWidth;
  scenario.obstacles.push_back(solidRectangle(Point{-half - t, -half - t}, Point{half + t, -half}));
  scenario.obstacles.push_back(solidRectangle(Point{-half - t, half}, Point{half + t, half + t}));
  scenario.obstacles.push_back(solidRectangle(Point{-half - t, -half}, Point{-half, half}));
  scenario.obstacles.push_back(solidRectangle(Point{half, -half}, Point{half + t, -door}));
  scenario.obstacles.push_back(solidRectangle(Point{half, door}, Point{half + t, half}));

  // A square lattice over the room, radius + 1 clear of the walls. The jitter shrinks when the
  // lattice is tight so that neighbours stay a disc apart.
  const double radius = params.radius;
  const double usable = side - 2.0 * (radius + 1.0);
  const auto columns = static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(count))));
  const std::size_t rows = ceilDiv(count, columns);
  const double spacing =
      columns > 1 ? (usable - 2.0 * kBlockJitter) / static_cast<double>(columns - 1) : 0.0;
  const double jitter = std::clamp(0.5 * (spacing - 2.0 * radius - 0.1), 0.0, kBlockJitter);
  const Vec2 goal = toVec2(Point{half + t + kGoalBeyondDoor, 0.0});
  ScenarioRandom random(scenario.seed, 0);
  double farthest = 0.0;
  for (std::size_t k = 0; k < count; ++k) {
    const double column = static_cast<double>(k % columns) - 0.5 * static_cast<double>(columns - 1);
    const double row = static_cast<double>(k / columns) - 0.5 * static_cast<double>(rows - 1);
    const double jitterX = random.between(-jitter, jitter);
    const double jitterY = random.between(-jitter, jitter);
    AgentDef agent;
    agent.position = toVec2(Point{column * spacing + jitterX, row * spacing + jitterY});
    agent.goal = goal;
    agent.params.goalRadius = 6.0f;
    farthest = std::max(farthest, static_cast<double>(length(agent.position - goal)));
    scenario.agents.push_back(agent);
  }
  scenario.removeArrived = true;
  // Walking time for the farthest agent plus the time the door needs to let everyone through.
  scenario.steps = stepsToWalk(farthest) +
                   static_cast<std::int64_t>(std::ceil(static_cast<double>(count) / kDoorFlow /
                                                       static_cast<double>(kTimeStep)));
}

// Uniform density, random goals: a throughput benchmark rather than a task to finish.
void buildRandom(Scenario& scenario, std::size_t count) {
  constexpr double kJitter = 0.7;  // sqrt(20) - 2 * 0.7 = 3.07 > 3: no overlaps at the start.
  const double spacing = std::sqrt(1.0 / kDensity);
  const double half = 0.5 * std::sqrt(static_cast<double>(count) / kDensity);
  const auto columns = static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(count))));
  const std::size_t rows = ceilDiv(count, columns);
  ScenarioRandom placement(scenario.seed, 0);
  ScenarioRandom goals(scenario.seed, 1);
  for (std::size_t k = 0; k < count; ++k) {
    const double column = static_cast<double>(k % columns) - 0.5 * static_cast<double>(columns - 1);
    const double row = static_cast<double>(k / columns) - 0.5 * static_cast<double>(rows - 1);
    const double jitterX = placement.between(-kJitter, kJitter);
    const double jitterY = placement.between(-kJitter, kJitter);
    AgentDef agent;
    agent.position = toVec2(Point{column * spacing + jitterX, row * spacing + jitterY});
    const double goalX = goals.between(-half, half);
    agent.goal = toVec2(Point{goalX, goals.between(-half, half)});
    scenario.agents.push_back(agent);
  }
  scenario.steps = 300;
}

struct Builtin {
  const char* name;
  std::size_t defaultAgents;
  const char* description;
  void (*build)(Scenario&, std::size_t);
};

constexpr Builtin kBuiltins[] = {
    {"circle", 250,
     "agents on a circle swap places with the antipodal agent; RVO2's Circle example at 250",
     buildCircle},
    {"crossing", 400, "two perpendicular streams, eastbound and northbound, cross at the origin",
     buildCrossing},
    {"corridor", 300, "two groups swap ends of a 30-wide walled corridor, meeting head-on",
     buildCorridor},
    {"bottleneck", 200, "a crowded square room evacuates through an 8-wide door", buildBottleneck},
    {"random", 1000, "agents at density 0.05 in an open square walk to random goals", buildRandom},
};

const Builtin& findBuiltin(const std::string& name) {
  for (const Builtin& builtin : kBuiltins) {
    if (name == builtin.name) return builtin;
  }
  std::string known;
  for (const Builtin& builtin : kBuiltins)
    known += (known.empty() ? "" : ", ") + std::string(builtin.name);
  throw ScenarioError("unknown built-in scenario '" + name + "' (known: " + known + ")");
}

}  // namespace

std::vector<std::string> builtinScenarioNames() {
  std::vector<std::string> names;
  for (const Builtin& builtin : kBuiltins) names.emplace_back(builtin.name);
  return names;
}

std::string builtinScenarioDescription(const std::string& name) {
  const Builtin& builtin = findBuiltin(name);
  return std::string(builtin.description) + " (default " + std::to_string(builtin.defaultAgents) +
         " agents)";
}

Scenario builtinScenario(const std::string& name, std::optional<std::size_t> agents,
                         std::uint64_t seed) {
  const Builtin& builtin = findBuiltin(name);
  const std::size_t count = agents.value_or(builtin.defaultAgents);
  Scenario scenario;
  scenario.name = "builtin:" + name;
  if (count == 0 || count > scenario_detail::kMaxScenarioAgents) {
    throw ScenarioError(scenario.name + ": agents: must be between 1 and " +
                        std::to_string(scenario_detail::kMaxScenarioAgents) + ", got " +
                        std::to_string(count) +
                        (count == 0 ? "" : " (more agents will not fit in memory)"));
  }
  scenario.timeStep = kTimeStep;
  scenario.seed = seed;
  scenario.agents.reserve(count);
  builtin.build(scenario, count);
  addOverlapWarnings(scenario);
  return scenario;
}

}  // namespace crowd
