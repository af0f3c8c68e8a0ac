// Waypoints of routes (route_planner.cpp's smoothing phase): the Theta* rule on a goal field,
// filled on demand and shared by threads; greedy string pulling on an explicit A* path; how a
// chain of waypoint cells becomes a route's points.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include <crowd/grid_astar.hpp>
#include <crowd/route_planner.hpp>

namespace crowd::routing {

inline constexpr std::uint32_t kNoCell = std::numeric_limits<std::uint32_t>::max();

/// One cell of a shared field: its first waypoint (kNoCell until a route needs it) and its
/// distance to the goals (cells), side by side: a route's first look-up reads both at once.
struct FieldCell {
  std::uint32_t anchor = kNoCell;
  float distance = 0.0f;
};

/// A goal field with its FieldCell per map cell.
struct SharedField {
  GoalField field;
  std::vector<FieldCell> cells;
};

/// The cell's waypoint if some route has already filled it, else kNoCell (anchorOf's quick
/// path, inline).
inline std::uint32_t knownAnchor(SharedField& shared, std::uint32_t cell) {
  return std::atomic_ref<std::uint32_t>(shared.cells[cell].anchor).load(std::memory_order_relaxed);
}

/// The cell that field move `move` (0-7, as kGridMoveDx/Dy) leads to from `cell`.
inline std::uint32_t stepCell(std::uint32_t cell, std::uint8_t move, int width) {
  return static_cast<std::uint32_t>(static_cast<std::int64_t>(cell) + kGridMoveDx[move] +
                                    static_cast<std::int64_t>(kGridMoveDy[move]) * width);
}

/// The first waypoint of the smoothed route from `cell` along the field, by the Theta* rule
/// (Nash et al. 2007) run from the goal outwards: a cell heads for the waypoint of its downhill
/// neighbour when it has a clear line to it, else for the neighbour itself (always clear: a move
/// between free planning cells keeps the clearance). A goal cell is its own waypoint. Cells are
/// filled on demand, from the first one already known back up to `cell`; `pending` is scratch.
/// Safe to call from many threads on one field.
std::uint32_t anchorOf(SharedField& shared, const ClearanceMap& clearance, std::uint32_t cell,
                       std::vector<std::uint32_t>& pending);

/// Waypoints of an explicit cell path (from A*) by greedy string pulling: from each waypoint,
/// the next is a cell further along the path in clear line of it, found by looking ahead 2, 4,
/// 8, ... cells and then bisecting (not always the farthest seen, but every leg is clear and
/// the cost stays near linear in the path's length). Appends the waypoint cells, start and goal
/// included, to `chain`. The path must not be empty.
void smoothCellPath(const ClearanceMap& clearance, std::span<const std::uint32_t> path,
                    std::vector<std::uint32_t>& chain);

/// How a route's chain of cells becomes points: the start as given; the start cell's centre
/// unless the start sees the next waypoint (no step back to the centre); the waypoints; the goal
/// cell's centre unless the last waypoint sees the goal; the goal. A goal that lay in a wall is
/// left out: the route ends at the centre of the cell it was moved to (kEndAtCentre).
enum RouteShape : std::uint8_t { kSkipStartCentre = 1, kGoalCentre = 2, kEndAtCentre = 4 };

/// The RouteShape bits of one route: `fromStart` false when the start was moved (its cell's
/// centre is then always kept), `toGoal` false when the goal lay in a wall.
std::uint8_t routeShape(const ClearanceMap& clearance, Vec2 start, bool fromStart,
                        std::span<const std::uint32_t> chain, Vec2 goal, bool toGoal, bool smooth);

/// Points a route of this chain and shape has.
std::size_t routePointCount(std::size_t chainSize, std::uint8_t shape);

/// Writes the route's routePointCount points from `out`; returns the end.
Vec2* writeRoute(const GridMap& map, Vec2 start, std::span<const std::uint32_t> chain, Vec2 goal,
                 std::uint8_t shape, Vec2* out);

}  // namespace crowd::routing
