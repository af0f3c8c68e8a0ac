// What an A* search reads of a map: which cells are passable and which moves leave each.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include <crowd/grid_map.hpp>
#include <crowd/grid_moves.hpp>

namespace crowd {

/// A map as a graph for A* (see AstarWorkspace) under one rule set. It reads the map's cells in
/// place and adds only its move table (1 byte a cell), so one graph per map serves every thread:
/// a planner with several agent radii holds one per radius, whatever its thread count, and the
/// per-cell search records live in each thread's AstarWorkspace instead. Immutable once built.
class GridGraph {
 public:
  /// `map` must outlive the graph and keep its cells unchanged (the graph does not copy them).
  GridGraph(const GridMap& map, GridMoveRules rules)
      : passable_(map.cells()), moves_(map, rules), rules_(rules) {}
  /// A temporary map would leave the graph reading freed cells.
  GridGraph(GridMap&& map, GridMoveRules rules) = delete;

  int width() const { return moves_.width(); }
  int height() const { return moves_.height(); }
  std::size_t cellCount() const { return passable_.size(); }
  /// Whether cell `cell` (an index, as GridMap::index) is passable.
  bool passable(std::size_t cell) const { return passable_[cell] != 0; }
  const GridMoveTable& moves() const { return moves_; }
  GridMoveRules rules() const { return rules_; }

 private:
  std::span<const std::uint8_t> passable_;
  GridMoveTable moves_;
  GridMoveRules rules_;
};

}  // namespace crowd
