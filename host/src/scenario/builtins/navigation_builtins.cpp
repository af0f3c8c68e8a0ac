// The navigation built-ins: agents routed through a grid map drawn in code (scenario maps,
// routeScenario). `evacuation` empties a floor of rooms and corridors through exits in its outer
// wall, each agent leaving by the exit nearest to it by route length; `maze` sends agents across
// a maze with corridors several agents wide. Both grow the map with the agent count, use
// human-sized agents (radius 0.4 to 0.5 m, about 1.4 m/s) and keep ORCA on.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <crowd/scenario.hpp>

#include "scenario/builtins/builtin_support.hpp"
#include "scenario/group_generation.hpp"

namespace crowd::builtin_detail {
namespace {

using scenario_detail::ScenarioRandom;

// Cells of half a metre: no more than the agents' radius rounded up, so that the planner's
// lattice rounds door widths by little (route_planner.hpp: ClearanceMap::planning).
constexpr double kCellSize = 0.5;

// Map text under construction: '@' walls, '.' floor.
struct Floor {
  int width;
  int height;
  std::vector<std::string> rows;
  Floor(int w, int h, char fill)
      : width(w),
        height(h),
        rows(static_cast<std::size_t>(h), std::string(static_cast<std::size_t>(w), fill)) {}
  // Cells [x0, x0 + w) x [y0, y0 + h) set to `c`.
  void fill(int x0, int y0, int w, int h, char c) {
    for (int y = y0; y < y0 + h; ++y) {
      for (int x = x0; x < x0 + w; ++x) rows[static_cast<std::size_t>(y)][static_cast<std::size_t>(x)] = c;
    }
  }
  // World position of a point given in cells (0.5 is a cell's centre).
  static Vec2 world(double x, double y) {
    return Vec2(static_cast<float>(x * kCellSize), static_cast<float>(y * kCellSize));
  }
};

void installMap(Scenario& scenario, const Floor& floor) {
  GridMap map = GridMap::fromRows(floor.rows, scenario.name);
  map.setPlacement(GridPlacement{static_cast<float>(kCellSize), Vec2(0.0f, 0.0f)});
  scenario.map = std::make_shared<const GridMap>(std::move(map));
}

// Parameters for people rather than RVO2's discs: ORCA looks 2 s ahead of other agents and 1 s
// ahead of walls (long horizons make agents in a packed corridor give way to everyone).
AgentParams personParams(float radius) {
  AgentParams params;
  params.radius = radius;
  params.maxSpeed = 2.0f;
  params.prefSpeed = 1.4f;
  params.neighborDist = 4.0f;
  params.maxNeighbors = 10;
  params.timeHorizon = 2.0f;
  params.timeHorizonObst = 1.0f;
  return params;
}

// Route following for people: stay within half a metre of the route (it keeps the agent's
// radius off the walls already) and look only 0.5 m ahead: a longer look reaches past door
// jambs to the route beyond the wall (measured: 382 of 400 evacuated at 1.5 m, 399 at 0.5 m).
Behavior routeBehavior() {
  Behavior behavior;
  behavior.pathRadius = 0.5f;
  behavior.lookAhead = 0.5f;
  return behavior;
}

}  // namespace

// ---- evacuation ---------------------------------------------------------------------------------
//
// The floor in cells: bands stacked north to south, each a row of rooms, a corridor, and another
// row of rooms, the rooms opening onto the corridor by a door 2 m wide. Every corridor runs the
// building's width and leaves through both end walls, so there are two exits per corridor; the
// exits' goals lie 6 m outside, and agents are removed within 4.5 m of them (just outside).
void buildEvacuation(Scenario& scenario, std::size_t count) {
  scenario.timeStep = kFlowTimeStep;
  constexpr int kRoomW = 16, kRoomH = 12;  // Room interiors, 8 m x 6 m.
  constexpr int kCorridor = 8;             // 4 m.
  constexpr int kDoor = 4;                 // 2 m.
  constexpr int kMargin = 16;              // Open ground around the building, 8 m.
  constexpr int kGoalOut = 12;             // Exit goals 6 m outside the wall.
  constexpr int kBandH = kRoomH + 1 + kCorridor + 1 + kRoomH + 1;
  constexpr std::size_t kPerRoom = 20;  // Of the 24 places a room has.
  constexpr double kSpacing = 1.2;      // Metres between places; 1.2 - 2 * 0.1 jitter > 2 * 0.4.
  constexpr double kJitter = 0.1;
  const float radius = 0.4f;

  // About as many rooms along a corridor as bands of them, for a roughly square floor.
  const std::size_t rooms = ceilDiv(count, kPerRoom);
  const auto perRow =
      std::max<std::size_t>(2, static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(rooms)))));
  const std::size_t bands = ceilDiv(rooms, 2 * perRow);
  const double side = static_cast<double>(std::max(perRow * (kRoomW + 1), bands * kBandH)) * kCellSize;
  // GridMap's side limit, and the coordinate limit, far above what memory allows in agents.
  if (side > 0.5 * grid_limits::kMaxSide * kCellSize) {
    throw ScenarioError(scenario.name + ": agents: " + std::to_string(count) +
                        " agents need a floor wider than a map may be; use fewer agents");
  }
  const int buildingW = 1 + static_cast<int>(perRow) * (kRoomW + 1);
  const int buildingH = 1 + static_cast<int>(bands) * kBandH;
  Floor floor(buildingW + 2 * kMargin, buildingH + 2 * kMargin, '.');
  const int x0 = kMargin, y0 = kMargin;
  floor.fill(x0, y0, buildingW, buildingH, '@');

  std::vector<Vec2> exits;
  std::vector<Vec2> roomCorners;  // Each room's interior corner nearest the origin, world units.
  for (int b = 0; b < static_cast<int>(bands); ++b) {
    const int top = y0 + 1 + b * kBandH;                  // First row of the north rooms.
    const int corridor = top + kRoomH + 1;                // First row of the corridor.
    const int south = corridor + kCorridor + 1;           // First row of the south rooms.
    floor.fill(x0, corridor, buildingW, kCorridor, '.');  // Through both end walls: the exits.
    const double middle = corridor + 0.5 * kCorridor;
    exits.push_back(Floor::world(x0 - kGoalOut, middle));
    exits.push_back(Floor::world(x0 + buildingW + kGoalOut, middle));
    for (int c = 0; c < static_cast<int>(perRow); ++c) {
      const int left = x0 + 1 + c * (kRoomW + 1);
      const int door = left + (kRoomW - kDoor) / 2;
      floor.fill(left, top, kRoomW, kRoomH, '.');
      floor.fill(door, corridor - 1, kDoor, 1, '.');
      floor.fill(left, south, kRoomW, kRoomH, '.');
      floor.fill(door, corridor + kCorridor, kDoor, 1, '.');
      roomCorners.push_back(Floor::world(left, top));
      roomCorners.push_back(Floor::world(left, south));
    }
  }
  installMap(scenario, floor);

  // Places on a lattice in each room, at least 0.9 m (radius + 0.5) from its walls; agent k
  // goes to room k mod rooms, so the rooms fill evenly.
  const double roomW = kRoomW * kCellSize, roomH = kRoomH * kCellSize;
  const double inset = radius + 0.5;
  const auto columns = static_cast<std::size_t>(std::floor((roomW - 2 * inset) / kSpacing)) + 1;
  const double spanX = static_cast<double>(columns - 1) * kSpacing;
  const double spanY = std::floor((roomH - 2 * inset) / kSpacing) * kSpacing;
  ScenarioRandom random(scenario.seed, 0);
  const AgentParams params = personParams(radius);
  const Behavior behavior = routeBehavior();
  for (std::size_t k = 0; k < count; ++k) {
    const Vec2 corner = roomCorners[k % roomCorners.size()];
    const std::size_t place = k / roomCorners.size();
    const double jitterX = random.between(-kJitter, kJitter);
    const double jitterY = random.between(-kJitter, kJitter);
    AgentDef agent;
    agent.position = Vec2(static_cast<float>(corner.x + 0.5 * (roomW - spanX) +
                                             static_cast<double>(place % columns) * kSpacing + jitterX),
                          static_cast<float>(corner.y + 0.5 * (roomH - spanY) +
                                             static_cast<double>(place / columns) * kSpacing + jitterY));
    agent.params = params;
    agent.params.goalRadius = 4.5f;
    agent.behavior = behavior;
    scenario.agents.push_back(agent);
  }
  scenario.exits.push_back(ExitSpec{0, count, exits});
  scenario.removeArrived = true;
  // The walk along half a corridor and out of a room, plus the exits' throughput: at least one
  // agent per second through each exit, a cautious figure for a 4 m opening under ORCA.
  const double walk = 0.5 * buildingW * kCellSize + kRoomH * kCellSize + 10.0;
  scenario.steps =
      stepsToWalk(scenario, walk, 1.5, 1.4) +
      static_cast<std::int64_t>(std::ceil(static_cast<double>(count) / static_cast<double>(exits.size()) /
                                          static_cast<double>(scenario.timeStep)));
  routeScenario(scenario);
}

// ---- maze ---------------------------------------------------------------------------------------
//
// A maze carved by a recursive backtracker over N x N maze cells, each a corridor 5 map cells
// (2.5 m, five agent radii) wide with walls one map cell thick; a tenth of the walls left
// standing is then knocked through, so that a crowd finds more than one way. Every other maze
// row opens onto a yard on the west, where the agents start, and onto one on the east, where
// each agent's goal is its start moved across.
void buildMaze(Scenario& scenario, std::size_t count) {
  scenario.timeStep = kFlowTimeStep;
  constexpr int kCorridor = 5;
  constexpr int kPitch = kCorridor + 1;
  constexpr double kSpacing = 1.5;
  const float radius = 0.5f;
  const int n = std::max(4, static_cast<int>(std::ceil(std::sqrt(static_cast<double>(count)) / 1.5)));
  if (n * kPitch > grid_limits::kMaxSide / 2) {
    throw ScenarioError(scenario.name + ": agents: " + std::to_string(count) +
                        " agents need a maze larger than a map may be; use fewer agents");
  }
  const int mazeSide = n * kPitch + 1;
  // The yard holds the crowd in rows 1.5 m apart, 1 m clear of its walls.
  const double yardHeight = mazeSide * kCellSize - 2.0;
  const auto rows = static_cast<std::size_t>(std::floor(yardHeight / kSpacing)) + 1;
  const std::size_t columns = ceilDiv(count, rows);
  const int yard =
      static_cast<int>(std::ceil((static_cast<double>(columns - 1) * kSpacing + 2.0) / kCellSize)) + 2;
  Floor floor(yard + mazeSide + yard, mazeSide, '.');
  const int mx = yard;  // The maze's west wall.
  floor.fill(mx, 0, mazeSide, mazeSide, '@');

  // Recursive backtracker with an explicit stack; `open[c]` holds bit d for an opening towards
  // direction d (east, south, west, north).
  constexpr int dx[4] = {1, 0, -1, 0}, dy[4] = {0, 1, 0, -1};
  const auto cells = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  std::vector<unsigned> open(cells, 0u);
  std::vector<bool> seen(cells, false);
  ScenarioRandom random(scenario.seed, 1);
  std::vector<int> stack{0};
  seen[0] = true;
  const auto at = [&](int x, int y) {
    return static_cast<std::size_t>(y) * static_cast<std::size_t>(n) + static_cast<std::size_t>(x);
  };
  while (!stack.empty()) {
    const int c = stack.back();
    const int x = c % n, y = c / n;
    int choices[4], k = 0;
    for (int d = 0; d < 4; ++d) {
      const int nx = x + dx[d], ny = y + dy[d];
      if (nx >= 0 && ny >= 0 && nx < n && ny < n && !seen[at(nx, ny)]) choices[k++] = d;
    }
    if (k == 0) {
      stack.pop_back();
      continue;
    }
    const int d = choices[std::min(k - 1, static_cast<int>(random.unit() * k))];
    const int nx = x + dx[d], ny = y + dy[d];
    open[at(x, y)] |= 1u << d;
    open[at(nx, ny)] |= 1u << ((d + 2) % 4);
    seen[at(nx, ny)] = true;
    stack.push_back(static_cast<int>(at(nx, ny)));
  }
  // Braiding: knock through a tenth of the remaining east and south walls.
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      for (int d = 0; d < 2; ++d) {
        const int nx = x + dx[d], ny = y + dy[d];
        if (nx >= n || ny >= n || (open[at(x, y)] & (1u << d)) != 0) continue;
        if (random.unit() < 0.1) {
          open[at(x, y)] |= 1u << d;
          open[at(nx, ny)] |= 1u << (d + 2);
        }
      }
    }
  }
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      const int left = mx + 1 + x * kPitch, top = 1 + y * kPitch;
      floor.fill(left, top, kCorridor, kCorridor, '.');
      if ((open[at(x, y)] & 1u) != 0) floor.fill(left + kCorridor, top, 1, kCorridor, '.');
      if ((open[at(x, y)] & 2u) != 0) floor.fill(left, top + kCorridor, kCorridor, 1, '.');
    }
    if (y % 2 == 0) {  // Entrances and exits.
      floor.fill(mx, 1 + y * kPitch, 1, kCorridor, '.');
      floor.fill(mx + mazeSide - 1, 1 + y * kPitch, 1, kCorridor, '.');
    }
  }
  installMap(scenario, floor);

  // The crowd in the west yard, its front column 1 m from the maze; goals the same formation in
  // the east yard, front column first, so early arrivals do not stand in the way of later ones.
  const double frontX = mx * kCellSize - 1.0;
  const double shift = (mazeSide + yard) * kCellSize;
  const AgentParams params = personParams(radius);
  const Behavior behavior = routeBehavior();
  double farthest = 0.0;
  for (std::size_t k = 0; k < count; ++k) {
    AgentDef agent;
    const double x = frontX - static_cast<double>(k / rows) * kSpacing;
    const double y = 1.0 + static_cast<double>(k % rows) * kSpacing;
    agent.position = Vec2(static_cast<float>(x), static_cast<float>(y));
    agent.goal = Vec2(static_cast<float>(x + shift), static_cast<float>(y));
    agent.params = params;
    agent.behavior = behavior;
    farthest = std::max(farthest, shift);
    scenario.agents.push_back(agent);
  }
  scenario.removeArrived = true;
  // Maze routes run two to three times the straight line; the crowd queues at the entrances and
  // at the maze's junctions. Twice that estimate: some mazes (seeds 5 and 11 at 200 agents) took
  // 1.3 to 1.5 times it, and a run stops as soon as everyone has crossed.
  scenario.steps = 2 * (stepsToWalk(scenario, 3.0 * farthest, 1.5, 1.4) +
                        static_cast<std::int64_t>(std::ceil(static_cast<double>(count) / (0.5 * n) /
                                                            static_cast<double>(scenario.timeStep))));
  // Routes keep 0.35 m more than the radius off the walls (the corridors' centre lines): with
  // the default 0.05 the crowd, pressing round the maze's corners, pushed agents within 99% of
  // their radius of a wall on 3 of 12 seeds (up to 242 agent-steps); with 0.35, on none.
  scenario.route.planner.clearanceMargin = 0.35f;
  routeScenario(scenario);
}

}  // namespace crowd::builtin_detail
