// Metrics of the steering behaviours: when each pursuer first catches its target, and how far
// path followers stray from their paths.
#include <algorithm>
#include <cmath>
#include <crowd/metrics.hpp>

#include "geometry.hpp"

namespace crowd {
namespace {

/// Distance from `p` to the polyline `points` (closed when `loop`). Every segment is measured:
/// O(path size) per follower and step, which the paths of the scenarios (a few points) keep small.
double distanceToPath(Vec2 p, std::span<const Vec2> points, bool loop) {
  const std::size_t segments = points.size() - (loop ? 0 : 1);
  double best = INFINITY;
  for (std::size_t s = 0; s < segments; ++s) {
    best = std::min(
        best, distSqToSegment(toPoint(p), toPoint(points[s]), toPoint(points[(s + 1) % points.size()])));
  }
  return std::sqrt(best);
}

}  // namespace

bool RunMetrics::hasPursuers() const {
  return std::any_of(captures.begin(), captures.end(), [](const CaptureStats& c) { return c.pursuers > 0; });
}

void BehaviorTracker::observePursuer(const Simulator& sim, AgentId id, const Behavior& behavior,
                                     RunMetrics& metrics) {
  if (pursuers_.size() <= id.index) pursuers_.resize(id.index + 1);
  Pursuer& record = pursuers_[id.index];
  if (!record.seen || record.generation != id.generation) {
    // A new pursuer (or a new agent in a reused slot): counted under the rule it starts with.
    record = Pursuer{id.generation, true, false, behavior.pursuit};
    ++metrics.captures[static_cast<int>(record.kind)].pursuers;
  }
  if (record.caught) return;
  const std::optional<AgentId> target = sim.target(id);
  if (!target) return;
  const double reach =
      kCaptureFactor * (static_cast<double>(sim.params(id).radius) + sim.params(*target).radius);
  const Vec2 gap = sim.position(*target) - sim.position(id);
  if (static_cast<double>(absSq(gap)) > reach * reach) return;
  record.caught = true;
  const int k = static_cast<int>(record.kind);
  CaptureStats& stats = metrics.captures[k];
  const double time = sim.time();
  captureTimeSum_[k] += time;
  ++stats.caught;
  stats.meanTime = captureTimeSum_[k] / static_cast<double>(stats.caught);
  stats.maxTime = std::max(stats.maxTime, time);
}

void BehaviorTracker::observeFollower(const Simulator& sim, AgentId id, Vec2 position,
                                      const Behavior& behavior, RunMetrics& metrics) {
  if (followerSeen_.size() <= id.index) followerSeen_.resize(id.index + 1, 0);
  if (followerSeen_[id.index] != id.generation + 1) {
    followerSeen_[id.index] = id.generation + 1;
    ++metrics.paths.followers;
  }
  const double distance =
      distanceToPath(position, sim.pathPoints(behavior.path), sim.pathLoops(behavior.path));
  distanceSum_ += distance;
  within_ += distance <= static_cast<double>(behavior.pathRadius) ? 1 : 0;
  PathStats& paths = metrics.paths;
  ++paths.agentSteps;
  paths.meanDistance = distanceSum_ / static_cast<double>(paths.agentSteps);
  paths.withinRadius = static_cast<double>(within_) / static_cast<double>(paths.agentSteps);
}

void BehaviorTracker::observe(const Simulator& sim, bool afterStep, RunMetrics& metrics) {
  const std::span<const AgentId> ids = sim.ids();
  const std::span<const Vec2> positions = sim.positions();
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const Behavior& behavior = sim.behavior(ids[i]);
    if (behavior.goalOnly()) continue;  // Most agents of most runs: nothing to follow.
    if (behavior.has(BehaviorKind::Pursue)) observePursuer(sim, ids[i], behavior, metrics);
    if (afterStep && behavior.path >= 0 && behavior.has(BehaviorKind::FollowPath)) {
      observeFollower(sim, ids[i], positions[i], behavior, metrics);
    }
  }
}

}  // namespace crowd
