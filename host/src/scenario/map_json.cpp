// Reading "map", "route" and "exits" (map_json.hpp).
#include "scenario/map_json.hpp"

#include <array>
#include <cmath>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <crowd/limits.hpp>

#include "params/number_text.hpp"
#include "scenario/scenario_paths.hpp"

namespace crowd::scenario_detail {
namespace {

using nlohmann::json;

constexpr std::array<std::string_view, 4> kMapKeys = {"file", "rows", "cellSize", "origin"};
constexpr std::array<std::string_view, 8> kRouteKeys = {"cornerCutting",   "heuristic",   "radius",
                                                        "clearanceMargin", "replanAfter", "replanDistance",
                                                        "exitChoice",      "exitHours"};
constexpr std::array<std::string_view, 4> kExitChoiceKeys = {"rule", "exitFlow", "every", "margin"};
constexpr std::array<std::string_view, 3> kExitHoursKeys = {"at", "opens", "closes"};

// "exitChoice": "nearest", "queue", or {"rule": ..., "exitFlow": ..., "every": ..., "margin": ...}.
ExitChoice readExitChoice(const JsonValueReader& values, const json& value, const std::string& path) {
  ExitChoice choice;
  const auto rule = [&](const json& name, const std::string& at) {
    const std::string text = values.text(name, at);
    if (text != "nearest" && text != "queue")
      values.fail(at, "unknown exit choice '" + text + "' (known: nearest, queue)");
    choice.byQueue = text == "queue";
  };
  if (value.is_string()) {
    rule(value, path);
    return choice;
  }
  const json& object = values.objectAt(value, path);
  values.checkKeys(object, path, {kExitChoiceKeys});
  if (object.contains("rule")) rule(object["rule"], path + "/rule");
  if (object.contains("exitFlow"))
    choice.exitFlow = values.floatNumber(object["exitFlow"], path + "/exitFlow");
  if (object.contains("every")) choice.every = values.floatNumber(object["every"], path + "/every");
  if (object.contains("margin")) choice.margin = values.floatNumber(object["margin"], path + "/margin");
  return choice;
}

// "exitHours": [{"at": [x, y], "opens": s, "closes": s}, ...]; either time may be left out.
std::vector<ExitHours> readExitHours(const JsonValueReader& values, const json& value,
                                     const std::string& path) {
  values.arrayAt(value, path);
  std::vector<ExitHours> hours;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const std::string at = childPath(path, i);
    const json& object = values.objectAt(value[i], at);
    values.checkKeys(object, at, {kExitHoursKeys});
    if (!object.contains("at")) values.fail(at, "needs \"at\": the exit [x, y]");
    ExitHours exit;
    exit.at = values.vector2(object["at"], at + "/at");
    if (object.contains("opens")) exit.opens = values.floatNumber(object["opens"], at + "/opens");
    if (object.contains("closes")) exit.closes = values.floatNumber(object["closes"], at + "/closes");
    hours.push_back(exit);
  }
  return hours;
}

// Cells are at most this long a side: the same limit as an agent's radius, so a map drawn at
// any sensible scale fits and its far corner stays well inside float range.
constexpr Limit kCellSize{"the cell size limit", 0.0f, 1e4f};

// A map file named in a scenario is found beside the scenario, wherever the run starts from.
std::string besideScenario(const std::string& scenarioPath, const std::string& file) {
  const std::filesystem::path named(file);
  if (named.is_absolute()) return file;
  return (std::filesystem::path(scenarioPath).parent_path() / named).string();
}

GridMap readRows(const JsonValueReader& values, const json& rows, const std::string& path) {
  values.arrayAt(rows, path);
  std::vector<std::string> text;
  // Over the side limit is refused before the rows are copied.
  if (rows.size() > static_cast<std::size_t>(grid_limits::kMaxSide)) {
    values.fail(path, "has " + std::to_string(rows.size()) + " rows; a map has at most " +
                          std::to_string(grid_limits::kMaxSide) + " (the map size limit)");
  }
  text.reserve(rows.size());
  for (std::size_t r = 0; r < rows.size(); ++r) text.push_back(values.text(rows[r], childPath(path, r)));
  try {
    return GridMap::fromRows(text, values.source());
  } catch (const GridMapError& error) {
    // fromRows numbers rows from 1 as LINE; the pointer numbers them from 0.
    const std::string at =
        error.line() >= 1 ? childPath(path, static_cast<std::size_t>(error.line() - 1)) : path;
    values.fail(at, (error.column() > 0 ? "column " + std::to_string(error.column()) + ": " : std::string()) +
                        error.reason());
  }
}

}  // namespace

std::shared_ptr<const GridMap> readScenarioMap(const JsonValueReader& values, const json& value,
                                               std::string& mapFile) {
  const std::string path = "/map";
  GridMap map;
  GridPlacement placement;
  if (value.is_string()) {
    const std::string file = besideScenario(values.source(), value.get<std::string>());
    mapFile = file;
    try {
      map = GridMap::loadMovingAi(file);
    } catch (const GridMapError& error) {
      values.fail(path, error.what());  // "FILE:LINE:COLUMN: reason".
    }
  } else {
    const json& object = values.objectAt(value, path);
    values.checkKeys(object, path, {kMapKeys});
    if (object.contains("file") == object.contains("rows")) {
      values.fail(path, "give either \"file\" (a Moving AI .map file) or \"rows\" (the map as rows of text)");
    }
    if (object.contains("file")) {
      const std::string file = besideScenario(values.source(), values.text(object["file"], path + "/file"));
      mapFile = file;
      try {
        map = GridMap::loadMovingAi(file);
      } catch (const GridMapError& error) {
        values.fail(path + "/file", error.what());
      }
    } else {
      map = readRows(values, object["rows"], path + "/rows");
    }
    if (object.contains("cellSize")) {
      const std::string at = path + "/cellSize";
      placement.cellSize = values.floatNumber(object["cellSize"], at);
      if (!(placement.cellSize > 0.0f))
        values.fail(at, "must be > 0, got " + formatFloat(placement.cellSize));
      if (const std::string problem = limitProblem(placement.cellSize, kCellSize); !problem.empty()) {
        values.fail(at, problem + ", got " + formatFloat(placement.cellSize));
      }
    }
    if (object.contains("origin")) placement.origin = values.vector2(object["origin"], path + "/origin");
  }
  if (map.width() == 0 || map.height() == 0) values.fail(path, "the map has no cells");
  // Both corners inside the coordinate limit, so every cell, outline and route is too.
  const double farX =
      static_cast<double>(placement.origin.x) + map.width() * static_cast<double>(placement.cellSize);
  const double farY =
      static_cast<double>(placement.origin.y) + map.height() * static_cast<double>(placement.cellSize);
  for (const double coordinate :
       {static_cast<double>(placement.origin.x), static_cast<double>(placement.origin.y), farX, farY}) {
    if (const std::string problem = limitProblem(coordinate, limits::kCoordinate); !problem.empty()) {
      values.fail(path, "reaches " + formatNumber(coordinate) + ": coordinates " + problem);
    }
  }
  map.setPlacement(placement);
  return std::make_shared<const GridMap>(std::move(map));
}

RouteSpec readRouteSpec(const JsonValueReader& values, const json& value) {
  const std::string path = "/route";
  const json& object = values.objectAt(value, path);
  values.checkKeys(object, path, {kRouteKeys});
  RouteSpec route;
  if (object.contains("cornerCutting")) {
    route.planner.cornerCutting = values.boolean(object["cornerCutting"], path + "/cornerCutting");
  }
  if (object.contains("heuristic")) {
    const std::string name = values.text(object["heuristic"], path + "/heuristic");
    if (name == "octile") {
      route.planner.heuristic = GridHeuristic::Octile;
    } else if (name == "euclidean") {
      route.planner.heuristic = GridHeuristic::Euclidean;
    } else if (name == "manhattan") {
      route.planner.heuristic = GridHeuristic::Manhattan;
    } else {
      values.fail(path + "/heuristic",
                  "unknown heuristic '" + name + "' (known: octile, euclidean, manhattan)");
    }
  }
  if (object.contains("radius")) route.radius = values.floatNumber(object["radius"], path + "/radius");
  if (object.contains("clearanceMargin")) {
    route.planner.clearanceMargin = values.floatNumber(object["clearanceMargin"], path + "/clearanceMargin");
  }
  if (object.contains("replanAfter"))
    route.replanAfter = values.floatNumber(object["replanAfter"], path + "/replanAfter");
  if (object.contains("replanDistance")) {
    route.replanDistance = values.floatNumber(object["replanDistance"], path + "/replanDistance");
  }
  if (object.contains("exitChoice"))
    route.exitChoice = readExitChoice(values, object["exitChoice"], path + "/exitChoice");
  if (object.contains("exitHours"))
    route.exitHours = readExitHours(values, object["exitHours"], path + "/exitHours");
  return route;
}

std::vector<Vec2> readExits(const JsonValueReader& values, const json& value, const std::string& path) {
  values.arrayAt(value, path);
  if (value.empty()) values.fail(path, "needs at least one exit [x, y]");
  std::vector<Vec2> exits;
  exits.reserve(value.size());
  for (std::size_t e = 0; e < value.size(); ++e)
    exits.push_back(values.vector2(value[e], childPath(path, e)));
  return exits;
}

}  // namespace crowd::scenario_detail
