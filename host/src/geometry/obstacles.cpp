#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <crowd/obstacles.hpp>

#include "geometry/geometry.hpp"
#include "geometry/polygon_edges.hpp"
#include "params/number_text.hpp"

namespace crowd {

float signedArea(std::span<const Vec2> vertices) {
  double twiceArea = 0;
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    const Vec2 a = vertices[i];
    const Vec2 b = vertices[(i + 1) % vertices.size()];
    twiceArea += static_cast<double>(a.x) * b.y - static_cast<double>(b.x) * a.y;
  }
  return static_cast<float>(0.5 * twiceArea);
}

std::vector<PolygonRole> polygonRoles(std::span<const std::vector<Vec2>> polygons) {
  std::vector<PolygonRole> roles(polygons.size(), PolygonRole::Wall);
  std::vector<std::size_t> solids;
  std::vector<Box> solidBounds;
  for (std::size_t p = 0; p < polygons.size(); ++p) {
    if (polygons[p].size() < 3) continue;
    const bool counterClockwise = !(signedArea(polygons[p]) < 0.0f);
    roles[p] = counterClockwise ? PolygonRole::Solid : PolygonRole::Boundary;
    if (!counterClockwise) continue;
    solids.push_back(p);
    solidBounds.push_back(boundsOf(polygons[p]));
  }
  for (std::size_t p = 0; p < polygons.size(); ++p) {
    if (roles[p] != PolygonRole::Boundary) continue;
    const Point corner = toPoint(polygons[p].front());
    for (std::size_t k = 0; k < solids.size(); ++k) {
      if (solidBounds[k].contains(corner) && insidePolygon(corner, polygons[solids[k]])) {
        roles[p] = PolygonRole::Hole;
        break;
      }
    }
  }
  return roles;
}

std::string checkPolygon(std::span<const Vec2> vertices) {
  const std::size_t n = vertices.size();
  if (n < 2) return "a polygon needs at least 2 vertices, got " + std::to_string(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(vertices[i].x) || !std::isfinite(vertices[i].y)) {
      return "vertex " + std::to_string(i) + " is not a finite point";
    }
  }
  const std::size_t edgeCount = n == 2 ? 1 : n;
  for (std::size_t i = 0; i < edgeCount; ++i) {
    if (vertices[i] == vertices[(i + 1) % n]) {
      return "vertices " + std::to_string(i) + " and " + std::to_string((i + 1) % n) +
             " coincide (a zero-length edge)";
    }
  }
  if (n == 2) return {};

  bool allCollinear = true;
  for (std::size_t i = 0; i < n && allCollinear; ++i) {
    allCollinear = orientation(vertices[0], vertices[1], vertices[i]) == 0;
  }
  if (allCollinear) return "all vertices lie on one line (a degenerate polygon)";

  // An edge that doubles back along the previous one encloses nothing there.
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 prev = vertices[(i + n - 1) % n];
    const Vec2 cur = vertices[i];
    const Vec2 next = vertices[(i + 1) % n];
    if (orientation(prev, cur, next) == 0 && dot(cur - prev, next - cur) < 0.0f) {
      return "the edges meeting at vertex " + std::to_string(i) + " fold back on each other";
    }
  }
  // Edges that are not neighbours must not touch.
  if (const std::optional<EdgePair> pair = firstTouchingEdges(vertices)) {
    return "edges " + std::to_string(pair->first) + " and " + std::to_string(pair->second) +
           " cross (a self-intersecting polygon)";
  }
  return {};
}

int ObstacleSet::addPolygon(std::span<const Vec2> vertices) {
  if (const std::string problem = checkPolygon(vertices); !problem.empty()) {
    throw std::invalid_argument("obstacle " + std::to_string(polygonStart_.size()) + ": " + problem);
  }
  polygonStart_.push_back(vertices_.size());
  vertices_.insert(vertices_.end(), vertices.begin(), vertices.end());
  return static_cast<int>(polygonStart_.size()) - 1;
}

int ObstacleSet::addCircle(Vec2 center, float radius) {
  if (!isFinite(center) || !std::isfinite(radius) || !(radius > 0.0f)) {
    throw std::invalid_argument("circle " + std::to_string(circles_.size()) +
                                ": needs a finite centre and a radius > 0");
  }
  // A regular polygon around the circle (its edges touch the circle), counter-clockwise: what
  // ORCA keeps agents out of, so no agent ever touches the disc itself.
  std::vector<Vec2> vertices(kCircleSides);
  const double reach = static_cast<double>(radius) / std::cos(std::numbers::pi / kCircleSides);
  // The corners must be floats: a circle reaching past them cannot be drawn.
  constexpr double kLargest = 1e37;
  if (std::fabs(static_cast<double>(center.x)) + reach > kLargest ||
      std::fabs(static_cast<double>(center.y)) + reach > kLargest) {
    throw std::invalid_argument("circle " + std::to_string(circles_.size()) + ": radius " +
                                formatFloat(radius) + " at " + formatVec2(center) +
                                " reaches beyond what floats hold");
  }
  for (int i = 0; i < kCircleSides; ++i) {
    const double angle = 2.0 * std::numbers::pi * i / kCircleSides;
    vertices[static_cast<std::size_t>(i)] = center + Vec2(static_cast<float>(reach * std::cos(angle)),
                                                          static_cast<float>(reach * std::sin(angle)));
  }
  int polygon = -1;
  try {
    polygon = addPolygon(vertices);
  } catch (const std::invalid_argument&) {
    // Floats cannot tell the polygon's corners apart there: a radius far below the spacing of
    // floats at the centre's distance from the origin.
    throw std::invalid_argument("circle " + std::to_string(circles_.size()) + ": radius " +
                                formatFloat(radius) + " is too small to draw at " + formatVec2(center) +
                                " (floats there are further apart than its corners)");
  }
  circles_.push_back(CircleObstacle{center, radius});
  circlePolygon_.push_back(polygon);
  return static_cast<int>(circles_.size()) - 1;
}

std::span<const Vec2> ObstacleSet::polygon(std::size_t p) const {
  const std::size_t begin = polygonStart_.at(p);
  const std::size_t end = p + 1 < polygonStart_.size() ? polygonStart_[p + 1] : vertices_.size();
  return std::span<const Vec2>(vertices_).subspan(begin, end - begin);
}

}  // namespace crowd
