// A planar scene's geometry for the tools that analyse a crowd's trajectories (PedPy, a GIS):
// the walkable area as one WKT polygon, the area a JuPedSim database carries too, and every part
// of the scene (the walkable area, obstacles, exits, measurement areas and lines) as GeoJSON.
// Coordinates are the scenario's, in metres (the simulator's frame origin added back in double).
#pragma once

#include <string>
#include <vector>

#include <glm/vec2.hpp>

#include <crowd/scenario.hpp>
#include <crowd/simulator.hpp>

namespace crowd {

/// The walkable area: the box round the agents and obstacles, `margin` metres wider on every
/// side, less every solid obstacle polygon (counter-clockwise, three vertices or more) and the
/// polygon drawn round each circle. Wall segments and clockwise boundaries enclose no area and
/// are not holes.
struct WalkableArea {
  std::vector<glm::dvec2> exterior;            ///< Counter-clockwise, the first vertex not repeated.
  std::vector<std::vector<glm::dvec2>> holes;  ///< Clockwise, in the simulator's polygon order.
  /// Whether two holes share a point: the polygon is then invalid to a polygon library until
  /// they are merged (shapely.make_valid).
  bool overlapping = false;
};

WalkableArea walkableArea(const Simulator& sim, double margin = 1.0);

/// `area` as a WKT POLYGON, each ring closed (PedPy: pedpy.WalkableArea(wkt)).
std::string walkableAreaWkt(const WalkableArea& area);

/// A GeoJSON FeatureCollection (RFC 7946; exterior rings counter-clockwise, holes clockwise) of
/// the scene `sim` was made from: one feature per part, its "kind" property saying which:
///  - "walkable_area": walkableArea(sim, margin), a Polygon with holes;
///  - "obstacle": each of the simulator's obstacle polygons, a Polygon ("shape" "solid",
///    "boundary" for a clockwise one that keeps agents inside, or "circle" with its "center" and
///    "radius") or a LineString for a wall segment ("shape" "wall");
///  - "exit": each exit point of the scenario's agents, a Point;
///  - "measurement_area" and "measurement_line": the scenario's "measure", by "name".
/// `scenario` supplies the exits and measurements; the obstacles are the simulator's, as placed.
std::string sceneGeometryGeoJson(const Scenario& scenario, const Simulator& sim, double margin = 1.0);

}  // namespace crowd
