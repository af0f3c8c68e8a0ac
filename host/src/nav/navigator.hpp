// The simulator's navigation state (crowd/navigation.hpp): the planner with its clearance maps,
// each navigating agent's goals and progress, and the arc lengths of the simulator's paths, by
// which progress along a route is measured.
#pragma once

#include <cmath>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include <crowd/agent_id.hpp>
#include <crowd/navigation.hpp>
#include <crowd/route_planner.hpp>

namespace crowd {

class Navigator {
 public:
  /// Most doublings of the wait before a re-plan (8 x replanAfter).
  static constexpr std::uint8_t kMaxStrikes = 3;

  /// One navigating agent, kept under its id's slot.
  struct Agent {
    AgentId id;                 ///< Which agent holds the slot (its generation matters).
    std::int32_t goalSet = -1;  ///< Into goalSets(); -1: the slot does not navigate.
    bool needsRoute = false;    ///< Plan at the next check whatever its progress.
    float best = INFINITY;      ///< Shortest remaining route seen since `since`.
    std::int64_t since = 0;     ///< Step of the last progress (or of its latest route).
    /// Re-plans since its last progress (at most kMaxStrikes): each doubles the wait before the
    /// next, so that a jam, which no route clears, does not re-plan the whole queue every few
    /// seconds.
    std::uint8_t strikes = 0;
    /// Which point of its goal set its route ends at; -1: not known (a route handed over).
    std::int32_t exit = -1;
  };

  Navigator(const GridMap& map, const NavigationOptions& options)
      : planner_(map, options.planner), options_(options) {}

  const NavigationOptions& options() const { return options_; }
  RoutePlanner& planner() { return planner_; }
  NavigationStats& stats() { return stats_; }
  const NavigationStats& stats() const { return stats_; }

  /// Registers (or re-registers) agent `id` with `goals`, planning it at the next check.
  void add(AgentId id, std::span<const Vec2> goals, std::int64_t step);
  /// Whether some agent was added since the last takePending().
  bool takePending() { return std::exchange(pending_, false); }
  /// Marks the agent's route as fresh at `step`: no re-plan before replanAfter (doubled for
  /// each strike) has passed. `replanned`: it replaces a route the agent made no progress on.
  void routed(std::uint32_t slot, std::int64_t step, bool replanned) {
    Agent& agent = agents_[slot];
    agent.needsRoute = false;
    agent.best = INFINITY;
    agent.since = step;
    if (replanned && agent.strikes < kMaxStrikes) ++agent.strikes;
  }
  std::vector<Agent>& agents() { return agents_; }
  std::span<const Vec2> goalSet(std::int32_t set) const { return goalSets_[static_cast<std::size_t>(set)]; }

  /// Notes which exits are open at `time` (options().exitHours); true when one opened or closed
  /// since the last call (or on the first call, where some exit keeps hours).
  bool refreshHours(double time);
  /// Whether `point` is open now: true unless it is an exit with hours that are not now.
  bool isOpen(Vec2 point) const;
  /// Whether some point of goal set `set` keeps hours.
  bool keepsHours(std::int32_t set) const;

  /// Whether the agent in `slot`, on `segment` of its route `path` at `position`, is due for a
  /// route at `step`: it never had one, or its remaining route has not shrunk by replanDistance
  /// in replanAfter seconds (`stuckSteps` steps, doubled per strike). Updates its progress.
  bool due(std::uint32_t slot, std::span<const Vec2> pathPoints, std::span<const int> pathStart, int path,
           int segment, Vec2 position, std::int64_t step, std::int64_t stuckSteps);

 private:
  // Arc length from each path's first point to each of its points, extended as paths are added.
  void measurePaths(std::span<const Vec2> pathPoints, std::span<const int> pathStart);

  RoutePlanner planner_;
  NavigationOptions options_;
  NavigationStats stats_;
  std::vector<Agent> agents_;
  std::vector<std::vector<Vec2>> goalSets_;
  std::vector<float> arc_;
  std::vector<char> open_;  // Per options_.exitHours entry, as of the last refreshHours.
  std::size_t measuredPaths_ = 0;
  bool pending_ = false;
};

}  // namespace crowd
