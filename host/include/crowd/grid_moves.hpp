// The moves a path on a GridMap may make, and which of them leave each cell.
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
#include <span>
#include <vector>

#include <crowd/grid_map.hpp>

namespace crowd {

/// Which moves a path may make.
struct GridMoveRules {
  bool diagonal = true;        ///< 8-connected when true, 4-connected (cardinal moves only) when false.
  bool cornerCutting = false;  ///< A diagonal move needs only its target cell free.
};

/// Moves 0-3 are cardinal (+x, -x, +y, -y), 4-7 diagonal; move d ^ 1 undoes move d.
inline constexpr std::array<int, 8> kGridMoveDx{1, -1, 0, 0, 1, -1, 1, -1};
inline constexpr std::array<int, 8> kGridMoveDy{0, 0, 1, -1, 1, -1, -1, 1};
inline constexpr double kSqrt2 = 1.41421356237309504880;
/// Length of move d, in cells.
inline constexpr std::array<double, 8> kGridMoveCost{1.0, 1.0, 1.0, 1.0, kSqrt2, kSqrt2, kSqrt2, kSqrt2};

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

}  // namespace crowd
