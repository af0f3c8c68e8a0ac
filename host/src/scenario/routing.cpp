// Routing a scenario through its map (routeScenario, crowd/scenario.hpp): the map's walls become
// obstacles, every agent with a goal or exits gets a route from one planner call, and the
// problems found (starts and goals in walls, goals out of reach) become warnings that name the
// scenario's agent numbers.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <crowd/memory_budget.hpp>
#include <crowd/navigation.hpp>
#include <crowd/route_planner.hpp>
#include <crowd/scenario.hpp>

#include "params/number_text.hpp"

namespace crowd {
namespace {

// How many agents had one kind of problem, and the first of them.
struct Tally {
  std::size_t count = 0;
  std::size_t first = 0;
  void add(std::size_t agent) {
    if (count++ == 0) first = agent;
  }
};

void warnTally(Scenario& scenario, const Tally& tally, const std::string& singular, const std::string& plural,
               const std::string& outcome) {
  if (tally.count == 0) return;
  scenario.warnings.push_back(
      tally.count == 1 ? "1 agent " + singular + " (agent " + std::to_string(tally.first) + "); " + outcome
                       : std::to_string(tally.count) + " agents " + plural + " (agent " +
                             std::to_string(tally.first) + " first); " + outcome);
}

// Routes handed to followers hold a point every `piece` (cutRoute): counted before they are cut,
// since a crowd on a big floor takes far more than its routes' waypoints (a million agents on
// the evacuation floor: about 2,000 points a route, held by the scenario and again by the
// simulator, 32 GB in all). Returns the count, at least what cutRoute makes.
std::size_t checkCutRouteMemory(const Scenario& scenario, const RouteSet& routes, float piece) {
  double points = 0.0;
  for (std::size_t r = 0; r < routes.size(); ++r) {
    const std::span<const Vec2> route = routes.route(r);
    points += 1.0;
    for (std::size_t k = 1; k < route.size(); ++k) {
      points += std::ceil(static_cast<double>(length(route[k] - route[k - 1])) / static_cast<double>(piece));
    }
  }
  const std::uint64_t budget = memoryBudget();
  const double bytes = 2.0 * points * static_cast<double>(sizeof(Vec2));
  if (budget == 0 || bytes <= static_cast<double>(budget)) return static_cast<std::size_t>(points);
  throw MemoryBudgetError(
      scenario.name + ": the routes of " + std::to_string(routes.size()) + " agents, cut into pieces of " +
      formatFloat(piece) + " for their followers, need about " + formatBytes(bytes) + " (" +
      formatNumber(points) +
      " points, held by the scenario and again by the simulator), more than the memory budget of " +
      formatBytes(static_cast<double>(budget)) + " (" + memoryBudgetSource() +
      "); use fewer agents or a smaller map");
}

}  // namespace

std::vector<std::int32_t> exitSetOfAgents(const Scenario& scenario) {
  const std::size_t n = scenario.agents.size();
  std::vector<std::int32_t> exitSet(n, -1);
  for (std::size_t k = 0; k < scenario.exits.size(); ++k) {
    const ExitSpec& set = scenario.exits[k];
    for (std::size_t a = set.firstAgent; a < set.firstAgent + set.count && a < n; ++a) {
      exitSet[a] = static_cast<std::int32_t>(k);
    }
  }
  return exitSet;
}

void routeScenario(Scenario& scenario, int threads) {
  if (!scenario.map || !scenario.routeOffsets.empty()) return;
  const GridMap& map = *scenario.map;
  const std::size_t n = scenario.agents.size();
  // The map's edge is a wall too (wallAtMapEdge), as the planner assumes, so ORCA and the routes
  // agree on where agents may go.
  for (std::vector<Vec2>& outline : traceObstacleOutlines(map)) {
    scenario.obstacles.push_back(std::move(outline));
    ++scenario.mapObstacles;
  }

  const std::vector<std::int32_t> exitSet = exitSetOfAgents(scenario);
  // Agents with exits, and agents on the default goal rule with a goal. Agents with other
  // behaviours keep their goal as it is: they steer by it themselves (seek, arrive, ...).
  std::vector<std::size_t> routed;
  std::vector<RouteRequest> requests;
  for (std::size_t i = 0; i < n; ++i) {
    const AgentDef& agent = scenario.agents[i];
    RouteRequest request;
    if (exitSet[i] >= 0) {
      request.goals = scenario.exits[static_cast<std::size_t>(exitSet[i])].points;
    } else if (agent.goal && agent.behavior.goalOnly()) {
      request.goals = {*agent.goal};
    } else {
      continue;
    }
    request.start = agent.position;
    request.radius = scenario.route.radius.value_or(agent.params.radius);
    routed.push_back(i);
    requests.push_back(std::move(request));
  }
  RoutePlanner planner(map, scenario.route.planner);
  RouteSet routes;
  try {
    routes = planner.plan(requests, threads);
  } catch (const MemoryBudgetError& error) {
    throw MemoryBudgetError(scenario.name + ": " + error.what());
  } catch (const RouteMemoryError& error) {
    throw RouteMemoryError(scenario.name + ": " + error.what());
  }
  if (!routes.threadsWarning.empty()) scenario.warnings.push_back(routes.threadsWarning);
  const float piece = static_cast<float>(kRoutePieceCells * map.placement().cellSize);
  scenario.routePoints.reserve(checkCutRouteMemory(scenario, routes, piece));

  Tally startInWall, goalInWall, unreachable, crampedStuck, crampedExit;
  scenario.routeOffsets.assign(n + 1, 0);
  std::size_t next = 0;  // Into `routed`, which is in agent order.
  for (std::size_t i = 0; i < n; ++i) {
    scenario.routeOffsets[i] = static_cast<std::int64_t>(scenario.routePoints.size());
    if (next >= routed.size() || routed[next] != i) continue;
    const std::size_t r = next++;
    AgentDef& agent = scenario.agents[i];
    const std::uint8_t status = routes.status[r];
    if ((status & (route_status::kUnreachable | route_status::kBadRequest)) != 0) {
      // No goal and no preferred velocity: the agent stands (ORCA still moves it out of the way).
      agent.goal.reset();
      agent.prefVelocity = Vec2(0.0f, 0.0f);
      ((status & route_status::kCramped) != 0 ? crampedStuck : unreachable).add(i);
      continue;
    }
    if ((status & route_status::kCramped) != 0) crampedExit.add(i);
    std::span<const Vec2> route = routes.route(r);
    if ((status & route_status::kStartInWall) != 0 && route.size() >= 2) {
      // The route's second point is the centre of the free cell the start moved to.
      agent.position = route[1];
      route = route.subspan(1);
      startInWall.add(i);
    }
    if ((status & route_status::kGoalInWall) != 0) goalInWall.add(i);
    if (cutRoute(route, piece, scenario.routePoints) < 2) {
      scenario.routePoints.resize(
          static_cast<std::size_t>(scenario.routeOffsets[i]));  // At its goal already.
    }
    agent.goal = route.back();  // The chosen exit, or the goal moved out of a wall.
    agent.behavior = followingOwnRoute(agent.behavior);
  }
  scenario.routeOffsets[n] = static_cast<std::int64_t>(scenario.routePoints.size());
  scenario.unreachableAgents = unreachable.count + crampedStuck.count;
  warnTally(scenario, startInWall, "starts inside a wall or outside the map",
            "start inside a wall or outside the map", "moved to the nearest free cell");
  warnTally(scenario, goalInWall, "has a goal or exit inside a wall or outside the map",
            "have a goal or exit inside a wall or outside the map", "moved to the nearest free cell");
  warnTally(scenario, unreachable, "cannot reach its goal through the map",
            "cannot reach their goal through the map", "left standing where they are");
  // A spot narrower than the agent, where the nearest cell with room lies beyond a wall: moved
  // there, it would be routed through the wall.
  const std::string cramped = " in a spot too narrow for the agent, with no room for it in straight sight";
  warnTally(scenario, crampedStuck, "starts or has its goal" + cramped, "start or have their goal" + cramped,
            "left standing where they are");
  warnTally(scenario, crampedExit, "has an exit" + cramped, "have an exit" + cramped,
            "the other exits are used");
}

}  // namespace crowd
