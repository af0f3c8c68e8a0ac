#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include <crowd/grid_astar.hpp>

namespace crowd {
namespace {

using detail::OpenEntry;

void requireInside(const GridMap& map, GridCell c, const char* what) {
  if (!map.contains(c)) {
    throw std::out_of_range(std::string(what) + " (" + std::to_string(c.x) + ", " + std::to_string(c.y) +
                            ") is outside the " + std::to_string(map.width()) + " x " +
                            std::to_string(map.height()) + " map");
  }
}

}  // namespace

// --- A* -------------------------------------------------------------------------------------

GridAstar::GridAstar(const GridMap& map, const AstarOptions& options)
    : options_(options), snapshot_(map), graph_(snapshot_, options.moves), workspace_(map.cellCount()) {}

// --- goal field -------------------------------------------------------------------------------

GoalField::GoalField(const GridMap& map, std::span<const GridCell> goals, GridMoveRules rules)
    : width_(map.width()), height_(map.height()) {
  if (goals.empty()) throw std::invalid_argument("a goal field needs at least one goal cell");
  const GridMoveTable moves(map, rules);
  // Dijkstra in double (sums of 1 and sqrt(2) over long paths), stored as float afterwards.
  std::vector<double> distance(map.cellCount(), std::numeric_limits<double>::infinity());
  directions_.assign(map.cellCount(), kUnreachable);
  // Distances are non-negative doubles, which order as their bit patterns do, and Dijkstra
  // pops them in increasing order: what a radix heap needs.
  detail::RadixHeap queue;
  for (const GridCell goal : goals) {
    requireInside(map, goal, "goal");
    if (!map.passable(goal)) {
      throw std::invalid_argument("goal (" + std::to_string(goal.x) + ", " + std::to_string(goal.y) +
                                  ") is a blocked cell");
    }
    const std::size_t cell = map.index(goal);
    if (distance[cell] == 0.0) continue;
    distance[cell] = 0.0;
    directions_[cell] = kAtGoal;
    queue.push(OpenEntry{0, static_cast<std::uint32_t>(cell), 0, 0});
  }
  while (!queue.empty()) {
    const OpenEntry top = queue.pop();
    const double reachedTop = std::bit_cast<double>(top.key);
    if (reachedTop > distance[top.cell]) continue;  // Stale: a shorter way was found since.
    unsigned mask = moves.mask(top.cell);
    while (mask != 0) {
      const int d = std::countr_zero(mask);
      mask &= mask - 1;
      const auto next = static_cast<std::uint32_t>(static_cast<std::ptrdiff_t>(top.cell) + moves.offset(d));
      const double reached = reachedTop + kGridMoveCost[static_cast<std::size_t>(d)];
      if (reached >= distance[next]) continue;
      distance[next] = reached;
      // Moves are symmetric, so undoing the move that reached `next` leads downhill from it.
      directions_[next] = static_cast<std::uint8_t>(d ^ 1);
      queue.push(OpenEntry{std::bit_cast<std::uint64_t>(reached), next, 0, 0});
    }
  }
  distances_.resize(distance.size());
  std::transform(distance.begin(), distance.end(), distances_.begin(),
                 [](double d) { return static_cast<float>(d); });
}

float GoalField::distance(GridCell c) const {
  if (c.x < 0 || c.y < 0 || c.x >= width_ || c.y >= height_) return std::numeric_limits<float>::infinity();
  return distances_[static_cast<std::size_t>(c.y) * static_cast<std::size_t>(width_) +
                    static_cast<std::size_t>(c.x)];
}

std::optional<GridCell> GoalField::next(GridCell c) const {
  if (c.x < 0 || c.y < 0 || c.x >= width_ || c.y >= height_) return std::nullopt;
  const std::uint8_t d = directions_[static_cast<std::size_t>(c.y) * static_cast<std::size_t>(width_) +
                                     static_cast<std::size_t>(c.x)];
  if (d == kUnreachable) return std::nullopt;
  if (d == kAtGoal) return c;
  return GridCell{c.x + kGridMoveDx[d], c.y + kGridMoveDy[d]};
}

// --- smoothing --------------------------------------------------------------------------------

bool lineOfSight(const GridMap& map, GridCell a, GridCell b) {
  if (!map.passable(a) || !map.passable(b)) return false;
  const int stepX = b.x > a.x ? 1 : -1;
  const int stepY = b.y > a.y ? 1 : -1;
  const std::int64_t nx = std::abs(b.x - a.x);
  const std::int64_t ny = std::abs(b.y - a.y);
  int x = a.x;
  int y = a.y;
  // Walk the cells in the order the segment enters them. It crosses its (ix + 1)-th vertical
  // cell side at t = (ix + 1/2) / nx and its (iy + 1)-th horizontal side at (iy + 1/2) / ny;
  // comparing the two, cross-multiplied, says which comes first, exactly.
  for (std::int64_t ix = 0, iy = 0; ix < nx || iy < ny;) {
    const std::int64_t order = (1 + 2 * ix) * ny - (1 + 2 * iy) * nx;
    if (order == 0) {
      // Through a lattice corner: it touches both cells beside the diagonal step.
      if (!map.passable(x + stepX, y) || !map.passable(x, y + stepY)) return false;
      x += stepX;
      y += stepY;
      ++ix;
      ++iy;
    } else if (order < 0) {
      x += stepX;
      ++ix;
    } else {
      y += stepY;
      ++iy;
    }
    if (!map.passable(x, y)) return false;
  }
  return true;
}

bool lineOfSight(const GridMap& map, Vec2 from, GridCell to) {
  const GridPlacement& place = map.placement();
  const double px = (static_cast<double>(from.x) - place.origin.x) / place.cellSize;
  const double py = (static_cast<double>(from.y) - place.origin.y) / place.cellSize;
  if (!std::isfinite(px) || !std::isfinite(py) || px < 0.0 || py < 0.0 || px > map.width() ||
      py > map.height() || !map.passable(to)) {
    return false;
  }
  int x = std::min(static_cast<int>(px), map.width() - 1);
  int y = std::min(static_cast<int>(py), map.height() - 1);
  if (!map.passable(x, y)) return false;
  // Walk the cells the segment enters (Amanatides and Woo). The steps only ever go towards the
  // target cell, and stop there, so rounding can change their order but not their end. Each
  // crossing time is one division (correctly rounded), not a running sum: a segment through a
  // lattice corner then gives equal times for both sides there, exactly.
  const double dx = to.x + 0.5 - px;
  const double dy = to.y + 0.5 - py;
  const int stepX = dx > 0.0 ? 1 : -1;
  const int stepY = dy > 0.0 ? 1 : -1;
  const auto crossing = [](int cell, int step, double start, double delta) {
    return ((step > 0 ? cell + 1.0 : static_cast<double>(cell)) - start) / delta;
  };
  while (x != to.x || y != to.y) {
    // A coordinate already in the target's column (row) never steps again.
    const double nextX = x != to.x ? crossing(x, stepX, px, dx) : std::numeric_limits<double>::infinity();
    const double nextY = y != to.y ? crossing(y, stepY, py, dy) : std::numeric_limits<double>::infinity();
    if (nextX == nextY) {
      // Through a lattice corner: it touches both cells beside the diagonal step.
      if (!map.passable(x + stepX, y) || !map.passable(x, y + stepY)) return false;
      x += stepX;
      y += stepY;
    } else if (nextX < nextY) {
      x += stepX;
    } else {
      y += stepY;
    }
    if (!map.passable(x, y)) return false;
  }
  return true;
}

std::vector<GridCell> smoothPath(const GridMap& map, std::span<const GridCell> path) {
  std::vector<GridCell> waypoints;
  if (path.empty()) return waypoints;
  waypoints.push_back(path.front());
  std::size_t anchor = 0;
  for (std::size_t i = 2; i < path.size(); ++i) {
    // Cell i - 1 is the farthest seen from the anchor: it becomes the next waypoint. Cells next
    // to each other on a path without corner cutting always see each other.
    if (!lineOfSight(map, path[anchor], path[i])) {
      anchor = i - 1;
      waypoints.push_back(path[anchor]);
    }
  }
  if (path.size() > 1) waypoints.push_back(path.back());
  return waypoints;
}

std::vector<Vec2> cellCenters(const GridMap& map, std::span<const GridCell> cells) {
  std::vector<Vec2> points;
  points.reserve(cells.size());
  for (const GridCell c : cells) points.push_back(map.cellCenter(c));
  return points;
}

}  // namespace crowd
