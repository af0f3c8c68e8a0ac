#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include <crowd/astar_workspace.hpp>

namespace crowd {
namespace {

using detail::OpenEntry;

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

AstarWorkspace::AstarWorkspace(std::size_t cells) : nodes_(cells, Node{0.0, 0, 0}) {}

void AstarWorkspace::nextQueryStamp() {
  // Two stamps a query (open, closed). When they run out, clear once and start over: every
  // 2^31 queries.
  if (queryStamp_ >= std::numeric_limits<std::uint32_t>::max() - 3) {
    for (Node& node : nodes_) node.stamp = 0;
    queryStamp_ = 0;
  }
  queryStamp_ += 2;
}

template <GridHeuristic kind>
GridPathResult AstarWorkspace::search(const GridMoveTable& moves, std::uint32_t start, std::uint32_t goal,
                                      GridCell startCell, GridCell goalCell) {
  GridPathResult result;
  nextQueryStamp();
  const std::uint32_t openStamp = queryStamp_;
  const std::uint32_t closedStamp = queryStamp_ + 1;
  std::uint32_t offsets[8];
  for (int d = 0; d < 8; ++d) offsets[d] = static_cast<std::uint32_t>(moves.offset(d));
  const int goalX = goalCell.x;
  const int goalY = goalCell.y;
  const std::uint8_t* masks = moves.masks().data();
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
      const double g = nodeG + kGridMoveCost[static_cast<std::size_t>(d)];
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

GridPathResult AstarWorkspace::findPath(const GridGraph& graph, GridHeuristic heuristic, GridCell start,
                                        GridCell goal, std::vector<GridCell>* path) {
  if (path != nullptr) path->clear();
  const int width = graph.width();
  const int height = graph.height();
  if (start.x < 0 || start.y < 0 || start.x >= width || start.y >= height || goal.x < 0 || goal.y < 0 ||
      goal.x >= width || goal.y >= height) {
    throw std::out_of_range("A* from (" + std::to_string(start.x) + ", " + std::to_string(start.y) +
                            ") to (" + std::to_string(goal.x) + ", " + std::to_string(goal.y) +
                            "): a cell outside the " + std::to_string(width) + " x " +
                            std::to_string(height) + " map");
  }
  const auto columns = static_cast<std::uint32_t>(width);
  const std::uint32_t s = static_cast<std::uint32_t>(start.y) * columns + static_cast<std::uint32_t>(start.x);
  const std::uint32_t t = static_cast<std::uint32_t>(goal.y) * columns + static_cast<std::uint32_t>(goal.x);
  if (!graph.passable(s) || !graph.passable(t)) return GridPathResult{};
  if (s == t) {
    if (path != nullptr) path->push_back(start);
    return GridPathResult{0.0, 0};
  }
  // Records left by queries on other graphs read as unseen (their stamps are older); new ones,
  // for a larger graph than any before, start unseen.
  if (nodes_.size() < graph.cellCount()) nodes_.resize(graph.cellCount(), Node{0.0, 0, 0});
  const GridMoveTable& moves = graph.moves();
  GridPathResult result;
  switch (heuristic) {
    case GridHeuristic::Octile:
      result = search<GridHeuristic::Octile>(moves, s, t, start, goal);
      break;
    case GridHeuristic::Euclidean:
      result = search<GridHeuristic::Euclidean>(moves, s, t, start, goal);
      break;
    case GridHeuristic::Manhattan:
      result = search<GridHeuristic::Manhattan>(moves, s, t, start, goal);
      break;
  }
  if (path != nullptr && result.found()) {
    for (std::uint32_t cell = t;; cell = nodes_[cell].parent) {
      path->push_back(GridCell{static_cast<int>(cell % columns), static_cast<int>(cell / columns)});
      if (cell == s) break;
    }
    std::reverse(path->begin(), path->end());
  }
  return result;
}

}  // namespace crowd
