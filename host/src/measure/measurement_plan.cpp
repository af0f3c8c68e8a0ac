// The checks of a measurement plan (checkMeasurementPlan, crowd/measurement.hpp): each problem
// named in a sentence, so that a program can show it as it is.
#include <algorithm>
#include <cmath>
#include <set>
#include <span>
#include <string>
#include <vector>

#include <crowd/measurement.hpp>
#include <crowd/simulator_config.hpp>

#include "geometry/geometry.hpp"
#include "measure/voronoi_raster.hpp"
#include "params/number_text.hpp"

namespace crowd {
namespace {

double orientation(Point a, Point b, Point c) {
  return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

// Whether c, on the line through a and b, lies within their box.
bool withinBox(Point a, Point b, Point c) {
  return std::min(a.x, b.x) <= c.x && c.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= c.y &&
         c.y <= std::max(a.y, b.y);
}

// Whether the closed segments a-b and c-d share a point.
bool segmentsMeet(Point a, Point b, Point c, Point d) {
  const double d1 = orientation(c, d, a);
  const double d2 = orientation(c, d, b);
  const double d3 = orientation(a, b, c);
  const double d4 = orientation(a, b, d);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  return (d1 == 0 && withinBox(c, d, a)) || (d2 == 0 && withinBox(c, d, b)) ||
         (d3 == 0 && withinBox(a, b, c)) || (d4 == 0 && withinBox(a, b, d));
}

std::string quoted(const std::string& name) {
  return "\"" + name + "\"";
}

// The first problem with one area's polygon, or empty.
std::string polygonProblem(const MeasurementArea& area) {
  const std::string what = "measurement area " + quoted(area.name);
  const std::vector<Vec2>& polygon = area.polygon;
  const std::size_t n = polygon.size();
  if (n < 3) return what + " has " + std::to_string(n) + " vertices; a polygon needs at least 3";
  if (n > kMaxAreaVertices) {
    return what + " has " + std::to_string(n) + " vertices, more than " + std::to_string(kMaxAreaVertices);
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (!isFinite(polygon[i])) return what + ": vertex " + std::to_string(i) + " is not finite";
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (polygon[i] == polygon[(i + 1) % n]) {
      return what + ": vertex " + std::to_string((i + 1) % n) + " repeats vertex " + std::to_string(i);
    }
  }
  if (!(polygonArea(polygon) > 0.0)) return what + " has no area (its vertices lie on one line)";
  // Simple: edges meet only their neighbours, at their shared vertex (and do not fold back
  // along them). Quadratic, but areas have few vertices (kMaxAreaVertices).
  const auto edge = [&](std::size_t i) {
    return Segment{toPoint(polygon[i]), toPoint(polygon[(i + 1) % n])};
  };
  for (std::size_t i = 0; i < n; ++i) {
    const Segment e = edge(i);
    const Segment next = edge((i + 1) % n);
    const Point u{e.b.x - e.a.x, e.b.y - e.a.y};
    const Point v{next.b.x - next.a.x, next.b.y - next.a.y};
    if (u.x * v.y - u.y * v.x == 0.0 && u.x * v.x + u.y * v.y < 0.0) {
      return what + " folds back on itself at vertex " + std::to_string((i + 1) % n);
    }
    for (std::size_t j = i + 2; j < n; ++j) {
      if (i == 0 && j == n - 1) continue;  // Neighbours across the closing vertex.
      const Segment f = edge(j);
      if (segmentsMeet(e.a, e.b, f.a, f.b)) {
        return what + " is not simple: edge " + std::to_string(i) + " meets edge " + std::to_string(j);
      }
    }
  }
  return {};
}

}  // namespace

std::string checkMeasurementPlan(const MeasurementPlan& plan) {
  if (!(std::isfinite(plan.interval) && plan.interval > 0.0)) {
    return "measurement interval must be a positive number of seconds, got " + formatNumber(plan.interval);
  }
  if (!(std::isfinite(plan.voronoiCutOff) && plan.voronoiCutOff > 0.0f)) {
    return "voronoiCutOff must be a positive number of metres, got " + formatFloat(plan.voronoiCutOff);
  }
  const float resolution = plan.voronoiResolution;
  if (!(std::isfinite(resolution) && resolution >= kMinVoronoiResolution)) {
    return "voronoiResolution must be at least " + formatFloat(kMinVoronoiResolution) + " m, got " +
           formatFloat(resolution);
  }
  if (resolution > plan.voronoiCutOff / 5.0f) {
    return "voronoiResolution " + formatFloat(resolution) + " m is too coarse for voronoiCutOff " +
           formatFloat(plan.voronoiCutOff) + " m: pixels must be at most a fifth of the cut-off";
  }
  if (plan.threads < 0 || plan.threads > kMaxThreads) {
    return "measurement threads must be 0 to " + std::to_string(kMaxThreads) + ", got " +
           std::to_string(plan.threads);
  }
  std::set<std::string> names;
  for (std::size_t a = 0; a < plan.areas.size(); ++a) {
    const MeasurementArea& area = plan.areas[a];
    if (area.name.empty()) return "measurement area " + std::to_string(a) + " has no name";
    if (!names.insert(area.name).second) return "two measurement areas are named " + quoted(area.name);
    if (std::string problem = polygonProblem(area); !problem.empty()) return problem;
    const double pixelArea = static_cast<double>(resolution) * resolution;
    const double areaPixels = polygonArea(area.polygon) / pixelArea;
    if (areaPixels < kMinAreaPixels) {
      return "measurement area " + quoted(area.name) + " covers only " +
             formatNumber(std::floor(areaPixels)) + " pixels of voronoiResolution " +
             formatFloat(resolution) + " m; it needs at least " + formatNumber(kMinAreaPixels) +
             " (use a finer resolution)";
    }
    const double raster = voronoiRasterPixels(area.polygon, plan.voronoiCutOff, resolution);
    if (raster > kMaxAreaPixels) {
      return "measurement area " + quoted(area.name) + " needs " + formatNumber(raster) +
             " pixels, more than " + formatNumber(kMaxAreaPixels) + ", at voronoiResolution " +
             formatFloat(resolution) +
             " m over its box grown by twice the cut-off (use a coarser resolution, a smaller cut-off or " +
             "smaller areas)";
    }
  }
  names.clear();
  for (std::size_t l = 0; l < plan.lines.size(); ++l) {
    const MeasurementLine& line = plan.lines[l];
    if (line.name.empty()) return "measurement line " + std::to_string(l) + " has no name";
    if (!names.insert(line.name).second) return "two measurement lines are named " + quoted(line.name);
    if (!isFinite(line.from) || !isFinite(line.to)) {
      return "measurement line " + quoted(line.name) + " has an end that is not finite";
    }
    if (line.from == line.to) return "measurement line " + quoted(line.name) + " has zero length";
  }
  return {};
}

}  // namespace crowd
