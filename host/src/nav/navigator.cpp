// Navigation's bookkeeping (navigator.hpp).
#include "nav/navigator.hpp"

#include <algorithm>

namespace crowd {

void Navigator::add(AgentId id, std::span<const Vec2> goals, std::int64_t step) {
  // Crowds share their exits: a goal set equal to the last one added is not stored again.
  if (goalSets_.empty() || !std::ranges::equal(goalSets_.back(), goals))
    goalSets_.emplace_back(goals.begin(), goals.end());
  if (agents_.size() <= id.index) agents_.resize(id.index + 1);
  Agent& agent = agents_[id.index];
  if (agent.goalSet < 0 || !(agent.id == id)) ++stats_.agents;
  agent.id = id;
  agent.goalSet = static_cast<std::int32_t>(goalSets_.size() - 1);
  agent.needsRoute = true;
  pending_ = true;
  agent.best = INFINITY;
  agent.since = step;
  agent.strikes = 0;
  agent.exit = -1;
}

bool Navigator::refreshHours(double time) {
  const std::vector<ExitHours>& hours = options_.exitHours;
  bool changed = open_.size() != hours.size();
  open_.resize(hours.size());
  for (std::size_t i = 0; i < hours.size(); ++i) {
    const char open = hours[i].openAt(time) ? 1 : 0;
    changed = changed || open != open_[i];
    open_[i] = open;
  }
  return changed;
}

bool Navigator::isOpen(Vec2 point) const {
  for (std::size_t i = 0; i < open_.size(); ++i) {
    if (options_.exitHours[i].at == point) return open_[i] != 0;
  }
  return true;
}

bool Navigator::keepsHours(std::int32_t set) const {
  for (const Vec2 point : goalSet(set)) {
    for (const ExitHours& hours : options_.exitHours) {
      if (hours.at == point) return true;
    }
  }
  return false;
}

void Navigator::measurePaths(std::span<const Vec2> pathPoints, std::span<const int> pathStart) {
  arc_.resize(pathPoints.size());
  for (; measuredPaths_ + 1 < pathStart.size(); ++measuredPaths_) {
    const auto begin = static_cast<std::size_t>(pathStart[measuredPaths_]);
    const auto end = static_cast<std::size_t>(pathStart[measuredPaths_ + 1]);
    float along = 0.0f;
    for (std::size_t i = begin; i < end; ++i) {
      if (i > begin) along += length(pathPoints[i] - pathPoints[i - 1]);
      arc_[i] = along;
    }
  }
}

bool Navigator::due(std::uint32_t slot, std::span<const Vec2> pathPoints, std::span<const int> pathStart,
                    int path, int segment, Vec2 position, std::int64_t step, std::int64_t stuckSteps) {
  Agent& agent = agents_[slot];
  if (agent.needsRoute || path < 0) return true;
  measurePaths(pathPoints, pathStart);
  // The distance to the end of its segment, and the route beyond: what the agent has left to walk.
  const auto begin = static_cast<std::size_t>(pathStart[static_cast<std::size_t>(path)]);
  const auto last = static_cast<std::size_t>(pathStart[static_cast<std::size_t>(path) + 1]) - 1;
  const std::size_t end = std::min(begin + static_cast<std::size_t>(std::max(segment, 0)) + 1, last);
  const float remaining = length(pathPoints[end] - position) + (arc_[last] - arc_[end]);
  if (!(agent.best < INFINITY)) {
    agent.best = remaining;  // The first measure on this route; its clock started with the route.
    return false;
  }
  if (remaining < agent.best - options_.replanDistance) {
    agent.best = remaining;
    agent.since = step;
    agent.strikes = 0;
    return false;
  }
  return stuckSteps > 0 && step - agent.since >= (stuckSteps << agent.strikes);
}

}  // namespace crowd
