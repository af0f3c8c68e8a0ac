// Routes for many agents on a GridMap: waypoint polylines that keep an agent's radius off the
// walls, planned once for a whole crowd.
//
// Agents are planned on a clearance map (one per distinct radius): a cell is free for planning
// when its centre lies at least `radius + clearanceMargin` from every blocked cell's square, so
// routes keep off walls and round corners instead of grazing them, and doors narrower than the
// agent are not used. Agents with the same goal set (after snapping goals to free cells) form a
// group; a group of at least `sharedFieldThreshold` agents whose searches would cost more than
// a pass over the map shares one GoalField (multi-source Dijkstra, so a set of exits gives each
// agent the nearest by route length), the rest run A* each, in parallel. Cell paths are
// smoothed by clear-line checks into a few waypoints; all routes go into one array with offsets
// per agent (CSR), ready for a backend.
//
// Output never depends on the thread count: every route is a function of its request alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <crowd/grid_astar.hpp>
#include <crowd/grid_map.hpp>

namespace crowd {

/// A GridMap as an agent of one size sees it. Distances are to the blocked cells' squares (and,
/// with wallAtMapEdge, to the map's edge); "clear" means at least `clearance` away from all of
/// them. Immutable once built, so any number of threads may read it.
class ClearanceMap {
 public:
  /// `clearance`: world units, the agent radius plus a margin. [Limit: >= 0, finite]
  /// `wallAtMapEdge`: the map's edge is a wall (as traceObstacleOutlines makes it by default).
  /// Throws std::invalid_argument for a bad clearance or an empty map.
  ClearanceMap(const GridMap& map, float clearance, bool wallAtMapEdge = true);

  float clearance() const { return clearance_; }
  bool wallAtMapEdge() const { return wallAtMapEdge_; }
  /// The map as given.
  const GridMap& map() const { return map_; }
  /// Free exactly where a cell's centre is clear: the map to plan on. The lattice rounds doors
  /// up: a door passes when some cell centre in it is `clearance` from both sides, so it needs
  /// 2 * clearance plus up to one cell of width; pick a cell size at most the agent radius to keep
  /// that rounding small.
  const GridMap& planning() const { return planning_; }
  /// Whether a cell is free for planning (false outside the map).
  bool free(GridCell c) const { return planning_.passable(c); }
  /// How many cells are free for planning.
  std::size_t freeCount() const { return freeCells_; }

  /// Whether every point of the segment from `a` to `b` (world positions) is clear; false when
  /// it leaves the map. Exact up to rounding (it tests the segment against each blocked square
  /// near it), so an agent of this clearance can walk it. Cost: about one step per cell crossed.
  bool clearLine(Vec2 a, Vec2 b) const;
  /// clearLine between the centres of two cells.
  bool clearLine(GridCell a, GridCell b) const;

  /// The free planning cell whose centre is nearest to `p` (a ring search outwards from the
  /// cell `p` lies in, or from the nearest map cell when `p` is outside); ties go to the lower
  /// cell index. None when `p` is not finite or no cell is free.
  std::optional<GridCell> nearestFree(Vec2 p) const;
  /// The free planning cell nearest to `p` among those `p` sees at zero clearance
  /// (lineOfSight on the map): where an agent standing in a spot too narrow for it can step to
  /// without passing through a wall, as nearestFree's cell may lie beyond one. Ties go to the
  /// lower cell index. None when `p` lies in a blocked cell or outside the map, or no free cell
  /// is in sight. Cost: the passable cells nearer to `p` than the answer (all of p's region
  /// when there is none).
  std::optional<GridCell> nearestFreeInSight(Vec2 p) const;

 private:
  // Per cell: kBlocked (a wall), kInflated (free, centre not clear), kNearWall (centre clear,
  // some point of the cell maybe not), kOpen (every point of the cell clear).
  enum Zone : std::uint8_t { kBlocked = 0, kInflated = 1, kNearWall = 2, kOpen = 3 };
  bool clearSegment(double px, double py, double qx, double qy) const;
  // Whether the segment keeps the clearance from the blocked squares of cells [x0, x1] x [y0, y1].
  bool squaresClear(int x0, int x1, int y0, int y1, double px, double py, double qx, double qy) const;

  GridMap map_;
  GridMap planning_;
  std::vector<std::uint8_t> zones_;
  float clearance_ = 0.0f;
  double clearanceCells_ = 0.0;  // clearance / cellSize
  // Blocked squares that can come within the clearance of a point of a cell lie within this
  // many cells of it.
  int window_ = 1;
  bool wallAtMapEdge_ = true;
  std::size_t freeCells_ = 0;
};

/// One agent's routing problem.
struct RouteRequest {
  Vec2 start{0.0f, 0.0f};  ///< World position. [Limit: finite]
  /// One goal, or a set of exits of which the nearest by route length is taken. [Limit: at
  /// least one; finite]
  std::vector<Vec2> goals;
  float radius = 0.0f;  ///< Agent radius, world units. [Limit: >= 0, finite]
};

struct RouteOptions {
  /// Diagonal moves past a corner that is blocked for planning. Off (the default), routes keep
  /// the full clearance everywhere; on, they are shorter but may graze, even touch, a wall's
  /// corner.
  bool cornerCutting = false;
  GridHeuristic heuristic = GridHeuristic::Octile;  ///< For per-agent A* (see GridHeuristic).
  /// Agents sharing a goal set (and a radius) at least this many share one goal field; smaller
  /// groups run A* per agent. [Limit: >= 1]
  int sharedFieldThreshold = 16;
  /// Such a group gets its field only when the field (a pass over the whole map) costs less
  /// than the group's A* searches, estimated from a search for its first agent: a few agents on
  /// short routes across a big map run A*. Off, every group of sharedFieldThreshold agents or
  /// more gets a field.
  bool sharedFieldByCost = true;
  /// Smooth cell paths into waypoints with clear-line checks; off, every cell centre is kept.
  bool smooth = true;
  /// Added to each agent's radius to make its clearance, world units. [Limit: >= 0, finite]
  float clearanceMargin = 0.05f;
  bool wallAtMapEdge = true;  ///< The map's edge is a wall (see ClearanceMap).
};

/// RouteSet::status bits; 0 is a route planned from the agent's own start and goal cells.
namespace route_status {
inline constexpr std::uint8_t kOk = 0;
/// The start cell was not free for planning: planned from the nearest free one (for a start
/// in a free map cell, the nearest in straight sight of it; see kCramped).
inline constexpr std::uint8_t kStartMoved = 1;
/// A goal cell was not free for planning: moved to the nearest free one (in sight, as above).
inline constexpr std::uint8_t kGoalMoved = 2;
/// No route: the agent stays where it is (its route is its start alone).
inline constexpr std::uint8_t kUnreachable = 4;
/// The start lies in a blocked cell or outside the map (warned).
inline constexpr std::uint8_t kStartInWall = 8;
/// A goal lies in a blocked cell or outside the map (warned).
inline constexpr std::uint8_t kGoalInWall = 16;
/// A start, goal or radius not finite, a negative radius or no goal (with kUnreachable).
inline constexpr std::uint8_t kBadRequest = 32;
/// The start or a goal lies in a free map cell too narrow for the agent (not free for
/// planning), and no cell free for planning is in straight sight of it: moving it to one
/// would take the route through a wall. Such a start leaves the agent unreachable; such a goal
/// is dropped (unreachable when no other goal is left). Warned, naming the agent.
inline constexpr std::uint8_t kCramped = 64;
}  // namespace route_status

/// Wall-clock seconds per planning phase.
struct RouteTimes {
  double inflate = 0.0;    ///< Clearance maps for radii not seen before.
  double snap = 0.0;       ///< Starts and goals to free cells; grouping by goal set.
  double fields = 0.0;     ///< Goal fields (Dijkstra), one per large group.
  double astar = 0.0;      ///< Per-agent A* for small groups.
  double smoothing = 0.0;  ///< Waypoints and the CSR arrays.
  double total = 0.0;
};

/// Routes for n agents, in request order.
struct RouteSet {
  /// Waypoints of every route, route i at [offsets[i], offsets[i + 1]). A route starts at the
  /// agent's start as given, then the centre of its (moved) start cell unless the start sees the
  /// next waypoint directly, then waypoints in clear line of each other, and ends at the goal as
  /// given (at the moved goal cell's centre when the goal lay in a wall).
  std::vector<Vec2> points;
  std::vector<std::int64_t> offsets;  ///< n + 1 entries, offsets[0] = 0.
  std::vector<std::uint8_t> status;   ///< route_status bits per agent.
  /// Length of the shortest grid route on the clearance map from the start cell's centre to the
  /// goal cell's centre, world units (8-connected: what A* and the goal fields minimise, and what
  /// picks among exits); the smoothed polyline is no longer than it between those centres. -1
  /// when unreachable.
  std::vector<float> lengths;
  /// Which of the request's goals the route ends at; -1 when unreachable.
  std::vector<std::int32_t> goalIndex;
  /// One line per kind of problem, with a count and the first agent, e.g. "12 agents start
  /// inside a wall (agent 3 first); moved to the nearest free cell".
  std::vector<std::string> warnings;
  RouteTimes times;
  /// Threads the searches ran on: the thread count asked for, fewer when the memory budget
  /// holds fewer searches (see RouteMemory; the routes are the same either way).
  int threads = 0;
  /// Why `threads` is below the count asked for (also one of `warnings`); empty when it is not.
  std::string threadsWarning;
  int fieldsBuilt = 0;             ///< Goal fields computed.
  std::int64_t astarSearches = 0;  ///< A* searches run (one per exit for an exit set).

  std::size_t size() const { return status.size(); }
  std::span<const Vec2> route(std::size_t agent) const {
    return std::span<const Vec2>(points).subspan(
        static_cast<std::size_t>(offsets[agent]),
        static_cast<std::size_t>(offsets[agent + 1] - offsets[agent]));
  }
};

/// What planning on a map takes, by estimate (bytes per map cell, as the planner allocates):
/// each distinct radius a ClearanceMap (the map, its planning map and zones: 3 bytes a cell, and
/// 4 more while it is built) and, once agents of that radius are searched, a GridGraph of its
/// planning map (the move table: 1 byte a cell; the passability is the planning map's own);
/// each thread searching one AstarWorkspace, shared by every radius (16 bytes a cell); each
/// shared goal field 13 bytes a cell (distances, moves and waypoint anchors).
struct RouteMemory {
  static constexpr std::uint64_t kClearanceBytesPerCell = 3;
  static constexpr std::uint64_t kClearanceBuildBytesPerCell = 4;
  static constexpr std::uint64_t kGraphBytesPerCell = 1;
  static constexpr std::uint64_t kSearchBytesPerCell = AstarWorkspace::kBytesPerCell;
  static constexpr std::uint64_t kFieldBytesPerCell = 13;

  std::uint64_t cells = 0;
  std::uint64_t radii = 0;     ///< Clearance maps held (built before, or to be built).
  std::uint64_t graphs = 0;    ///< Search graphs held: one per radius searched with A*.
  std::uint64_t searches = 0;  ///< A* workspaces held: one per thread, whatever the radii.
  std::uint64_t fields = 0;    ///< Goal fields.
  std::uint64_t bytes() const {
    return cells *
           (radii * kClearanceBytesPerCell + (radii > 0 ? kClearanceBuildBytesPerCell : 0) +
            graphs * kGraphBytesPerCell + searches * kSearchBytesPerCell + fields * kFieldBytesPerCell);
  }
  /// "704.0 MiB for a 4096 x 4096 map: 2 clearance maps (one per agent radius), 2 search graphs
  /// (one per radius searched, 1 byte a cell), 2 A* searches (one per thread, shared by every
  /// radius, 16 bytes a cell), 0 goal fields".
  std::string describe(int width, int height) const;
};

/// A planner for one map, keeping between calls one ClearanceMap per distinct radius (so
/// replanning a crowd does not inflate the map again), a GridGraph per radius searched (reading
/// that radius's planning map in place) and one AstarWorkspace per thread, shared by all radii:
/// its per-cell records are stamped per query, never cleared, so a short route costs the cells
/// it touches, not the map's size, and a query on one radius's graph leaves nothing behind for
/// the next on another's. Each workspace holds 16 bytes a cell, each graph 1. Not thread-safe;
/// plan() itself runs on `threads` threads.
class RoutePlanner {
 public:
  /// Copies the map. Throws std::invalid_argument for an empty map or bad options.
  explicit RoutePlanner(const GridMap& map, const RouteOptions& options = {});

  /// Routes for every request. `threads` <= 0 uses OpenMP's default. Bad requests are not
  /// errors: they get status bits and warnings. Before the clearance maps, the searches and the
  /// goal fields are allocated their memory is estimated (RouteMemory) against memoryBudget():
  /// fewer threads search when that keeps it within the budget (warned), and when even one
  /// does not fit, MemoryBudgetError (an InputError) says the estimate and the budget. Running
  /// out of memory all the same throws RouteMemoryError, naming the map and the phase.
  RouteSet plan(std::span<const RouteRequest> requests, int threads = 0);

  /// The clearance map for agents of `radius` (clearance radius + clearanceMargin), built on
  /// first use. Throws std::invalid_argument for a radius that is not finite and >= 0.
  const ClearanceMap& clearanceFor(float radius);

  /// What the planner holds between calls, as RouteMemory counts it: its clearance maps, search
  /// graphs and A* workspaces (goal fields last one call only).
  RouteMemory heldMemory() const;

  const GridMap& map() const { return map_; }
  const RouteOptions& options() const { return options_; }

 private:
  // Index k of the radius in radii_, adding it (and its clearance map) when new.
  std::size_t radiusIndex(float radius);
  RouteSet planWithin(std::span<const RouteRequest> requests, int threads);
  // Search graphs held once each radius index in `searched` (no repeats) has one.
  std::uint64_t graphsWith(std::span<const std::size_t> searched) const;
  std::uint64_t keptWorkspaces() const;  // Workspaces built by earlier calls.

  const char* phase_ = "";  // What plan() is doing, for the message when memory runs out.

  GridMap map_;
  RouteOptions options_;
  std::vector<float> radii_;  // radii_[k] is the radius clearance_[k] was built for.
  std::vector<std::unique_ptr<ClearanceMap>> clearance_;
  // graphs_[k]: clearance_[k]'s planning map as A* reads it, built when first searched.
  std::vector<std::unique_ptr<GridGraph>> graphs_;
  // workspaces_[t]: thread t's A* records, for every radius: the planning maps all have the
  // map's cells, and the records' stamps keep one query's from reading another's.
  std::vector<std::unique_ptr<AstarWorkspace>> workspaces_;
};

/// Memory ran out while planning, past the estimate: says what was being planned.
class RouteMemoryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// One-shot planning: RoutePlanner(map, options).plan(requests, threads).
RouteSet planRoutes(const GridMap& map, std::span<const RouteRequest> requests,
                    const RouteOptions& options = {}, int threads = 0);

}  // namespace crowd
