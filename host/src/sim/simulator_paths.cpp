// The planar Simulator's paths: adding them, agents' own routes, the behaviours a planar world
// can use, and the reference lines the Frenet planner follows.
#include <stdexcept>
#include <string>
#include <vector>

#include <crowd/simulator.hpp>

#include "sim/planar_world.hpp"
#include "sim/simulator_core.hpp"

namespace crowd {

void Simulator::behaviorSet(AgentId id, const Behavior& behavior) {
  // A planner on its own route needs that route's line.
  if (behavior.planner != LocalPlanner::None && behavior.path == kOwnRoute && route(id) >= 0) {
    makeReferenceLine(route(id));
  }
}

void Simulator::setRoute(AgentId id, int path) {
  denseOf(id);
  if (path < -1 || path >= pathCount()) throw std::invalid_argument("no path " + std::to_string(path));
  if (path >= 0 && behavior(id).planner == LocalPlanner::Frenet && pathLoops(path)) {
    throw std::invalid_argument(loopPlannerProblem(path));
  }
  core_->hostChanged();
  if (path >= 0 && behavior(id).planner != LocalPlanner::None) makeReferenceLine(path);
  SteeringStore& store = core_->steeringStore();
  store.setRoute(id.index, path);
  store.reset(id.index);  // Its segment on the old route means nothing on the new one.
}

int Simulator::route(AgentId id) const {
  denseOf(id);
  return core_->hasSteering() ? core_->steering->route(id.index) : -1;
}

void Simulator::requireUsable(const Behavior& behavior) {
  if (const std::string problem = checkBehavior(behavior, pathCount()); !problem.empty()) {
    throw std::invalid_argument(problem);
  }
  if (behavior.planner == LocalPlanner::Frenet && behavior.path >= 0) {
    if (pathLoops(behavior.path)) throw std::invalid_argument(loopPlannerProblem(behavior.path));
    makeReferenceLine(behavior.path);
    if (referenceLine(behavior.path).empty()) {
      throw std::invalid_argument("path " + std::to_string(behavior.path) +
                                  " is too short for the frenet planner's reference line");
    }
  }
}

void Simulator::makeReferenceLine(int path) {
  const auto p = static_cast<std::size_t>(path);
  if (world_->lineTried[p] != 0) return;
  world_->lineTried[p] = 1;
  // Only open paths get here: a planner on a loop is refused (requireUsable).
  std::vector<ReferencePoint> line;
  try {
    line = buildReferenceLine(pathPoints(path), kReferenceSpacing);
  } catch (const std::invalid_argument&) {
    return;  // Too short for one: a planner on it is refused (requireUsable), or heads for its goal.
  }
  if (world_->linePoints.size() + line.size() > static_cast<std::size_t>(INT32_MAX / 2)) {
    throw std::length_error("the planners' reference lines are too long (over 2^30 samples in all)");
  }
  core_->hostChanged();  // The executors hold the lines too.
  world_->lineBegin[p] = static_cast<int>(world_->linePoints.size());
  world_->linePoints.insert(world_->linePoints.end(), line.begin(), line.end());
  world_->lineEnd[p] = static_cast<int>(world_->linePoints.size());
}

std::span<const ReferencePoint> Simulator::referenceLine(int path) const {
  if (path < 0 || path >= pathCount()) throw std::out_of_range("no path " + std::to_string(path));
  const auto p = static_cast<std::size_t>(path);
  return std::span<const ReferencePoint>(world_->linePoints)
      .subspan(static_cast<std::size_t>(world_->lineBegin[p]),
               static_cast<std::size_t>(world_->lineEnd[p] - world_->lineBegin[p]));
}

int Simulator::addPath(std::span<const Vec2> points, bool loop) {
  const std::size_t least = loop ? 3 : 2;
  if (points.size() < least) {
    throw std::invalid_argument("a " + std::string(loop ? "loop" : "path") + " needs at least " +
                                std::to_string(least) + " points, got " + std::to_string(points.size()));
  }
  if (points.size() > static_cast<std::size_t>(INT32_MAX / 2) ||
      world_->pathPoints.size() + points.size() > static_cast<std::size_t>(INT32_MAX / 2)) {
    throw std::length_error("too many path points");
  }
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (const std::string problem = checkCoordinate(points[i], "path point"); !problem.empty()) {
      throw std::invalid_argument("point " + std::to_string(i) + ": " + problem);
    }
    const Vec2 next = points[(i + 1) % points.size()];
    if ((i + 1 < points.size() || loop) && next == points[i]) {
      throw std::invalid_argument("points " + std::to_string(i) + " and " +
                                  std::to_string((i + 1) % points.size()) +
                                  " are the same (a segment of zero length)");
    }
  }
  core_->hostChanged();
  world_->pathPoints.insert(world_->pathPoints.end(), points.begin(), points.end());
  world_->pathStart.push_back(static_cast<int>(world_->pathPoints.size()));
  world_->pathLoop.push_back(loop ? 1 : 0);
  // No reference line until a planner uses the path (makeReferenceLine).
  world_->lineBegin.push_back(0);
  world_->lineEnd.push_back(0);
  world_->lineTried.push_back(0);
  return pathCount() - 1;
}

int Simulator::pathCount() const {
  return world_->pathCount();
}

std::span<const Vec2> Simulator::pathPoints(int path) const {
  if (path < 0 || path >= pathCount()) throw std::out_of_range("no path " + std::to_string(path));
  const auto begin = static_cast<std::size_t>(world_->pathStart[static_cast<std::size_t>(path)]);
  const auto end = static_cast<std::size_t>(world_->pathStart[static_cast<std::size_t>(path) + 1]);
  return std::span<const Vec2>(world_->pathPoints).subspan(begin, end - begin);
}

bool Simulator::pathLoops(int path) const {
  if (path < 0 || path >= pathCount()) throw std::out_of_range("no path " + std::to_string(path));
  return world_->pathLoop[static_cast<std::size_t>(path)] != 0;
}

}  // namespace crowd
