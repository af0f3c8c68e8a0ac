// Shortest paths on a GridMap: A* between two cells, a Dijkstra goal field that many agents
// sharing a goal can read, and line-of-sight smoothing of a cell path into waypoints. The moves
// and their rules are in grid_moves.hpp; A* itself, on a graph and a per-thread workspace, in
// astar_workspace.hpp (GridAstar here bundles the two for one map).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <crowd/astar_workspace.hpp>
#include <crowd/grid_graph.hpp>
#include <crowd/grid_map.hpp>
#include <crowd/grid_moves.hpp>

namespace crowd {

struct AstarOptions {
  GridMoveRules moves{};
  GridHeuristic heuristic = GridHeuristic::Octile;
};

/// A* on one map: a snapshot of the map's passability as a GridGraph, and an AstarWorkspace of
/// its own. For one-off searches and tests; code searching several maps on several threads
/// (RoutePlanner) holds a graph per map and a workspace per thread instead, the same results
/// without a copy of the map and a workspace for every pair. Not thread-safe: one per thread.
class GridAstar {
 public:
  /// Takes a snapshot of the map's passability; build a new GridAstar after changing the map.
  explicit GridAstar(const GridMap& map, const AstarOptions& options = {});
  // The graph reads this object's own snapshot: a copy would read the original's.
  GridAstar(const GridAstar&) = delete;
  GridAstar& operator=(const GridAstar&) = delete;

  /// The shortest path from `start` to `goal`. With `path`, also the cells of the path, start
  /// and goal included (empty when unreachable). A blocked start or goal is unreachable.
  /// Throws std::out_of_range when a cell lies outside the map.
  GridPathResult findPath(GridCell start, GridCell goal, std::vector<GridCell>* path = nullptr) {
    return workspace_.findPath(graph_, options_.heuristic, start, goal, path);
  }

  const AstarOptions& options() const { return options_; }
  const GridGraph& graph() const { return graph_; }

 private:
  AstarOptions options_;
  GridMap snapshot_;
  GridGraph graph_;  // Reads snapshot_: declared after it.
  AstarWorkspace workspace_;
};

/// The distance from a set of goal cells to every cell (Dijkstra, with GridMoveRules), and for
/// each cell the move to take next: downhill along a shortest path to the nearest goal. Reading
/// the next cell is O(1), so any number of agents sharing the goals can follow it.
class GoalField {
 public:
  static constexpr std::uint8_t kAtGoal = 8;         ///< direction() of a goal cell.
  static constexpr std::uint8_t kUnreachable = 255;  ///< direction() of a blocked or cut-off cell.

  GoalField() = default;
  /// Throws std::invalid_argument when a goal is outside the map or blocked, or there is none.
  GoalField(const GridMap& map, std::span<const GridCell> goals, GridMoveRules rules = {});

  int width() const { return width_; }
  int height() const { return height_; }
  /// Length of a shortest path to the nearest goal, in cells; +infinity when there is none.
  float distance(GridCell c) const;
  /// Move number (0-7, as kGridMoveDx/Dy), kAtGoal or kUnreachable, for a cell index.
  std::uint8_t direction(std::size_t cell) const { return directions_[cell]; }
  /// The neighbour to step to from `c` towards the nearest goal; `c` itself at a goal; none
  /// when `c` is outside the map, blocked or cannot reach a goal.
  std::optional<GridCell> next(GridCell c) const;

  std::span<const float> distances() const { return distances_; }
  std::span<const std::uint8_t> directions() const { return directions_; }

 private:
  int width_ = 0;
  int height_ = 0;
  std::vector<float> distances_;
  std::vector<std::uint8_t> directions_;
};

/// Whether the segment between the centres of `a` and `b` stays in free cells: every cell it
/// touches (a supercover walk) must be passable; where it passes exactly through a lattice
/// corner, all four cells there must be, as for a diagonal move without corner cutting.
bool lineOfSight(const GridMap& map, GridCell a, GridCell b);

/// The same test from a world position `from` (in the map's placement) to the centre of `to`:
/// every cell the segment touches must be passable, both cells beside it where it passes exactly
/// through a lattice corner. False when `from` is not finite or lies outside the map.
bool lineOfSight(const GridMap& map, Vec2 from, GridCell to);

/// Waypoints of a cell path with every straight leg in line of sight: the first and last cells,
/// and from each waypoint the last cell of the path it still sees (greedy string pulling). The
/// path must have no corner cutting (as GridAstar gives by default), so that neighbours on it
/// see each other.
std::vector<GridCell> smoothPath(const GridMap& map, std::span<const GridCell> path);

/// World positions of the cells' centres (waypoints for an agent to follow).
std::vector<Vec2> cellCenters(const GridMap& map, std::span<const GridCell> cells);

}  // namespace crowd
