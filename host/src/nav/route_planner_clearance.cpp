// ClearanceMap: which cells an agent of a given clearance may plan through, exact clear-line
// tests against the blocked squares, and the nearest free cell to a point.
//
// Everything is worked in cell units (world / cellSize, origin at the map's corner), where a
// blocked cell (bx, by) is the square [bx, bx + 1] x [by, by + 1] and a centre is (x + 1/2, y + 1/2).
#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <stdexcept>
#include <unordered_set>
#include <utility>

#include <crowd/grid_astar.hpp>
#include <crowd/route_planner.hpp>

namespace crowd {
namespace {

constexpr double kHalfDiagonal = 0.70710678118654752440;
// Rounding slack on squared distances in cell units: a segment between two cell centres that
// passes a square at exactly the clearance (a straight run beside a wall) must count as clear.
constexpr double kDistSqSlack = 1e-9;

// Squared gap along one axis between a cell centre and a square k cells away (k >= 0): the
// centre lies half a cell inside its own cell, so the gap is k - 1/2, or 0 in the same column.
double axisGapSq(int k) {
  const double gap = k > 0 ? k - 0.5 : 0.0;
  return gap * gap;
}

double pointBoxDistSq(double px, double py, double x0, double y0, double x1, double y1) {
  const double gx = std::max({0.0, x0 - px, px - x1});
  const double gy = std::max({0.0, y0 - py, py - y1});
  return gx * gx + gy * gy;
}

double pointSegmentDistSq(double cx, double cy, double px, double py, double qx, double qy) {
  const double ux = qx - px;
  const double uy = qy - py;
  const double lengthSq = ux * ux + uy * uy;
  double t = lengthSq > 0.0 ? ((cx - px) * ux + (cy - py) * uy) / lengthSq : 0.0;
  t = std::clamp(t, 0.0, 1.0);
  const double dx = px + t * ux - cx;
  const double dy = py + t * uy - cy;
  return dx * dx + dy * dy;
}

// Whether the segment meets the box (Liang-Barsky clipping against the four slabs).
bool segmentMeetsBox(double px, double py, double qx, double qy, double x0, double y0, double x1, double y1) {
  double t0 = 0.0;
  double t1 = 1.0;
  const double d[2] = {qx - px, qy - py};
  const double p[2] = {px, py};
  const double lo[2] = {x0, y0};
  const double hi[2] = {x1, y1};
  for (int axis = 0; axis < 2; ++axis) {
    if (d[axis] == 0.0) {
      if (p[axis] < lo[axis] || p[axis] > hi[axis]) return false;
      continue;
    }
    double enter = (lo[axis] - p[axis]) / d[axis];
    double leave = (hi[axis] - p[axis]) / d[axis];
    if (enter > leave) std::swap(enter, leave);
    t0 = std::max(t0, enter);
    t1 = std::min(t1, leave);
    if (t0 > t1) return false;
  }
  return true;
}

// Squared distance between a segment and a box. Two disjoint convex polygons are closest at a
// vertex of one of them: an end of the segment, or a corner of the box.
double segmentBoxDistSq(double px, double py, double qx, double qy, double x0, double y0, double x1,
                        double y1) {
  if (segmentMeetsBox(px, py, qx, qy, x0, y0, x1, y1)) return 0.0;
  double best = std::min(pointBoxDistSq(px, py, x0, y0, x1, y1), pointBoxDistSq(qx, qy, x0, y0, x1, y1));
  best = std::min(best, pointSegmentDistSq(x0, y0, px, py, qx, qy));
  best = std::min(best, pointSegmentDistSq(x1, y0, px, py, qx, qy));
  best = std::min(best, pointSegmentDistSq(x0, y1, px, py, qx, qy));
  best = std::min(best, pointSegmentDistSq(x1, y1, px, py, qx, qy));
  return best;
}

}  // namespace

ClearanceMap::ClearanceMap(const GridMap& map, float clearance, bool wallAtMapEdge)
    : map_(map), planning_(map.width(), map.height()), clearance_(clearance), wallAtMapEdge_(wallAtMapEdge) {
  if (!std::isfinite(clearance) || clearance < 0.0f) {
    throw std::invalid_argument("a clearance is a finite distance >= 0, got " + std::to_string(clearance));
  }
  if (map.width() == 0 || map.height() == 0) {
    throw std::invalid_argument("routes need a map of at least one cell");
  }
  planning_.setPlacement(map.placement());
  // Beyond the map's width plus height every blocked square is in reach of every cell, so a
  // larger clearance (1e30, say) plans the same, and its cell counts stay integers.
  clearanceCells_ = std::min(static_cast<double>(clearance) / static_cast<double>(map.placement().cellSize),
                             static_cast<double>(map.width()) + static_cast<double>(map.height()) + 2.0);
  // A point of cell (x, y) within the clearance of square (bx, by) has |bx - x| - 1 < clearance.
  window_ = static_cast<int>(std::floor(clearanceCells_)) + 1;

  const int width = map.width();
  const int height = map.height();
  // Exact distances from each centre to the nearest blocked square, as the squared gaps add up
  // per axis and grow with the cell offset: min over rows by of gap(y - by)^2 + gap(x - bx)^2,
  // bx the nearest blocked cell in row by. Only distances under clearance + half a diagonal
  // matter (beyond it a whole cell is clear), so rows and columns are searched that far.
  const int reach = static_cast<int>(std::ceil(clearanceCells_ + kHalfDiagonal + 0.5)) + 1;
  const int far = reach + 1;
  std::vector<int> rowGap(map.cellCount(), far);
  for (int y = 0; y < height; ++y) {
    int* row = rowGap.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(width);
    // Two sweeps give each cell its column distance to the nearest blocked cell in the row.
    int last = wallAtMapEdge ? -1 : -far - 1;
    for (int x = 0; x < width; ++x) {
      if (!map.passable(x, y)) last = x;
      row[x] = std::min(x - last, far);
    }
    last = wallAtMapEdge ? width : width + far + 1;
    for (int x = width - 1; x >= 0; --x) {
      if (!map.passable(x, y)) last = x;
      row[x] = std::min(row[x], last - x);
    }
  }
  const double clearSq = clearanceCells_ * clearanceCells_;
  const double openSq = (clearanceCells_ + kHalfDiagonal) * (clearanceCells_ + kHalfDiagonal);
  zones_.assign(map.cellCount(), kBlocked);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const std::size_t cell = map.index(GridCell{x, y});
      if (!map.passable(x, y)) {
        planning_.setPassable(GridCell{x, y}, false);
        continue;
      }
      double best = std::numeric_limits<double>::infinity();
      for (int j = -reach; j <= reach; ++j) {
        const int yy = y + j;
        int gap = 0;  // A row beyond the edge is all wall.
        if (yy < 0 || yy >= height) {
          if (!wallAtMapEdge) continue;
        } else {
          gap = rowGap[static_cast<std::size_t>(yy) * static_cast<std::size_t>(width) +
                       static_cast<std::size_t>(x)];
          if (gap >= far) continue;
        }
        best = std::min(best, axisGapSq(gap) + axisGapSq(std::abs(j)));
      }
      const Zone zone = best < clearSq ? kInflated : best < openSq ? kNearWall : kOpen;
      zones_[cell] = zone;
      planning_.setPassable(GridCell{x, y}, zone != kInflated);
      if (zone != kInflated) ++freeCells_;
    }
  }
}

bool ClearanceMap::squaresClear(int x0, int x1, int y0, int y1, double px, double py, double qx,
                                double qy) const {
  const double limitSq = clearanceCells_ * clearanceCells_ - kDistSqSlack;
  x0 = std::max(0, x0);
  x1 = std::min(map_.width() - 1, x1);
  y0 = std::max(0, y0);
  y1 = std::min(map_.height() - 1, y1);
  for (int by = y0; by <= y1; ++by) {
    for (int bx = x0; bx <= x1; ++bx) {
      if (zones_[map_.index(GridCell{bx, by})] != kBlocked) continue;
      if (segmentBoxDistSq(px, py, qx, qy, bx, by, bx + 1.0, by + 1.0) < limitSq) return false;
    }
  }
  return true;
}

bool ClearanceMap::clearSegment(double px, double py, double qx, double qy) const {
  if (!std::isfinite(px) || !std::isfinite(py) || !std::isfinite(qx) || !std::isfinite(qy)) return false;
  const int width = map_.width();
  const int height = map_.height();
  // The region clear of the edge is a box, and a segment lies in a box when its ends do.
  const double edge = wallAtMapEdge_ ? clearanceCells_ : 0.0;
  const auto inside = [&](double ux, double uy) {
    return ux >= edge && uy >= edge && ux <= width - edge && uy <= height - edge;
  };
  if (!inside(px, py) || !inside(qx, qy)) return false;

  // Walk the cells the segment crosses (Amanatides and Woo); any point of the segment lies in a
  // visited cell (closed), so checking each one's neighbourhood covers every blocked square that
  // could come within the clearance. Cells with every point clear need no check.
  int x = std::min(static_cast<int>(std::floor(px)), width - 1);
  int y = std::min(static_cast<int>(std::floor(py)), height - 1);
  const int endX = std::min(static_cast<int>(std::floor(qx)), width - 1);
  const int endY = std::min(static_cast<int>(std::floor(qy)), height - 1);
  const double dx = qx - px;
  const double dy = qy - py;
  const int stepX = dx > 0.0 ? 1 : -1;
  const int stepY = dy > 0.0 ? 1 : -1;
  const double inf = std::numeric_limits<double>::infinity();
  const double deltaX = dx != 0.0 ? std::abs(1.0 / dx) : inf;
  const double deltaY = dy != 0.0 ? std::abs(1.0 / dy) : inf;
  double nextX = dx != 0.0 ? ((stepX > 0 ? x + 1.0 : static_cast<double>(x)) - px) / dx : inf;
  double nextY = dy != 0.0 ? ((stepY > 0 ? y + 1.0 : static_cast<double>(y)) - py) / dy : inf;
  // The step count is fixed by the end cells, so rounding in nextX/nextY can only change the
  // order of steps, never loop for ever.
  // A cell's neighbourhood is the window_ cells around it. When the cell before was checked too,
  // only the row or column the step added is new: each square is tested about once.
  const int k = window_;
  bool previousChecked = false;
  bool steppedX = false;
  for (int steps = std::abs(endX - x) + std::abs(endY - y);; --steps) {
    const std::uint8_t zone = zones_[map_.index(GridCell{x, y})];
    if (zone == kBlocked) return false;
    if (zone != kOpen) {
      bool clear;
      if (!previousChecked) {
        clear = squaresClear(x - k, x + k, y - k, y + k, px, py, qx, qy);
      } else if (steppedX) {
        clear = squaresClear(x + stepX * k, x + stepX * k, y - k, y + k, px, py, qx, qy);
      } else {
        clear = squaresClear(x - k, x + k, y + stepY * k, y + stepY * k, px, py, qx, qy);
      }
      if (!clear) return false;
    }
    previousChecked = zone != kOpen;
    if (steps == 0) break;
    steppedX = y == endY || (x != endX && nextX < nextY);
    if (steppedX) {
      x += stepX;
      nextX += deltaX;
    } else {
      y += stepY;
      nextY += deltaY;
    }
  }
  return true;
}

bool ClearanceMap::clearLine(Vec2 a, Vec2 b) const {
  const GridPlacement& place = map_.placement();
  const double scale = 1.0 / static_cast<double>(place.cellSize);
  return clearSegment((a.x - static_cast<double>(place.origin.x)) * scale,
                      (a.y - static_cast<double>(place.origin.y)) * scale,
                      (b.x - static_cast<double>(place.origin.x)) * scale,
                      (b.y - static_cast<double>(place.origin.y)) * scale);
}

bool ClearanceMap::clearLine(GridCell a, GridCell b) const {
  if (!map_.contains(a) || !map_.contains(b)) return false;
  return clearSegment(a.x + 0.5, a.y + 0.5, b.x + 0.5, b.y + 0.5);
}

std::optional<GridCell> ClearanceMap::nearestFree(Vec2 p) const {
  const GridPlacement& place = map_.placement();
  const int width = map_.width();
  const int height = map_.height();
  double ux = (p.x - static_cast<double>(place.origin.x)) / place.cellSize;
  double uy = (p.y - static_cast<double>(place.origin.y)) / place.cellSize;
  if (!std::isfinite(ux) || !std::isfinite(uy)) return std::nullopt;
  // From outside the map, search from the nearest point on it: the ring bound below needs the
  // point inside the base cell.
  ux = std::clamp(ux, 0.0, static_cast<double>(width));
  uy = std::clamp(uy, 0.0, static_cast<double>(height));
  const int baseX = std::min(static_cast<int>(ux), width - 1);
  const int baseY = std::min(static_cast<int>(uy), height - 1);
  std::optional<GridCell> best;
  double bestSq = std::numeric_limits<double>::infinity();
  const auto consider = [&](int x, int y) {
    if (!planning_.passable(x, y)) return;
    const double dx = x + 0.5 - ux;
    const double dy = y + 0.5 - uy;
    const double d = dx * dx + dy * dy;
    if (d < bestSq || (d == bestSq && map_.index(GridCell{x, y}) < map_.index(*best))) {
      bestSq = d;
      best = GridCell{x, y};
    }
  };
  const int maxRing = std::max({baseX, width - 1 - baseX, baseY, height - 1 - baseY});
  for (int r = 0; r <= maxRing; ++r) {
    // Every cell of ring r has its centre at least r - 1/2 from the point along one axis.
    if (best && bestSq < (r - 0.5) * (r - 0.5)) break;
    const int x0 = baseX - r;
    const int x1 = baseX + r;
    for (int x = std::max(x0, 0); x <= std::min(x1, width - 1); ++x) {
      if (baseY - r >= 0) consider(x, baseY - r);
      if (r > 0 && baseY + r < height) consider(x, baseY + r);
    }
    for (int y = std::max(baseY - r + 1, 0); y <= std::min(baseY + r - 1, height - 1); ++y) {
      if (x0 >= 0) consider(x0, y);
      if (r > 0 && x1 < width) consider(x1, y);
    }
  }
  return best;
}

std::optional<GridCell> ClearanceMap::nearestFreeInSight(Vec2 p) const {
  const std::optional<GridCell> own = map_.cellAt(p);
  if (!own || !map_.passable(*own) || freeCells_ == 0) return std::nullopt;
  const GridPlacement& place = map_.placement();
  const double ux = (p.x - static_cast<double>(place.origin.x)) / place.cellSize;
  const double uy = (p.y - static_cast<double>(place.origin.y)) / place.cellSize;
  // Best first over the passable cells by their square's distance to p, 4-connected. The cells
  // a leg from p to a cell in sight crosses form a 4-connected chain of passable cells (where
  // the leg passes a corner, lineOfSight needs both cells beside it), each no further from p
  // than the leg is long: so every cell in sight at centre distance d is reached before the
  // search passes d, and once past the best candidate it can stop.
  using Entry = std::pair<double, std::uint32_t>;  // (squared square distance, cell)
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> open;
  std::unordered_set<std::uint32_t> seen;
  const auto reach = [&](int x, int y) {
    if (!map_.passable(x, y)) return;
    const auto cell = static_cast<std::uint32_t>(map_.index(GridCell{x, y}));
    if (seen.insert(cell).second) open.emplace(pointBoxDistSq(ux, uy, x, y, x + 1.0, y + 1.0), cell);
  };
  reach(own->x, own->y);
  std::optional<GridCell> best;
  double bestSq = std::numeric_limits<double>::infinity();
  while (!open.empty()) {
    const auto [keySq, cell] = open.top();
    open.pop();
    if (keySq > bestSq) break;
    const GridCell c = map_.cellOf(cell);
    if (planning_.passable(c)) {
      const double dx = c.x + 0.5 - ux;
      const double dy = c.y + 0.5 - uy;
      const double d = dx * dx + dy * dy;
      if ((d < bestSq || (d == bestSq && cell < map_.index(*best))) && lineOfSight(map_, p, c)) {
        bestSq = d;
        best = c;
      }
    }
    reach(c.x + 1, c.y);
    reach(c.x - 1, c.y);
    reach(c.x, c.y + 1);
    reach(c.x, c.y - 1);
  }
  return best;
}

}  // namespace crowd
