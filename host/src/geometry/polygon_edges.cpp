#include "geometry/polygon_edges.hpp"

#include <algorithm>
#include <iterator>
#include <numeric>
#include <set>
#include <vector>

#include "geometry/geometry.hpp"

namespace crowd {
namespace {

bool onSegment(Vec2 a, Vec2 b, Vec2 p) {
  return std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= p.y &&
         p.y <= std::max(a.y, b.y);
}

// Whether closed segments a-b and c-d share any point.
bool segmentsTouch(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  const int o1 = orientation(a, b, c);
  const int o2 = orientation(a, b, d);
  const int o3 = orientation(c, d, a);
  const int o4 = orientation(c, d, b);
  if (o1 != o2 && o3 != o4) return true;
  return (o1 == 0 && onSegment(a, b, c)) || (o2 == 0 && onSegment(a, b, d)) ||
         (o3 == 0 && onSegment(c, d, a)) || (o4 == 0 && onSegment(c, d, b));
}

bool pointBefore(Vec2 p, Vec2 q) {
  return p.x < q.x || (p.x == q.x && p.y < q.y);
}

// The edges of one polygon, and the one test every search here applies to a pair of them.
class PolygonEdges {
 public:
  explicit PolygonEdges(std::span<const Vec2> polygon) : polygon_(polygon), boxes_(polygon.size()) {
    for (std::size_t i = 0; i < size(); ++i) {
      const Vec2 a = start(i);
      const Vec2 b = end(i);
      boxes_[i] =
          Box{Point{std::min(a.x, b.x), std::min(a.y, b.y)}, Point{std::max(a.x, b.x), std::max(a.y, b.y)}};
    }
  }

  std::size_t size() const { return polygon_.size(); }
  Vec2 start(std::size_t i) const { return polygon_[i]; }
  Vec2 end(std::size_t i) const { return polygon_[(i + 1) % polygon_.size()]; }
  const Box& box(std::size_t i) const { return boxes_[i]; }

  // Neighbours share a vertex, through the wrap-around too.
  bool neighbours(std::size_t i, std::size_t j) const {
    const std::size_t n = size();
    return j == (i + 1) % n || i == (j + 1) % n;
  }

  bool touch(std::size_t i, std::size_t j) const {
    return i != j && !neighbours(i, j) && boxes_[i].overlaps(boxes_[j]) &&
           segmentsTouch(start(i), end(i), start(j), end(j));
  }

 private:
  std::span<const Vec2> polygon_;
  std::vector<Box> boxes_;
};

// Shamos and Hoey's sweep: a vertical line moves left to right over the edges' end points,
// keeping the edges it crosses ordered from bottom to top. If any two edges touch, the two that
// touch first become neighbours in that order at some point before, so only neighbours need a
// test. Points are taken in (x, y) order, which treats a vertical edge as if tilted a hair
// (its lower end first). At one point, edges ending there leave before edges starting there
// arrive; two edges that only share that end point are then never compared, so vertices that
// coincide are looked for beforehand.
class TouchSweep {
 public:
  explicit TouchSweep(const PolygonEdges& edges) : edges_(edges) {}

  bool findsTouch() {
    const std::size_t n = edges_.size();
    // Two vertices at one point: the edges at them touch there.
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return pointBefore(edges_.start(a), edges_.start(b)); });
    for (std::size_t k = 1; k < n; ++k) {
      if (edges_.start(order[k - 1]) == edges_.start(order[k])) return true;
    }

    struct Event {
      Vec2 point;
      bool leaves;
      std::size_t edge;
    };
    std::vector<Event> events;
    events.reserve(2 * n);
    for (std::size_t i = 0; i < n; ++i) {
      const bool forward = pointBefore(edges_.start(i), edges_.end(i));
      events.push_back(Event{forward ? edges_.start(i) : edges_.end(i), false, i});
      events.push_back(Event{forward ? edges_.end(i) : edges_.start(i), true, i});
    }
    std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
      if (a.point != b.point) return pointBefore(a.point, b.point);
      if (a.leaves != b.leaves) return a.leaves;
      return a.edge < b.edge;
    });

    std::set<std::size_t, Below> crossing(Below{this});
    std::vector<std::set<std::size_t, Below>::iterator> where(n);
    for (const Event& event : events) {
      if (event.leaves) {
        const auto it = where[event.edge];
        if (it != crossing.begin() && std::next(it) != crossing.end() &&
            edges_.touch(*std::prev(it), *std::next(it))) {
          return true;
        }
        crossing.erase(it);
        continue;
      }
      const auto [it, added] = crossing.insert(event.edge);
      // An edge equal to another in the order, or one arriving on another's line, touches it.
      if (!added || arrivedOnAnEdge_) return true;
      where[event.edge] = it;
      if (it != crossing.begin() && edges_.touch(*std::prev(it), event.edge)) return true;
      if (std::next(it) != crossing.end() && edges_.touch(*std::next(it), event.edge)) return true;
    }
    return false;
  }

 private:
  // The left (earlier) and right end of edge i in sweep order.
  Vec2 left(std::size_t i) const {
    return pointBefore(edges_.start(i), edges_.end(i)) ? edges_.start(i) : edges_.end(i);
  }
  Vec2 right(std::size_t i) const {
    return pointBefore(edges_.start(i), edges_.end(i)) ? edges_.end(i) : edges_.start(i);
  }

  // Where edge t lies relative to edge s, both crossed by the sweep line, t arriving now and s
  // no later: +1 above, -1 below.
  int side(std::size_t s, std::size_t t) const {
    const int o = orientation(left(s), right(s), left(t));
    if (o != 0) return o;
    // t starts on s's line, where s is still crossed: on s itself, so they touch, unless they
    // are neighbours starting at their shared vertex. Those part towards their other ends.
    if (!edges_.neighbours(s, t)) arrivedOnAnEdge_ = true;
    const int away = orientation(left(s), right(s), right(t));
    if (away != 0) return away;
    return t > s ? 1 : -1;  // On one line: any fixed order (the touch is already noted).
  }

  struct Below {
    const TouchSweep* sweep;
    bool operator()(std::size_t a, std::size_t b) const {
      if (a == b) return false;
      if (!pointBefore(sweep->left(b), sweep->left(a))) return sweep->side(a, b) > 0;
      return sweep->side(b, a) < 0;
    }
  };

  const PolygonEdges& edges_;
  mutable bool arrivedOnAnEdge_ = false;
};

// Edges binned by bounding box: only edges whose boxes overlap can touch, and two overlapping
// boxes share a cell. Edges are taken in order and for each the lowest-numbered edge it touches
// is kept, which is the first pair a test of every pair in order meets.
std::optional<EdgePair> firstTouchingPairNear(const PolygonEdges& edges) {
  const std::size_t n = edges.size();
  std::vector<Box> boxes(n);
  for (std::size_t i = 0; i < n; ++i) boxes[i] = edges.box(i);
  const SparseGrid grid = binBoxes(boxes, 0.0, 4.0 * static_cast<double>(n));
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t first = n;  // The lowest-numbered edge found touching edge i.
    const CellRange cells = cellRange(grid, boxes[i]);
    for (int y = cells.lo.y; y <= cells.hi.y; ++y) {
      for (int x = cells.lo.x; x <= cells.hi.x; ++x) {
        for (const std::uint32_t candidate : grid.candidates(CellCoord{x, y})) {
          const std::size_t j = candidate;
          // Earlier edges were paired with i in their own turn.
          if (j <= i || j >= first || !boxes[i].overlaps(boxes[j])) continue;
          // Test each pair in one cell only: the one holding the lower-left corner of the
          // boxes' overlap, which both edges are binned in.
          const CellCoord corner = grid.cellOf(
              Point{std::max(boxes[i].min.x, boxes[j].min.x), std::max(boxes[i].min.y, boxes[j].min.y)});
          if (corner.x == x && corner.y == y && edges.touch(i, j)) first = j;
        }
      }
    }
    if (first < n) return EdgePair{i, first};
  }
  return std::nullopt;
}

}  // namespace

int orientation(Vec2 a, Vec2 b, Vec2 c) {
  const double v = (static_cast<double>(b.x) - a.x) * (static_cast<double>(c.y) - a.y) -
                   (static_cast<double>(b.y) - a.y) * (static_cast<double>(c.x) - a.x);
  return (v > 0) - (v < 0);
}

std::optional<EdgePair> firstTouchingEdges(std::span<const Vec2> polygon) {
  const PolygonEdges edges(polygon);
  // Most polygons touch nowhere, which the sweep shows quickly however crowded their edges.
  if (!TouchSweep(edges).findsTouch()) return std::nullopt;
  return firstTouchingPairNear(edges);
}

}  // namespace crowd
