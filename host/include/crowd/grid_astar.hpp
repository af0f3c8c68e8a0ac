// Shortest paths on a GridMap: A* between two cells, a Dijkstra goal field that many agents
// sharing a goal can read, and line-of-sight smoothing of a cell path into waypoints.
//
// Moves: 8-connected by default; a cardinal move costs 1, a diagonal sqrt(2). Without corner
// cutting (the default, and the rule the Moving AI benchmarks encode) a diagonal move from
// (x, y) to (x + dx, y + dy) also needs (x + dx, y) and (x, y + dy) free, so a path never
// squeezes between two blocked cells that touch at a corner. Every rule here is symmetric: a
// move from a to b is allowed exactly when the move from b to a is.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <crowd/grid_map.hpp>

namespace crowd {

/// Which moves a path may make.
struct GridMoveRules {
  bool diagonal = true;        ///< 8-connected when true, 4-connected (cardinal moves only) when false.
  bool cornerCutting = false;  ///< A diagonal move needs only its target cell free.
};

/// A* heuristics, as estimates of the remaining length from a cell to the goal. Admissible
/// (never over the true length, so A* returns optimal lengths) and consistent:
///   Octile:    for both move sets; exact on an open 8-connected grid, hence the default.
///   Euclidean: for both move sets, but weaker than octile: more cells expanded.
///   Manhattan: for 4-connected moves only (there it is exact on an open grid). With diagonal
///              moves it overestimates (a diagonal costs sqrt(2) < 2), so paths can come out
///              longer than optimal; it then trades length for fewer expansions.
enum class GridHeuristic { Octile, Euclidean, Manhattan };

struct AstarOptions {
  GridMoveRules moves{};
  GridHeuristic heuristic = GridHeuristic::Octile;
};

/// The outcome of one A* query.
struct GridPathResult {
  double length = -1.0;       ///< Path length in cells (cardinal move = 1); -1 when unreachable.
  std::int64_t expanded = 0;  ///< Cells taken off the open list and expanded (the goal not counted).
  bool found() const { return length >= 0.0; }
};

/// The moves allowed out of every cell, worked out once for a map and a rule set: bit d of
/// mask(cell) allows move d (see kGridMoveDx/Dy), so a search never tests bounds or neighbours.
class GridMoveTable {
 public:
  GridMoveTable() = default;
  GridMoveTable(const GridMap& map, GridMoveRules rules);
  int width() const { return width_; }
  int height() const { return height_; }
  std::uint8_t mask(std::size_t cell) const { return masks_[cell]; }
  std::span<const std::uint8_t> masks() const { return masks_; }
  /// Index step of move d: dx + dy * width.
  std::ptrdiff_t offset(int d) const { return offsets_[static_cast<std::size_t>(d)]; }

 private:
  int width_ = 0;
  int height_ = 0;
  std::vector<std::uint8_t> masks_;
  std::array<std::ptrdiff_t, 8> offsets_{};
};

/// Moves 0-3 are cardinal (+x, -x, +y, -y), 4-7 diagonal; move d ^ 1 undoes move d.
inline constexpr std::array<int, 8> kGridMoveDx{1, -1, 0, 0, 1, -1, 1, -1};
inline constexpr std::array<int, 8> kGridMoveDy{0, 0, 1, -1, 1, -1, -1, 1};
inline constexpr double kSqrt2 = 1.41421356237309504880;

namespace detail {

/// An open-list entry, 16 bytes. Entries made stale by a shorter path stay queued and are
/// dropped when they surface (lazy deletion): cheaper than a decrease-key's position index.
struct OpenEntry {
  std::uint64_t key;  // Smallest first: f in fixed point for A*, the distance's bits for Dijkstra.
  std::uint32_t cell;
  std::uint16_t x;
  std::uint16_t y;
};

/// A monotone priority queue (a radix heap, Ahuja, Mehlhorn, Orlin and Tarjan 1990): keys are
/// never pushed below the last key popped, which A* (see search) and Dijkstra both honour; a
/// key that is anyway is queued as if equal to it. Bucket b > 0 holds keys whose highest bit
/// differing from the last popped key is bit b - 1; a pop empties the lowest such bucket into
/// lower ones, so pushes cost O(1) and an entry moves at most 64 times (a few, when keys are
/// close together as they are here). Equal keys come out last in, first out. The buckets keep
/// their memory between searches.
class RadixHeap {
 public:
  bool empty() const { return size_ == 0; }
  void clear();
  void push(const OpenEntry& entry);
  OpenEntry pop();

 private:
  static int bucketOf(std::uint64_t key, std::uint64_t last);

  std::array<std::vector<OpenEntry>, 65> buckets_;
  std::uint64_t nonEmpty_ = 0;  // Bit b - 1 set when bucket b > 0 holds entries.
  std::uint64_t last_ = 0;
  std::size_t size_ = 0;
};

}  // namespace detail

/// A* on one map. The search arrays (one 16-byte record per cell, indexed by cell) and the open
/// list are kept between queries and never cleared: a query number stamped on each record tells
/// whether it belongs to the current query. Ties in f go to the larger g (the successor found
/// last, nearer the goal). Not thread-safe: one GridAstar per thread.
class GridAstar {
 public:
  /// Takes a snapshot of the map's passability; build a new GridAstar after changing the map.
  explicit GridAstar(const GridMap& map, const AstarOptions& options = {});

  /// The shortest path from `start` to `goal`. With `path`, also the cells of the path, start
  /// and goal included (empty when unreachable). A blocked start or goal is unreachable.
  /// Throws std::out_of_range when a cell lies outside the map.
  GridPathResult findPath(GridCell start, GridCell goal, std::vector<GridCell>* path = nullptr);

  const AstarOptions& options() const { return options_; }

 private:
  // Per cell, 16 bytes: what the current query knows of it.
  struct Node {
    double g;              // Best length found from the start.
    std::uint32_t parent;  // Cell it was reached from.
    std::uint32_t stamp;   // queryStamp_: open; queryStamp_ + 1: closed; anything else: unseen.
  };
  template <GridHeuristic kind>
  GridPathResult search(std::uint32_t start, std::uint32_t goal, GridCell startCell, GridCell goalCell);
  void nextQueryStamp();

  AstarOptions options_;
  GridMoveTable moves_;
  std::vector<std::uint8_t> passable_;
  std::vector<Node> nodes_;
  detail::RadixHeap open_;
  std::vector<detail::OpenEntry> sameF_;  // Successors with the smallest f, expanded before the heap.
  std::uint32_t queryStamp_ = 0;
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
