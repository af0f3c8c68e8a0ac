// walkableArea (crowd/scene_geometry.hpp) and walkableAreaWkt (crowd/trajectory.hpp): a planar
// world's walkable area for a JuPedSim database or a geometry file, as PedPy reads it (a WKT
// polygon whose holes are the obstacles).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include <crowd/obstacles.hpp>
#include <crowd/scene_geometry.hpp>
#include <crowd/trajectory.hpp>

namespace crowd {
namespace {

struct WorldPoint {
  double x, y;
};

struct Bounds {
  double minX = std::numeric_limits<double>::infinity();
  double minY = std::numeric_limits<double>::infinity();
  double maxX = -std::numeric_limits<double>::infinity();
  double maxY = -std::numeric_limits<double>::infinity();
  void include(WorldPoint p) {
    minX = std::min(minX, p.x);
    minY = std::min(minY, p.y);
    maxX = std::max(maxX, p.x);
    maxY = std::max(maxY, p.y);
  }
  bool meets(const Bounds& o) const {
    return minX <= o.maxX && o.minX <= maxX && minY <= o.maxY && o.minY <= maxY;
  }
};

double cross(WorldPoint o, WorldPoint a, WorldPoint b) {
  return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

bool segmentsMeet(WorldPoint a, WorldPoint b, WorldPoint c, WorldPoint d) {
  const double d1 = cross(c, d, a), d2 = cross(c, d, b), d3 = cross(a, b, c), d4 = cross(a, b, d);
  return ((d1 > 0) != (d2 > 0) || d1 == 0 || d2 == 0) && ((d3 > 0) != (d4 > 0) || d3 == 0 || d4 == 0) &&
         Bounds{std::min(a.x, b.x), std::min(a.y, b.y), std::max(a.x, b.x), std::max(a.y, b.y)}.meets(
             Bounds{std::min(c.x, d.x), std::min(c.y, d.y), std::max(c.x, d.x), std::max(c.y, d.y)});
}

bool inside(WorldPoint p, const std::vector<WorldPoint>& polygon) {
  bool in = false;
  for (std::size_t i = 0, j = polygon.size() - 1; i < polygon.size(); j = i++) {
    const WorldPoint a = polygon[i], b = polygon[j];
    if ((a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x) in = !in;
  }
  return in;
}

// Whether two polygons share any point: an edge of one meets an edge of the other, or one lies
// inside the other.
bool polygonsOverlap(const std::vector<WorldPoint>& a, const std::vector<WorldPoint>& b) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    for (std::size_t j = 0; j < b.size(); ++j) {
      if (segmentsMeet(a[i], a[(i + 1) % a.size()], b[j], b[(j + 1) % b.size()])) return true;
    }
  }
  return inside(a[0], b) || inside(b[0], a);
}

void appendRing(std::string& wkt, const std::vector<glm::dvec2>& ring) {
  char number[64];
  wkt += '(';
  for (std::size_t i = 0; i <= ring.size(); ++i) {  // Closed: the first point again at the end.
    const glm::dvec2 p = ring[i % ring.size()];
    std::snprintf(number, sizeof number, "%s%.15g %.15g", i == 0 ? "" : ", ", p.x, p.y);
    wkt += number;
  }
  wkt += ')';
}

}  // namespace

WalkableArea walkableArea(const Simulator& sim, double margin) {
  const glm::dvec2 origin = sim.config().origin;
  const auto world = [&](Vec2 p) {
    return WorldPoint{origin.x + static_cast<double>(p.x), origin.y + static_cast<double>(p.y)};
  };
  Bounds all;
  for (const Vec2 p : sim.positions()) all.include(world(p));
  // Solid polygons (counter-clockwise, 3 vertices or more) are the holes, clockwise as OGC
  // draws interior rings.
  const ObstacleSet& obstacles = sim.obstacles();
  std::vector<std::vector<WorldPoint>> holes;
  std::vector<Bounds> holeBounds;
  for (std::size_t p = 0; p < obstacles.polygonCount(); ++p) {
    const auto polygon = obstacles.polygon(p);
    for (const Vec2 v : polygon) all.include(world(v));
    if (polygon.size() < 3 || !(signedArea(polygon) > 0.0f)) continue;
    std::vector<WorldPoint> ring;
    Bounds bounds;
    for (auto v = polygon.rbegin(); v != polygon.rend(); ++v) {
      ring.push_back(world(*v));
      bounds.include(ring.back());
    }
    holes.push_back(std::move(ring));
    holeBounds.push_back(bounds);
  }
  if (!(all.minX <= all.maxX)) all = Bounds{-1.0, -1.0, 1.0, 1.0};  // Nothing in the world yet.
  WalkableArea area;
  area.exterior = {{all.minX - margin, all.minY - margin},
                   {all.maxX + margin, all.minY - margin},
                   {all.maxX + margin, all.maxY + margin},
                   {all.minX - margin, all.maxY + margin}};
  // Sweep along x: only holes whose boxes meet are compared edge by edge.
  std::vector<std::size_t> order(holes.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return holeBounds[a].minX < holeBounds[b].minX; });
  for (std::size_t i = 0; i < order.size() && !area.overlapping; ++i) {
    for (std::size_t j = i + 1; j < order.size() && holeBounds[order[j]].minX <= holeBounds[order[i]].maxX;
         ++j) {
      if (holeBounds[order[i]].meets(holeBounds[order[j]]) &&
          polygonsOverlap(holes[order[i]], holes[order[j]])) {
        area.overlapping = true;
        break;
      }
    }
  }
  for (const std::vector<WorldPoint>& hole : holes) {
    std::vector<glm::dvec2>& ring = area.holes.emplace_back();
    for (const WorldPoint p : hole) ring.emplace_back(p.x, p.y);
  }
  return area;
}

std::string walkableAreaWkt(const WalkableArea& area) {
  std::string wkt = "POLYGON (";
  appendRing(wkt, area.exterior);
  for (const auto& hole : area.holes) {
    wkt += ", ";
    appendRing(wkt, hole);
  }
  wkt += ')';
  return wkt;
}

std::string walkableAreaWkt(const Simulator& sim, double margin, bool* overlapping) {
  const WalkableArea area = walkableArea(sim, margin);
  if (overlapping != nullptr) *overlapping = area.overlapping;
  return walkableAreaWkt(area);
}

}  // namespace crowd
