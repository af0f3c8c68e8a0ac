// A* between two cells of a GridGraph, on one thread's reusable search records.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <crowd/grid_graph.hpp>
#include <crowd/grid_map.hpp>
#include <crowd/radix_heap.hpp>

namespace crowd {

/// A* heuristics, as estimates of the remaining length from a cell to the goal. Admissible
/// (never over the true length, so A* returns optimal lengths) and consistent:
///   Octile:    for both move sets; exact on an open 8-connected grid, hence the default.
///   Euclidean: for both move sets, but weaker than octile: more cells expanded.
///   Manhattan: for 4-connected moves only (there it is exact on an open grid). With diagonal
///              moves it overestimates (a diagonal costs sqrt(2) < 2), so paths can come out
///              longer than optimal; it then trades length for fewer expansions.
enum class GridHeuristic { Octile, Euclidean, Manhattan };

/// The outcome of one A* query.
struct GridPathResult {
  double length = -1.0;       ///< Path length in cells (cardinal move = 1); -1 when unreachable.
  std::int64_t expanded = 0;  ///< Cells taken off the open list and expanded (the goal not counted).
  bool found() const { return length >= 0.0; }
};

/// What A* writes while it runs: a 16-byte record per cell, indexed by cell, and the open list.
/// Both are kept between queries and never cleared: a query number stamped on each record tells
/// whether it belongs to the current query, so a short route costs the cells it touches, not the
/// map's size. The stamps hold whichever graph a query searches, so one workspace serves queries
/// on any number of graphs (the planning maps of several agent radii): the records are per thread,
/// not per map. Ties in f go to the larger g (the successor found last, nearer the goal). Not
/// thread-safe: one workspace per thread.
class AstarWorkspace {
 public:
  /// Bytes a workspace holds per cell of the largest map it has searched (the open list aside).
  static constexpr std::size_t kBytesPerCell = 16;

  /// Records for maps of up to `cells` cells, allocated now (so that a caller can allocate
  /// before its threads start); a larger graph adds the rest on its first query.
  explicit AstarWorkspace(std::size_t cells = 0);

  /// The shortest path from `start` to `goal` on `graph`. With `path`, also the cells of the
  /// path, start and goal included (empty when unreachable). A blocked start or goal is
  /// unreachable. The result depends on the query alone, never on earlier queries or graphs.
  /// Throws std::out_of_range when a cell lies outside the graph.
  GridPathResult findPath(const GridGraph& graph, GridHeuristic heuristic, GridCell start, GridCell goal,
                          std::vector<GridCell>* path = nullptr);

  /// Cells the records cover: the largest map searched, or the count given at construction.
  std::size_t cellCapacity() const { return nodes_.size(); }

 private:
  // Per cell, 16 bytes: what the current query knows of it.
  struct Node {
    double g;              // Best length found from the start.
    std::uint32_t parent;  // Cell it was reached from.
    std::uint32_t stamp;   // queryStamp_: open; queryStamp_ + 1: closed; anything else: unseen.
  };
  static_assert(sizeof(Node) == kBytesPerCell);

  template <GridHeuristic kind>
  GridPathResult search(const GridMoveTable& moves, std::uint32_t start, std::uint32_t goal,
                        GridCell startCell, GridCell goalCell);
  void nextQueryStamp();

  std::vector<Node> nodes_;
  detail::RadixHeap open_;
  std::vector<detail::OpenEntry> sameF_;  // Successors with the smallest f, expanded before the heap.
  std::uint32_t queryStamp_ = 0;
};

}  // namespace crowd
