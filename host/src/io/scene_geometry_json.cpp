// sceneGeometryGeoJson (crowd/scene_geometry.hpp): a planar scene's parts as GeoJSON features,
// each with a "kind" property, for GIS tools and for drawing a run's trajectories on its plan.
#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <crowd/obstacles.hpp>
#include <crowd/scene_geometry.hpp>

namespace crowd {
namespace {

using nlohmann::json;

// A coordinate to the 15 significant digits the WKT is written with: a float's widening to
// double (0.1f as 0.100000001490116) is not written out to 17 digits in one file and 15 in the other.
double rounded(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.15g", value);
  return std::stod(text);
}

json position(glm::dvec2 p) {
  return json::array({rounded(p.x), rounded(p.y)});
}

double ringArea(const std::vector<glm::dvec2>& ring) {
  double twice = 0.0;
  for (std::size_t i = 0, j = ring.size() - 1; i < ring.size(); j = i++) {
    twice += ring[j].x * ring[i].y - ring[i].x * ring[j].y;
  }
  return 0.5 * twice;
}

// A closed linear ring, turned to `counterClockwise` where it runs the other way.
json linearRing(std::vector<glm::dvec2> ring, bool counterClockwise) {
  if ((ringArea(ring) > 0.0) != counterClockwise) std::reverse(ring.begin(), ring.end());
  json coordinates = json::array();
  for (std::size_t i = 0; i <= ring.size(); ++i) coordinates.push_back(position(ring[i % ring.size()]));
  return coordinates;
}

json feature(const char* kind, json geometry, json properties = json::object()) {
  properties["kind"] = kind;
  return {{"type", "Feature"}, {"geometry", std::move(geometry)}, {"properties", std::move(properties)}};
}

json polygonGeometry(const std::vector<glm::dvec2>& exterior,
                     const std::vector<std::vector<glm::dvec2>>& holes = {}) {
  json rings = json::array({linearRing(exterior, true)});
  for (const std::vector<glm::dvec2>& hole : holes) rings.push_back(linearRing(hole, false));
  return {{"type", "Polygon"}, {"coordinates", std::move(rings)}};
}

json lineGeometry(glm::dvec2 from, glm::dvec2 to) {
  return {{"type", "LineString"}, {"coordinates", json::array({position(from), position(to)})}};
}

glm::dvec2 worldPoint(Vec2 p) {
  return {static_cast<double>(p.x), static_cast<double>(p.y)};
}

// The simulator's obstacles in world coordinates, each polygon with the shape it plays.
void addObstacles(json& features, const Simulator& sim) {
  const glm::dvec2 origin = sim.config().origin;
  const ObstacleSet& obstacles = sim.obstacles();
  std::vector<int> circleOf(obstacles.polygonCount(), -1);
  for (std::size_t c = 0; c < obstacles.circles().size(); ++c) {
    circleOf[static_cast<std::size_t>(obstacles.circlePolygon(c))] = static_cast<int>(c);
  }
  for (std::size_t p = 0; p < obstacles.polygonCount(); ++p) {
    const auto polygon = obstacles.polygon(p);
    std::vector<glm::dvec2> points;
    for (const Vec2 v : polygon) points.push_back(origin + worldPoint(v));
    if (points.size() == 2) {
      features.push_back(feature("obstacle", lineGeometry(points[0], points[1]), {{"shape", "wall"}}));
      continue;
    }
    json properties = {{"shape", crowd::signedArea(polygon) > 0.0f ? "solid" : "boundary"}};
    if (const int c = circleOf[p]; c >= 0) {
      const CircleObstacle& circle = obstacles.circles()[static_cast<std::size_t>(c)];
      properties = {{"shape", "circle"},
                    {"center", position(origin + worldPoint(circle.center))},
                    {"radius", rounded(static_cast<double>(circle.radius))}};
    }
    features.push_back(feature("obstacle", polygonGeometry(points), std::move(properties)));
  }
}

}  // namespace

std::string sceneGeometryGeoJson(const Scenario& scenario, const Simulator& sim, double margin) {
  json features = json::array();
  const WalkableArea area = walkableArea(sim, margin);
  features.push_back(feature("walkable_area", polygonGeometry(area.exterior, area.holes)));
  addObstacles(features, sim);
  // An exit point several agents' sets share is one feature.
  std::vector<Vec2> exits;
  for (const ExitSpec& set : scenario.exits) {
    for (const Vec2 p : set.points) {
      if (std::find(exits.begin(), exits.end(), p) != exits.end()) continue;
      exits.push_back(p);
      features.push_back(feature("exit", {{"type", "Point"}, {"coordinates", position(worldPoint(p))}}));
    }
  }
  if (scenario.measure) {
    for (const MeasurementArea& measured : scenario.measure->areas) {
      std::vector<glm::dvec2> ring;
      for (const Vec2 v : measured.polygon) ring.push_back(worldPoint(v));
      features.push_back(feature("measurement_area", polygonGeometry(ring), {{"name", measured.name}}));
    }
    for (const MeasurementLine& line : scenario.measure->lines) {
      features.push_back(feature("measurement_line", lineGeometry(worldPoint(line.from), worldPoint(line.to)),
                                 {{"name", line.name}}));
    }
  }
  const json doc = {{"type", "FeatureCollection"}, {"features", std::move(features)}};
  return doc.dump(1, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace crowd
