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

constexpr double kMoveCost[8] = {1.0, 1.0, 1.0, 1.0, kSqrt2, kSqrt2, kSqrt2, kSqrt2};
// Relative difference under which two f values count as equal. Rounding in g, a sum of up to
// ~f terms, stays below f^2 * 1e-16, relative 1e-12 for f up to 1e4; two distinct values
// a + b * sqrt(2) of that size differ by at least ~1 / (3 f), relative 3e-9.
constexpr double kSameFTolerance = 1e-9;

// The open list's key: f in fixed point, 2^-20 of a cell. Distinct f values are sums of whole
// numbers and multiples of sqrt(2), at least ~1 / (3 f) apart: more than 2^-20 for any f
// up to 10^5, so the fixed point orders them as f does, and small whole numbers keep the radix
// heap's buckets few. Equal keys come out last in, first out (the later, deeper entry first).
inline std::uint64_t orderKey(double f) {
  return static_cast<std::uint64_t>(f * 1048576.0);
}

void requireInside(const GridMap& map, GridCell c, const char* what) {
  if (!map.contains(c)) {
    throw std::out_of_range(std::string(what) + " (" + std::to_string(c.x) + ", " + std::to_string(c.y) +
                            ") is outside the " + std::to_string(map.width()) + " x " +
                            std::to_string(map.height()) + " map");
  }
}

template <GridHeuristic kind>
double estimate(int dx, int dy) {
  const double ax = std::abs(dx);
  const double ay = std::abs(dy);
  if constexpr (kind == GridHeuristic::Octile) {
    // The length of the obstacle-free path: min(ax, ay) diagonals, the rest straight.
    return std::max(ax, ay) + (kSqrt2 - 1.0) * std::min(ax, ay);
  } else if constexpr (kind == GridHeuristic::Euclidean) {
    return std::sqrt(ax * ax + ay * ay);
  } else {
    return ax + ay;
  }
}

}  // namespace

// --- moves ------------------------------------------------------------------------------------

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

// --- radix heap -------------------------------------------------------------------------------

namespace detail {

void RadixHeap::clear() {
  for (std::vector<OpenEntry>& bucket : buckets_) bucket.clear();
  nonEmpty_ = 0;
  last_ = 0;
  size_ = 0;
}

inline int RadixHeap::bucketOf(std::uint64_t key, std::uint64_t last) {
  return key == last ? 0 : 64 - std::countl_zero(key ^ last);
}

void RadixHeap::push(const OpenEntry& entry) {
  const int b = entry.key <= last_ ? 0 : bucketOf(entry.key, last_);
  buckets_[static_cast<std::size_t>(b)].push_back(entry);
  if (b > 0) nonEmpty_ |= std::uint64_t{1} << (b - 1);
  ++size_;
}

OpenEntry RadixHeap::pop() {
  std::vector<OpenEntry>& front = buckets_[0];
  if (front.empty()) {
    // The lowest non-empty bucket holds the smallest key; with it as the new last key, all of
    // the bucket's entries fall into lower buckets (they share all bits above its own).
    const int b = std::countr_zero(nonEmpty_) + 1;
    std::vector<OpenEntry>& source = buckets_[static_cast<std::size_t>(b)];
    std::uint64_t smallest = source.front().key;
    for (const OpenEntry& e : source) smallest = std::min(smallest, e.key);
    last_ = smallest;
    nonEmpty_ &= ~(std::uint64_t{1} << (b - 1));
    for (const OpenEntry& e : source) {
      const int to = bucketOf(e.key, last_);
      buckets_[static_cast<std::size_t>(to)].push_back(e);
      if (to > 0) nonEmpty_ |= std::uint64_t{1} << (to - 1);
    }
    source.clear();
  }
  const OpenEntry top = front.back();
  front.pop_back();
  --size_;
  return top;
}

}  // namespace detail

// --- A* ---------------------------------------------------------------------------------------

GridAstar::GridAstar(const GridMap& map, const AstarOptions& options)
    : options_(options),
      moves_(map, options.moves),
      passable_(map.cells().begin(), map.cells().end()),
      nodes_(map.cellCount(), Node{0.0, 0, 0}) {}

void GridAstar::nextQueryStamp() {
  // Two stamps a query (open, closed). When they run out, clear once and start over: every
  // 2^31 queries.
  if (queryStamp_ >= std::numeric_limits<std::uint32_t>::max() - 3) {
    for (Node& node : nodes_) node.stamp = 0;
    queryStamp_ = 0;
  }
  queryStamp_ += 2;
}

template <GridHeuristic kind>
GridPathResult GridAstar::search(std::uint32_t start, std::uint32_t goal, GridCell startCell,
                                 GridCell goalCell) {
  GridPathResult result;
  nextQueryStamp();
  const std::uint32_t openStamp = queryStamp_;
  const std::uint32_t closedStamp = queryStamp_ + 1;
  std::uint32_t offsets[8];
  for (int d = 0; d < 8; ++d) offsets[d] = static_cast<std::uint32_t>(moves_.offset(d));
  const int goalX = goalCell.x;
  const int goalY = goalCell.y;
  const std::uint8_t* masks = moves_.masks().data();
  Node* nodes = nodes_.data();

  open_.clear();
  sameF_.clear();
  nodes[start] = Node{0.0, start, openStamp};
  const double startF = estimate<kind>(goalX - startCell.x, goalY - startCell.y);
  open_.push(OpenEntry{orderKey(startF), start, static_cast<std::uint16_t>(startCell.x),
                       static_cast<std::uint16_t>(startCell.y)});
  std::int64_t expanded = 0;
  // bucketLimit: just above the f of the last entry taken off the heap, the smallest f still
  // open. A successor with f up to it (a step the heuristic fully pays for: most steps in open
  // ground) is as good as anything queued, so it goes on a stack and is expanded next, skipping
  // the heap; last in, first out also prefers the larger g. The margin covers rounding in sums
  // of 1 and sqrt(2); distinct f values are much further apart. Every entry the heap gets is
  // then above the last key it gave out, as a radix heap needs, whatever the heuristic.
  double bucketLimit = 0.0;
  bool fromHeap = false;
  while (true) {
    OpenEntry top;
    if (!sameF_.empty()) {
      top = sameF_.back();
      sameF_.pop_back();
    } else if (!open_.empty()) {
      top = open_.pop();
      fromHeap = true;
    } else {
      break;
    }
    Node& node = nodes[top.cell];
    // A cell closes with its smallest g; later entries for it are stale.
    if (node.stamp == closedStamp) continue;
    const double nodeG = node.g;
    if (fromHeap) {
      bucketLimit = (nodeG + estimate<kind>(goalX - top.x, goalY - top.y)) * (1.0 + kSameFTolerance);
      fromHeap = false;
    }
    if (top.cell == goal) {
      result.length = nodeG;
      break;
    }
    node.stamp = closedStamp;
    ++expanded;
    unsigned mask = masks[top.cell];
    while (mask != 0) {
      const int d = std::countr_zero(mask);
      mask &= mask - 1;
      const std::uint32_t next = top.cell + offsets[d];
      Node& neighbour = nodes[next];
      if (neighbour.stamp == closedStamp) continue;
      const double g = nodeG + kMoveCost[d];
      if (neighbour.stamp == openStamp && g >= neighbour.g) continue;
      neighbour = Node{g, top.cell, openStamp};
      const int x = top.x + kGridMoveDx[static_cast<std::size_t>(d)];
      const int y = top.y + kGridMoveDy[static_cast<std::size_t>(d)];
      const double h = estimate<kind>(goalX - x, goalY - y);
      const OpenEntry entry{orderKey(g + h), next, static_cast<std::uint16_t>(x),
                            static_cast<std::uint16_t>(y)};
      if (g + h <= bucketLimit) {
        sameF_.push_back(entry);
      } else {
        open_.push(entry);
      }
    }
  }
  result.expanded = expanded;
  return result;
}

GridPathResult GridAstar::findPath(GridCell start, GridCell goal, std::vector<GridCell>* path) {
  if (path != nullptr) path->clear();
  if (start.x < 0 || start.y < 0 || start.x >= moves_.width() || start.y >= moves_.height() || goal.x < 0 ||
      goal.y < 0 || goal.x >= moves_.width() || goal.y >= moves_.height()) {
    throw std::out_of_range("A* from (" + std::to_string(start.x) + ", " + std::to_string(start.y) +
                            ") to (" + std::to_string(goal.x) + ", " + std::to_string(goal.y) +
                            "): a cell outside the " + std::to_string(moves_.width()) + " x " +
                            std::to_string(moves_.height()) + " map");
  }
  const auto width = static_cast<std::uint32_t>(moves_.width());
  const std::uint32_t s = static_cast<std::uint32_t>(start.y) * width + static_cast<std::uint32_t>(start.x);
  const std::uint32_t t = static_cast<std::uint32_t>(goal.y) * width + static_cast<std::uint32_t>(goal.x);
  if (passable_[s] == 0 || passable_[t] == 0) return GridPathResult{};
  if (s == t) {
    if (path != nullptr) path->push_back(start);
    return GridPathResult{0.0, 0};
  }
  GridPathResult result;
  switch (options_.heuristic) {
    case GridHeuristic::Octile:
      result = search<GridHeuristic::Octile>(s, t, start, goal);
      break;
    case GridHeuristic::Euclidean:
      result = search<GridHeuristic::Euclidean>(s, t, start, goal);
      break;
    case GridHeuristic::Manhattan:
      result = search<GridHeuristic::Manhattan>(s, t, start, goal);
      break;
  }
  if (path != nullptr && result.found()) {
    for (std::uint32_t cell = t;; cell = nodes_[cell].parent) {
      path->push_back(GridCell{static_cast<int>(cell % width), static_cast<int>(cell / width)});
      if (cell == s) break;
    }
    std::reverse(path->begin(), path->end());
  }
  return result;
}

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
      const double reached = reachedTop + kMoveCost[d];
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
