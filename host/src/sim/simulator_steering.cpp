// The Simulator's steering API: behaviours, targets and paths (crowd/behavior.hpp).
#include <crowd/simulator.hpp>

#include <stdexcept>
#include <string>

#include <crowd/kernels/agent_columns.hpp>

#include "sim/agent_store.hpp"
#include "sim/backend.hpp"
#include "sim/simulator_core.hpp"
#include "sim/steering_store.hpp"

namespace crowd {

SteeringStore& Simulator::steeringStore() {
  if (!steering_) steering_ = std::make_unique<SteeringStore>();
  steering_->resize(core_->handles.slotCount());
  return *steering_;
}

std::uint32_t Simulator::profileIndex(AgentId id) const { return core_->agents.profile[denseOf(id)]; }

const Behavior& Simulator::behavior(AgentId id) const { return core_->behavior(id); }

void Simulator::setBehavior(AgentId id, const Behavior& behavior) {
  requireUsable(behavior);
  core_->setBehavior(id, behavior);
  if (steering_ || !behavior.goalOnly()) steeringStore().reset(id.index);
  // A planner on its own route needs that route's line.
  if (behavior.planner != LocalPlanner::None && behavior.path == kOwnRoute && route(id) >= 0) {
    makeReferenceLine(route(id));
  }
}

std::optional<AgentId> Simulator::target(AgentId id) const {
  denseOf(id);  // Throws for an unknown id.
  if (!steering_) return std::nullopt;
  const AgentId t = steering_->target(id.index);
  if (t.index == kNoTarget.index || !contains(t)) return std::nullopt;
  return t;
}

void Simulator::setTarget(AgentId id, std::optional<AgentId> target) {
  denseOf(id);
  if (target && !contains(*target)) throw std::invalid_argument("target is not a live agent");
  if (target && *target == id) throw std::invalid_argument("an agent cannot target itself");
  core_->hostChanged();
  steeringStore().setTarget(id.index, target.value_or(kNoTarget));
}

void Simulator::setRoute(AgentId id, int path) {
  denseOf(id);
  if (path < -1 || path >= pathCount()) throw std::invalid_argument("no path " + std::to_string(path));
  if (path >= 0 && behavior(id).planner == LocalPlanner::Frenet && pathLoops(path)) {
    throw std::invalid_argument(loopPlannerProblem(path));
  }
  core_->hostChanged();
  if (path >= 0 && behavior(id).planner != LocalPlanner::None) makeReferenceLine(path);
  SteeringStore& store = steeringStore();
  store.setRoute(id.index, path);
  store.reset(id.index);  // Its segment on the old route means nothing on the new one.
}

int Simulator::route(AgentId id) const {
  denseOf(id);
  return steering_ ? steering_->route(id.index) : -1;
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
  if (lineTried_[p] != 0) return;
  lineTried_[p] = 1;
  // Only open paths get here: a planner on a loop is refused (requireUsable).
  std::vector<ReferencePoint> line;
  try {
    line = buildReferenceLine(pathPoints(path), kReferenceSpacing);
  } catch (const std::invalid_argument&) {
    return;  // Too short for one: a planner on it is refused (requireUsable), or heads for its goal.
  }
  if (linePoints_.size() + line.size() > static_cast<std::size_t>(INT32_MAX / 2)) {
    throw std::length_error("the planners' reference lines are too long (over 2^30 samples in all)");
  }
  core_->hostChanged();  // The backends hold the lines too.
  lineBegin_[p] = static_cast<int>(linePoints_.size());
  linePoints_.insert(linePoints_.end(), line.begin(), line.end());
  lineEnd_[p] = static_cast<int>(linePoints_.size());
}

std::span<const ReferencePoint> Simulator::referenceLine(int path) const {
  if (path < 0 || path >= pathCount()) throw std::out_of_range("no path " + std::to_string(path));
  const auto p = static_cast<std::size_t>(path);
  return std::span<const ReferencePoint>(linePoints_)
      .subspan(static_cast<std::size_t>(lineBegin_[p]), static_cast<std::size_t>(lineEnd_[p] - lineBegin_[p]));
}

int Simulator::addPath(std::span<const Vec2> points, bool loop) {
  const std::size_t least = loop ? 3 : 2;
  if (points.size() < least) {
    throw std::invalid_argument("a " + std::string(loop ? "loop" : "path") + " needs at least " +
                                std::to_string(least) + " points, got " + std::to_string(points.size()));
  }
  if (points.size() > static_cast<std::size_t>(INT32_MAX / 2) ||
      pathPoints_.size() + points.size() > static_cast<std::size_t>(INT32_MAX / 2)) {
    throw std::length_error("too many path points");
  }
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (const std::string problem = checkCoordinate(points[i], "path point"); !problem.empty()) {
      throw std::invalid_argument("point " + std::to_string(i) + ": " + problem);
    }
    const Vec2 next = points[(i + 1) % points.size()];
    if ((i + 1 < points.size() || loop) && next == points[i]) {
      throw std::invalid_argument("points " + std::to_string(i) + " and " + std::to_string((i + 1) % points.size()) +
                                  " are the same (a segment of zero length)");
    }
  }
  core_->hostChanged();
  pathPoints_.insert(pathPoints_.end(), points.begin(), points.end());
  pathStart_.push_back(static_cast<int>(pathPoints_.size()));
  pathLoop_.push_back(loop ? 1 : 0);
  // No reference line until a planner uses the path (makeReferenceLine).
  lineBegin_.push_back(0);
  lineEnd_.push_back(0);
  lineTried_.push_back(0);
  return pathCount() - 1;
}

std::span<const Vec2> Simulator::pathPoints(int path) const {
  if (path < 0 || path >= pathCount()) throw std::out_of_range("no path " + std::to_string(path));
  const auto begin = static_cast<std::size_t>(pathStart_[static_cast<std::size_t>(path)]);
  const auto end = static_cast<std::size_t>(pathStart_[static_cast<std::size_t>(path) + 1]);
  return std::span<const Vec2>(pathPoints_).subspan(begin, end - begin);
}

bool Simulator::pathLoops(int path) const {
  if (path < 0 || path >= pathCount()) throw std::out_of_range("no path " + std::to_string(path));
  return pathLoop_[static_cast<std::size_t>(path)] != 0;
}

}  // namespace crowd
