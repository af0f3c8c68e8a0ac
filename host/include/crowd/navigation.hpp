// Navigation in a running simulation: agents that walk to a goal (or the nearest of several
// exits) along routes planned through a grid map, and that get a new route from where they
// stand when the crowd has pushed them off theirs and they make no progress.
//
// Simulator::setNavigation gives the simulator the map; Simulator::navigate names an agent's
// goals. Before a step, every `checkEvery` seconds, the simulator measures each navigating
// agent's remaining route (the distance to the end of its current route segment plus the route
// beyond it). An agent whose remaining route has not shrunk by `replanDistance` in `replanAfter`
// seconds is re-planned from its position, and all agents due at one check are planned in one
// RoutePlanner::plan call (shared goal fields, every core). Checks happen at fixed steps and the
// planner's output does not depend on the thread count, so runs stay deterministic.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <crowd/behavior.hpp>
#include <crowd/exit_choice.hpp>
#include <crowd/route_planner.hpp>

namespace crowd {

struct NavigationOptions {
  RouteOptions planner;         ///< Corner cutting, heuristic, clearance margin.
  std::optional<float> radius;  ///< Plan every agent as this radius; none: each agent's own.
  /// Seconds without progress before an agent is re-planned; 0 never re-plans. [Limit: >= 0]
  float replanAfter = 4.0f;
  /// The shrink of the remaining route that counts as progress, world units. [Limit: > 0]
  float replanDistance = 0.5f;
  /// Seconds between progress checks. [Limit: > 0]
  float checkEvery = 0.5f;
  ExitChoice exitChoice;
  std::vector<ExitHours> exitHours;  ///< Exits not always open. [Limit: opens < closes]
};

/// What navigation has done so far.
struct NavigationStats {
  std::int64_t agents = 0;       ///< Agents given goals with navigate (removed ones included).
  std::int64_t planned = 0;      ///< Routes planned for agents that had none.
  std::int64_t replans = 0;      ///< Routes planned again for agents that made no progress.
  std::int64_t unreachable = 0;  ///< Agents whose goals no route reached (they stand).
  std::int64_t exitChanges = 0;  ///< Agents sent to another exit (by queue, or hours).
  std::int64_t routePoints = 0;  ///< Points of the routes the simulator holds for them.
  double seconds = 0.0;          ///< Wall-clock time spent checking and planning.
};

/// Empty when the options are within their limits, else what is wrong.
std::string navigationOptionsProblem(const NavigationOptions& options);

/// `behavior` made to follow the agent's own route, when it is the default goal rule (an agent
/// with other behaviours steers by its goal itself: seek, arrive, ...).
Behavior followingOwnRoute(const Behavior& behavior);

/// Longest route piece, in map cells, of a route handed to a follower (cutRoute).
inline constexpr double kRoutePieceCells = 0.5;

/// Appends `route` to `out` as a follower wants it: repeated points dropped, and every leg cut
/// into pieces at most `maxPiece` long. A follower pushed out of sight of its waypoint falls back
/// to the latest point of its route it can see, a few pieces back at most (kernels/
/// steer_route.hpp); short pieces give it such a point on its own side of a door, where with
/// whole legs the point behind it may lie beyond the wall. Returns the number of points appended.
std::size_t cutRoute(std::span<const Vec2> route, float maxPiece, std::vector<Vec2>& out);

}  // namespace crowd
