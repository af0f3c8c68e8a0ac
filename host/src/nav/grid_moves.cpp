#include <crowd/grid_moves.hpp>

namespace crowd {

GridMoveTable::GridMoveTable(const GridMap& map, GridMoveRules rules)
    : width_(map.width()), height_(map.height()), masks_(map.cellCount(), 0) {
  for (int d = 0; d < 8; ++d) {
    offsets_[static_cast<std::size_t>(d)] =
        kGridMoveDx[static_cast<std::size_t>(d)] +
        static_cast<std::ptrdiff_t>(kGridMoveDy[static_cast<std::size_t>(d)]) * width_;
  }
  const int moveCount = rules.diagonal ? 8 : 4;
  for (int y = 0; y < height_; ++y) {
    for (int x = 0; x < width_; ++x) {
      if (!map.passable(x, y)) continue;
      unsigned mask = 0;
      for (int d = 0; d < moveCount; ++d) {
        const int dx = kGridMoveDx[static_cast<std::size_t>(d)];
        const int dy = kGridMoveDy[static_cast<std::size_t>(d)];
        if (!map.passable(x + dx, y + dy)) continue;
        // The Moving AI rule: no squeezing past a blocked corner.
        if (d >= 4 && !rules.cornerCutting && !(map.passable(x + dx, y) && map.passable(x, y + dy))) continue;
        mask |= 1u << d;
      }
      masks_[map.index(GridCell{x, y})] = static_cast<std::uint8_t>(mask);
    }
  }
}

}  // namespace crowd
