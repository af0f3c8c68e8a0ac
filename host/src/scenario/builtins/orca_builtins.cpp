// The ORCA built-ins: circle, crossing, corridor, bottleneck and random, standard crowd tests
// that scale with the agent count. They use RVO2's Circle parameters (AgentParams{}); circle and
// random its 0.25 s time step, the flows 0.1 s. builtin_table.cpp lists them with the others.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <crowd/scenario.hpp>

#include "geometry/geometry.hpp"
#include "scenario/builtins/builtin_support.hpp"
#include "scenario/group_generation.hpp"
#include "scenario/risks.hpp"

namespace crowd {

namespace builtin_detail {
namespace {

using scenario_detail::ScenarioRandom;

// Blocks of agents heading one way (crossing, corridor) stand in rows this far apart, each
// agent shaken by up to kBlockJitter in each axis: 4 - 2 * 0.4 = 3.2 > 2 * 1.5, so nobody
// overlaps.
constexpr double kBlockSpacing = 4.0;
constexpr double kBlockJitter = 0.4;

// Agents per unit area in the bottleneck room and the random square.
constexpr double kDensity = 0.05;

// Evacuation rate of the bottleneck's 8-wide door in agents per second, from a run of an
// RVO2-style reference simulator (200 agents left in about 575 s: 0.35 per second), less a
// margin.
constexpr double kDoorFlow = 0.3;

/// Where a block's agents stand: `lanes` lanes `laneSpacing` apart, centred on the line of
/// travel through `front` (the middle of the leading row), rows kBlockSpacing apart behind it.
/// Agents fill the block row by row.
struct BlockLayout {
  std::size_t lanes;
  double laneSpacing;
  Point front;
  Point direction;  // Unit vector of travel.
};

/// An agent's place in its block before jitter: how far behind the leading row, and how far
/// to the left of the centre line.
struct BlockSlot {
  double back;
  double side;
};

/// Length along the direction of travel of a block of `count` agents in `lanes` lanes.
double blockLength(std::size_t count, std::size_t lanes) {
  if (count == 0) return 0.0;
  return static_cast<double>(ceilDiv(count, lanes) - 1) * kBlockSpacing;
}

/// Adds `count` agents standing in `layout`; `goalOf(slot)` gives each one's goal.
template <typename GoalOf>
void addBlock(Scenario& scenario, std::size_t count, const BlockLayout& layout, std::uint64_t stream,
              GoalOf goalOf) {
  ScenarioRandom random(scenario.seed, stream);
  const Point along = layout.direction;
  const Point across{-along.y, along.x};
  const double centre = 0.5 * static_cast<double>(layout.lanes - 1);
  for (std::size_t k = 0; k < count; ++k) {
    const BlockSlot slot{static_cast<double>(k / layout.lanes) * kBlockSpacing,
                         (static_cast<double>(k % layout.lanes) - centre) * layout.laneSpacing};
    const double jitterX = random.between(-kBlockJitter, kBlockJitter);
    const double jitterY = random.between(-kBlockJitter, kBlockJitter);
    AgentDef agent;
    agent.position = toVec2(Point{layout.front.x - slot.back * along.x + slot.side * across.x + jitterX,
                                  layout.front.y - slot.back * along.y + slot.side * across.y + jitterY});
    agent.goal = toVec2(goalOf(slot));
    scenario.agents.push_back(agent);
  }
}

// RVO2's Circle example at 250 agents; the circle grows with the count to keep the spacing.
}  // namespace

void buildCircle(Scenario& scenario, std::size_t count) {
  double radius = 200.0 * static_cast<double>(count) / 250.0;
  if (count < 10) radius = std::max(radius, 10.0);  // Keep a handful from starting in contact.
  requireWithinCoordinateLimit(scenario, count, radius);
  GroupSpec circle;
  circle.shape = GroupSpec::Shape::circle;
  circle.count = count;
  circle.circleRadius = static_cast<float>(radius);
  scenario_detail::appendGroup(circle, scenario.seed, scenario.agents);
  // Everyone meets in the middle: RVO2 needs 3,547 steps at 250 agents, 2.2 times the straight
  // walk; small circles (64 agents: 3.1 times) take relatively longer to untangle. 4 times
  // leaves room.
  scenario.steps = stepsToWalk(scenario, 2.0 * radius, 4.0);
}

// Two streams meet at right angles at the origin and pass through each other. They come packed
// (rows and lanes 4 apart) and settle beyond the crossing in a looser formation (8 apart): an
// agent jostled out of order on the way needs gaps wider than a body to reach its place, and
// with a packed formation at the far side some never do.
void buildCrossing(Scenario& scenario, std::size_t count) {
  scenario.timeStep = kFlowTimeStep;
  constexpr std::size_t kLanes = 10;  // A block 40 wide across its direction of travel.
  constexpr double kNearEdge = 30.0;  // From the origin to each block's leading row.
  constexpr double kFarEdge = 70.0;   // From the origin to the formation's nearest row.
  constexpr double kLooseness = 2.0;  // Formation spacing over start spacing.
  // The larger (eastbound) stream's goals reach furthest from the origin.
  const std::size_t eastbound = count - count / 2;
  requireWithinCoordinateLimit(scenario, count,
                               kFarEdge + kLooseness * blockLength(eastbound, std::min(kLanes, eastbound)));
  double longest = 0.0;
  const auto addStream = [&](std::size_t n, Point direction, std::uint64_t stream) {
    if (n == 0) return;
    const BlockLayout layout{std::min(kLanes, n), kBlockSpacing,
                             Point{-kNearEdge * direction.x, -kNearEdge * direction.y}, direction};
    const double length = blockLength(n, layout.lanes);
    // The leading row goes furthest, so nobody has to pass through those already there.
    longest = std::max(longest, kNearEdge + kFarEdge + kLooseness * length);
    addBlock(scenario, n, layout, stream, [&](BlockSlot slot) {
      const double ahead = kFarEdge + kLooseness * (length - slot.back);
      const double side = kLooseness * slot.side;
      return Point{ahead * direction.x - side * direction.y, ahead * direction.y + side * direction.x};
    });
  };
  addStream(eastbound, Point{1.0, 0.0}, 0);  // Eastbound takes the odd agent.
  addStream(count / 2, Point{0.0, 1.0}, 1);
  // The streams slow each other down where they cross: the reference run of 400 agents took
  // 1.8 times the straight walk.
  scenario.steps = stepsToWalk(scenario, longest, 2.5);
}

// Two groups swap ends of a walled corridor, passing head-on. Each group walks in lanes 8
// apart, the two groups' lanes interleaved 4 apart. Blocks filling the width would have to pass
// at nearly twice the density that bodies 3 wide can pack, and ORCA jams: in an RVO2-style
// reference run 2 of 300 agents got through in 3,000 steps.
void buildCorridor(Scenario& scenario, std::size_t count) {
  scenario.timeStep = kFlowTimeStep;
  constexpr double kHalfWidth = 15.0;
  constexpr double kWallThickness = 2.0;
  constexpr double kEndMargin = 5.0;  // From each corridor end to the nearest agent row.
  constexpr double kLaneSpacing = 2.0 * kBlockSpacing;
  // Lanes fit between the walls with the agent's radius + 0.5 to spare after jitter.
  const double clearance = static_cast<double>(AgentParams{}.radius) + 0.5;
  const double laneSpan = 2.0 * (kHalfWidth - clearance - kBlockJitter);
  const auto eastLanes = static_cast<std::size_t>(std::floor(laneSpan / kLaneSpacing)) + 1;
  // One lane fewer, centred likewise, falls between the others.
  const std::size_t westLanes = std::max<std::size_t>(eastLanes - 1, 1);

  const std::size_t eastbound = count - count / 2;
  const std::size_t westbound = count / 2;
  const double block = std::max(blockLength(eastbound, eastLanes), blockLength(westbound, westLanes));
  const double length = std::max(200.0, 3.0 * block);
  const double half = 0.5 * length;
  const double travel = length - block - 2.0 * kEndMargin;
  requireWithinCoordinateLimit(scenario, count, half);

  scenario.obstacles.push_back(
      solidRectangle(Point{-half, -kHalfWidth - kWallThickness}, Point{half, -kHalfWidth}));
  scenario.obstacles.push_back(
      solidRectangle(Point{-half, kHalfWidth}, Point{half, kHalfWidth + kWallThickness}));
  const double frontX = -half + kEndMargin + block;
  // Each agent's goal is its start moved `travel` along the corridor, without the jitter.
  const auto addGroup = [&](std::size_t n, const BlockLayout& layout, std::uint64_t stream) {
    addBlock(scenario, n, layout, stream, [&](BlockSlot slot) {
      const double ahead = travel - slot.back;
      return Point{layout.front.x + ahead * layout.direction.x, slot.side * layout.direction.x};
    });
  };
  addGroup(eastbound, BlockLayout{eastLanes, kLaneSpacing, {frontX, 0.0}, {1.0, 0.0}}, 0);
  addGroup(westbound, BlockLayout{westLanes, kLaneSpacing, {-frontX, 0.0}, {-1.0, 0.0}}, 1);
  scenario.steps = stepsToWalk(scenario, travel);
}

// A crowded square room empties through one door in its east wall.
void buildBottleneck(Scenario& scenario, std::size_t count) {
  scenario.timeStep = kFlowTimeStep;
  constexpr double kWallThickness = 2.0;
  constexpr double kDoorWidth = 8.0;
  constexpr double kGoalBeyondDoor = 15.0;
  const AgentParams params;
  const double side = std::max(30.0, std::sqrt(static_cast<double>(count) / kDensity));
  const double half = 0.5 * side;
  const double t = kWallThickness;
  requireWithinCoordinateLimit(scenario, count, half + t + kGoalBeyondDoor);
  addRoomWithEastDoor(scenario, half, t, kDoorWidth);

  // A square lattice over the room, radius + 1 clear of the walls. The jitter shrinks when the
  // lattice is tight so that neighbours stay a disc apart.
  const double radius = params.radius;
  const double usable = side - 2.0 * (radius + 1.0);
  const auto columns = static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(count))));
  const std::size_t rows = ceilDiv(count, columns);
  const double spacing = columns > 1 ? (usable - 2.0 * kBlockJitter) / static_cast<double>(columns - 1) : 0.0;
  const double jitter = std::clamp(0.5 * (spacing - 2.0 * radius - 0.1), 0.0, kBlockJitter);
  const Vec2 goal = toVec2(Point{half + t + kGoalBeyondDoor, 0.0});
  ScenarioRandom random(scenario.seed, 0);
  double farthest = 0.0;
  for (std::size_t k = 0; k < count; ++k) {
    AgentDef agent;
    agent.position = toVec2(jitteredLatticePoint(k, columns, rows, spacing, jitter, random));
    agent.goal = goal;
    agent.params.goalRadius = 6.0f;
    farthest = std::max(farthest, static_cast<double>(length(agent.position - goal)));
    scenario.agents.push_back(agent);
  }
  scenario.removeArrived = true;
  // Walking time for the farthest agent plus the time the door needs to let everyone through.
  scenario.steps = stepsToWalk(scenario, farthest) +
                   static_cast<std::int64_t>(std::ceil(static_cast<double>(count) / kDoorFlow /
                                                       static_cast<double>(scenario.timeStep)));
}

// Uniform density, random goals: a throughput benchmark rather than a task to finish.
void buildRandom(Scenario& scenario, std::size_t count) {
  constexpr double kJitter = 0.7;  // sqrt(20) - 2 * 0.7 = 3.07 > 3: no overlaps at the start.
  const double spacing = std::sqrt(1.0 / kDensity);
  const double half = 0.5 * std::sqrt(static_cast<double>(count) / kDensity);
  const auto columns = static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(count))));
  const std::size_t rows = ceilDiv(count, columns);
  requireWithinCoordinateLimit(scenario, count, half + spacing);
  ScenarioRandom placement(scenario.seed, 0);
  ScenarioRandom goals(scenario.seed, 1);
  double farthest = 0.0;
  for (std::size_t k = 0; k < count; ++k) {
    AgentDef agent;
    agent.position = toVec2(jitteredLatticePoint(k, columns, rows, spacing, kJitter, placement));
    const double goalX = goals.between(-half, half);
    agent.goal = toVec2(Point{goalX, goals.between(-half, half)});
    farthest = std::max(farthest, static_cast<double>(length(*agent.goal - agent.position)));
    scenario.agents.push_back(agent);
  }
  // Agents leave at their goals: standing there, they would fill the square with obstacles
  // that the others must weave between. Even so, a third of the square covered by bodies
  // walking every which way is slow going: measured, the last agent arrives after 3 (100
  // agents), 6.4 (1,000) and 8.5 (5,000) times the farthest straight walk. The budget allows
  // for more; a run stops anyway once everyone has arrived.
  scenario.removeArrived = true;
  const double slack = 4.0 + 2.0 * std::log10(std::max(static_cast<double>(count), 10.0));
  scenario.steps = stepsToWalk(scenario, farthest, slack);
}

}  // namespace builtin_detail
}  // namespace crowd
