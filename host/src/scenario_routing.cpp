// Routing a scenario through its map (routeScenario, crowd/scenario.hpp): the map's walls become
// obstacles, every agent with a goal or exits gets a route from one planner call, and the
// problems found (starts and goals in walls, goals out of reach) become warnings that name the
// scenario's agent numbers.
#include <crowd/scenario.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <crowd/route_planner.hpp>

namespace crowd {
namespace {

// Route pieces are at most this many map cells long (see routeScenario).
constexpr double kPieceCells = 0.5;

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

}  // namespace

void routeScenario(Scenario& scenario, int threads) {
  if (!scenario.map || !scenario.routeOffsets.empty()) return;
  const GridMap& map = *scenario.map;
  const std::size_t n = scenario.agents.size();
  // The map's edge is a wall too (wallAtMapEdge), as the planner assumes, so ORCA and the routes
  // agree on where agents may go.
  for (std::vector<Vec2>& outline : traceObstacleOutlines(map)) scenario.obstacles.push_back(std::move(outline));

  std::vector<std::int32_t> exitSet(n, -1);
  for (std::size_t k = 0; k < scenario.exits.size(); ++k) {
    const ExitSpec& set = scenario.exits[k];
    for (std::size_t a = set.firstAgent; a < set.firstAgent + set.count && a < n; ++a) {
      exitSet[a] = static_cast<std::int32_t>(k);
    }
  }
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
  RoutePlanner planner(map, scenario.route.options);
  const RouteSet routes = planner.plan(requests, threads);

  Tally startInWall, goalInWall, unreachable;
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
      unreachable.add(i);
      continue;
    }
    std::span<const Vec2> route = routes.route(r);
    if ((status & route_status::kStartInWall) != 0 && route.size() >= 2) {
      // The route's second point is the centre of the free cell the start moved to.
      agent.position = route[1];
      route = route.subspan(1);
      startInWall.add(i);
    }
    if ((status & route_status::kGoalInWall) != 0) goalInWall.add(i);
    const std::size_t begin = scenario.routePoints.size();
    for (const Vec2 point : route) {
      // A path may not repeat a point (a segment of zero length has no direction).
      if (scenario.routePoints.size() > begin && scenario.routePoints.back() == point) continue;
      if (scenario.routePoints.size() > begin) {
        // Long legs are cut into pieces of at most kPieceCells cells. A follower searches only
        // its own segment, the one before and the two after, and takes the nearest: with whole
        // legs, an agent pushed into a room's corner finds the corridor leg beyond the wall
        // nearer than its own and seeks straight into the wall. Short pieces keep that window
        // on the near side of the door.
        const Vec2 from = scenario.routePoints.back();
        const double legCells = static_cast<double>(length(point - from)) / map.placement().cellSize;
        const auto pieces = static_cast<int>(std::ceil(legCells / kPieceCells));
        for (int k = 1; k < pieces; ++k) {
          const float t = static_cast<float>(k) / static_cast<float>(pieces);
          const Vec2 between = from + (point - from) * t;
          if (between != scenario.routePoints.back() && between != point) scenario.routePoints.push_back(between);
        }
      }
      scenario.routePoints.push_back(point);
    }
    agent.goal = route.back();  // The chosen exit, or the goal moved out of a wall.
    if (scenario.routePoints.size() - begin < 2) {
      scenario.routePoints.resize(begin);  // Already at its goal: nothing to follow.
    }
    if (agent.behavior.goalOnly()) {
      // Reynolds' path following along its own route; it arrives at the route's open end.
      agent.behavior.behaviors = {WeightedBehavior{BehaviorKind::FollowPath, 1.0f}};
      agent.behavior.path = kOwnRoute;
    }
  }
  scenario.routeOffsets[n] = static_cast<std::int64_t>(scenario.routePoints.size());
  scenario.unreachableAgents = unreachable.count;
  warnTally(scenario, startInWall, "starts inside a wall or outside the map", "start inside a wall or outside the map",
            "moved to the nearest free cell");
  warnTally(scenario, goalInWall, "has a goal or exit inside a wall or outside the map",
            "have a goal or exit inside a wall or outside the map", "moved to the nearest free cell");
  warnTally(scenario, unreachable, "cannot reach its goal through the map", "cannot reach their goal through the map",
            "left standing where they are");
}

}  // namespace crowd
