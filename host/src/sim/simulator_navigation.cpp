// The Simulator's navigation (crowd/navigation.hpp): routes planned for agents that need one,
// before a step, as paths the agents follow.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>

#include <crowd/kernels/agent_columns.hpp>
#include <crowd/simulator.hpp>

#include "nav/navigator.hpp"
#include "sim/planar_world.hpp"
#include "sim/simulator_core.hpp"

namespace crowd {

void Simulator::setNavigation(const GridMap& map, const NavigationOptions& options) {
  if (const std::string problem = navigationOptionsProblem(options); !problem.empty()) {
    throw std::invalid_argument(problem);
  }
  auto next = std::make_unique<Navigator>(map, options);
  if (world_->navigator) {
    // Same agents and goals, routes to be planned on the new map.
    for (const Navigator::Agent& agent : world_->navigator->agents()) {
      if (agent.goalSet >= 0 && contains(agent.id)) {
        next->add(agent.id, world_->navigator->goalSet(agent.goalSet), core_->stepCount);
      }
    }
    next->stats() = world_->navigator->stats();
  }
  world_->navigator = std::move(next);
}

void Simulator::navigate(AgentId id, std::span<const Vec2> goals, bool keepRoute) {
  if (!world_->navigator) throw std::logic_error("navigate needs a map: call setNavigation first");
  denseOf(id);  // Throws for an unknown id.
  if (goals.empty()) throw std::invalid_argument("navigate needs at least one goal");
  for (const Vec2 goal : goals) {
    if (const std::string problem = checkCoordinate(goal, "goal"); !problem.empty())
      throw std::invalid_argument(problem);
  }
  // Only the default goal rule changes (to following its own route); setBehavior also starts
  // the agent's steering state afresh, which other behaviours keep.
  if (behavior(id).goalOnly()) setBehavior(id, followingOwnRoute(behavior(id)));
  world_->navigator->add(id, goals, core_->stepCount);
  if (keepRoute && route(id) >= 0) world_->navigator->routed(id.index, core_->stepCount, false);
}

bool Simulator::hasNavigation() const {
  return world_->navigator != nullptr;
}

void Simulator::beforeStep() {
  if (world_->navigator) navigateRoutes();
}

NavigationStats Simulator::navigationStats() const {
  return world_->navigator ? world_->navigator->stats() : NavigationStats{};
}

void Simulator::navigateRoutes() {
  Navigator& nav = *world_->navigator;
  const NavigationOptions& options = nav.options();
  const auto stepsOf = [this](float seconds) {
    return std::max<std::int64_t>(1, std::llround(static_cast<double>(seconds) / core_->config.timeStep));
  };
  const bool pending = nav.takePending();
  const double time = static_cast<double>(core_->stepCount) * static_cast<double>(core_->config.timeStep);
  // Exits opening or closing send people elsewhere at once; queues are weighed every so often.
  const bool hoursChanged = nav.refreshHours(time);
  const bool choosing = hoursChanged || (options.exitChoice.byQueue &&
                                         core_->stepCount % stepsOf(options.exitChoice.every) == 0);
  if (!pending && !choosing && core_->stepCount % stepsOf(options.checkEvery) != 0) return;
  const auto start = std::chrono::steady_clock::now();
  core_->syncHost();
  const std::int64_t stuckSteps = options.replanAfter > 0.0f ? stepsOf(options.replanAfter) : 0;

  // Who is due, and where each stands.
  std::vector<std::uint32_t> due;
  std::vector<RouteRequest> requests;
  std::vector<std::vector<std::int32_t>> goalOf;  // Per request: the goal set's index of each goal.
  std::vector<Navigator::Agent>& agents = nav.agents();
  for (std::uint32_t slot = 0; slot < agents.size(); ++slot) {
    Navigator::Agent& agent = agents[slot];
    if (agent.goalSet < 0) continue;
    if (!contains(agent.id)) {
      agent.goalSet = -1;  // Removed (arrived and taken out, say).
      continue;
    }
    const std::size_t d = denseOf(agent.id);
    if ((core_->agents.flags[d] & kArrived) != 0 && !agent.needsRoute) continue;
    const bool steers = core_->hasSteering();
    const int path = steers ? core_->steering->route(slot) : -1;
    const int segment = steers ? core_->steering->segment(slot) : -1;
    const Vec2 position = core_->agents.position[d];
    if (!nav.due(slot, world_->pathPoints, world_->pathStart, path, segment, position, core_->stepCount,
                 stuckSteps))
      continue;
    RouteRequest request;
    request.start = position;
    std::vector<std::int32_t> indices;
    const std::span<const Vec2> goals = nav.goalSet(agent.goalSet);
    for (std::size_t k = 0; k < goals.size(); ++k) {
      if (!nav.isOpen(goals[k])) continue;
      request.goals.push_back(goals[k]);
      indices.push_back(static_cast<std::int32_t>(k));
    }
    if (request.goals.empty()) continue;  // Every exit closed: it keeps its way.
    request.radius = options.radius.value_or(core_->profiles[core_->agents.profile[d]].radius);
    due.push_back(slot);
    requests.push_back(std::move(request));
    goalOf.push_back(std::move(indices));
  }

  if (!requests.empty()) {
    const RouteSet routes = nav.planner().plan(requests, core_->config.threads);
    NavigationStats& stats = nav.stats();
    for (std::size_t r = 0; r < due.size(); ++r) {
      Navigator::Agent& agent = agents[due[r]];
      const bool first = agent.needsRoute;
      nav.routed(due[r], core_->stepCount, !first);
      if ((routes.status[r] & (route_status::kUnreachable | route_status::kBadRequest)) != 0) {
        // A re-plan that fails keeps the old route; an agent that never had one stands.
        if (first) {
          setPrefVelocity(agent.id, Vec2(0.0f, 0.0f));
          agent.goalSet = -1;
          ++stats.unreachable;
        }
        continue;
      }
      takeRoute(agent.id, routes.route(r));
      agent.exit = goalOf[r][static_cast<std::size_t>(routes.goalIndex[r])];
      ++(first ? stats.planned : stats.replans);
    }
  }
  if (choosing) chooseExits();
  nav.stats().seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void Simulator::takeRoute(AgentId id, std::span<const Vec2> route) {
  Navigator& nav = *world_->navigator;
  const float piece = static_cast<float>(kRoutePieceCells * nav.planner().map().placement().cellSize);
  std::vector<Vec2> points;
  cutRoute(route, piece, points);
  setGoal(id, route.back());  // The chosen exit, or the goal moved out of a wall.
  if (points.size() >= 2) {
    setRoute(id, addPath(points, false));
    nav.stats().routePoints += static_cast<std::int64_t>(points.size());
  } else {
    setRoute(id, -1);  // At its goal already.
  }
}

}  // namespace crowd
