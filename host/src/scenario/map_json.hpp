// Maps and routes in scenario files: the top-level "map" and "route" and the "exits" of agents
// and rectangle groups. The map is read (and a bad one refused, naming its line and column) as
// the file is read, so that expanding a spec with another seed never reads it again.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <crowd/grid_map.hpp>
#include <crowd/scenario_spec.hpp>

#include "scenario/behavior_json.hpp"

namespace crowd::scenario_detail {

/// "map": a .map file name, or {"file": name | "rows": [text, ...], "cellSize": s, "origin":
/// [x, y]}. A file name is taken relative to the folder of the scenario (values.source()); the
/// file read is stored in `mapFile`.
std::shared_ptr<const GridMap> readScenarioMap(const JsonValueReader& values, const nlohmann::json& value,
                                               std::string& mapFile);

/// "route": {"cornerCutting": bool, "heuristic": name, "radius": r, "clearanceMargin": m}.
RouteSpec readRouteSpec(const JsonValueReader& values, const nlohmann::json& value);

/// "exits": [[x, y], ...], at least one.
std::vector<Vec2> readExits(const JsonValueReader& values, const nlohmann::json& value,
                            const std::string& path);

}  // namespace crowd::scenario_detail
