// Metrics of the steering behaviours: when each pursuer first catches its target, how far path
// followers stray from their paths, and how far Frenet planners stray from their reference lines.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include <crowd/metrics.hpp>

#include "geometry/geometry.hpp"
#include "nav/reference_line.hpp"

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

// Segments searched either side of a planner's last nearest one: 8 world units of line at
// kReferenceSpacing, more than agents move in a step. A long line (a route across a city map)
// has thousands of segments, too many to measure every one for every planner every step.
constexpr std::size_t kWindowSegments = 32;
// A nearest point in the window farther than this from the agent is not trusted (the agent was
// moved, or strayed far: another part of the line may be nearer): half the window's reach.
constexpr double kTrustedDistance = 0.5 * static_cast<double>(kWindowSegments) * kReferenceSpacing;

struct Nearest {
  std::size_t segment = 0;
  double distSq = INFINITY;
};

// The segment of `line` (between samples s and s + 1) nearest to `p`, over segments first..last.
Nearest nearestSegment(Point p, std::span<const ReferencePoint> line, std::size_t first, std::size_t last) {
  Nearest best;
  for (std::size_t s = first; s <= last; ++s) {
    const double d = distSqToSegment(p, Point{line[s].x, line[s].y}, Point{line[s + 1].x, line[s + 1].y});
    if (d < best.distSq) best = Nearest{s, d};
  }
  return best;
}

// Distance from `p` to the polyline through `line`'s samples (2 or more), searched in a window
// round `hint` when `hinted`; `hint` becomes the nearest segment. A nearest segment at the
// window's edge (the agent moved further along) or far from the agent is not trusted: the whole
// line is searched then. Otherwise the deviation is from the part of the line the agent has been
// tracked along, as its planner's Frenet offset is, even where a hairpin brings another part of
// the line a little nearer.
double distanceToLine(Point p, std::span<const ReferencePoint> line, bool hinted, std::size_t& hint) {
  const std::size_t last = line.size() - 2;  // The last segment.
  Nearest best;
  if (hinted && hint <= last) {
    const std::size_t lo = hint > kWindowSegments ? hint - kWindowSegments : 0;
    const std::size_t hi = std::min(hint + kWindowSegments, last);
    best = nearestSegment(p, line, lo, hi);
    const bool atEdge = (best.segment == lo && lo > 0) || (best.segment == hi && hi < last);
    if (atEdge || best.distSq > kTrustedDistance * kTrustedDistance) best = nearestSegment(p, line, 0, last);
  } else {
    best = nearestSegment(p, line, 0, last);
  }
  hint = best.segment;
  return std::sqrt(best.distSq);
}

}  // namespace

std::string PlannerStats::summary() const {
  char buffer[192];
  if (agentSteps > 0) {
    std::snprintf(buffer, sizeof buffer,
                  "%zu: deviation mean %.2f, max %.2f (from their reference lines); %zu arrived", count,
                  meanDeviation, maxDeviation, arrived);
  } else {
    std::snprintf(buffer, sizeof buffer, "%zu: no deviation measured; %zu arrived", count, arrived);
  }
  return buffer;
}

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

void BehaviorTracker::observePlanner(const Simulator& sim, AgentId id, Vec2 position,
                                     const Behavior& behavior, bool afterStep, RunMetrics& metrics) {
  if (planners_.size() <= id.index) planners_.resize(id.index + 1);
  Planner& record = planners_[id.index];
  PlannerStats& stats = metrics.planners;
  if (!record.seen || record.generation != id.generation) {
    // A new planner (or a new agent in a reused slot): its own entry, kept after it is removed.
    record = Planner{};
    record.generation = id.generation;
    record.seen = true;
    record.slot = stats.agents.size();
    PlannerAgentStats entry;
    entry.id = id;
    stats.agents.push_back(entry);
    ++stats.count;
  }
  if (!afterStep) return;
  const int path = behavior.path == kOwnRoute ? sim.route(id) : behavior.path;
  if (path < 0) return;  // An own route not planned yet: no line to stray from.
  const std::span<const ReferencePoint> line = sim.referenceLine(path);
  if (line.size() < 2) return;  // The simulator refuses planners on such paths; a route may have none.
  const double deviation = distanceToLine(toPoint(position), line, record.hintPath == path, record.hint);
  record.hintPath = path;
  record.deviationSum += deviation;
  PlannerAgentStats& agent = stats.agents[record.slot];
  ++agent.steps;
  agent.meanDeviation = record.deviationSum / static_cast<double>(agent.steps);
  agent.maxDeviation = std::max(agent.maxDeviation, deviation);
  deviationSum_ += deviation;
  ++stats.agentSteps;
  stats.meanDeviation = deviationSum_ / static_cast<double>(stats.agentSteps);
  stats.maxDeviation = std::max(stats.maxDeviation, deviation);
}

void BehaviorTracker::observePlannerArrivals(const Simulator& sim, RunMetrics& metrics) {
  // The simulator's arrivals, removed agents included: a planner removed on arrival keeps its
  // record here (its slot is only reused by an agent of a later generation).
  for (const Arrival& a : sim.lastArrivals()) {
    if (a.id.index >= planners_.size()) continue;
    const Planner& record = planners_[a.id.index];
    if (!record.seen || record.generation != a.id.generation) continue;
    PlannerAgentStats& agent = metrics.planners.agents[record.slot];
    if (agent.arrived) continue;  // The first arrival counts.
    agent.arrived = true;
    agent.arrivalTime = static_cast<double>(a.step) * sim.config().timeStep;
    ++metrics.planners.arrived;
  }
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
    if (behavior.planner == LocalPlanner::Frenet)
      observePlanner(sim, ids[i], positions[i], behavior, afterStep, metrics);
  }
  // After the agents, so that one added since the last observation and arriving is seen first.
  if (afterStep && metrics.planners.count > 0) observePlannerArrivals(sim, metrics);
}

}  // namespace crowd
