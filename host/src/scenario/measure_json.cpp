// Reading "measure" (measure_json.hpp) and placing a plan's problems at their keys.
#include "scenario/measure_json.hpp"

#include <array>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include <crowd/limits.hpp>

#include "params/number_text.hpp"
#include "scenario/scenario_paths.hpp"

namespace crowd::scenario_detail {
namespace {

using nlohmann::json;

constexpr std::array<std::string_view, 5> kMeasureKeys = {"interval", "voronoiCutOff", "voronoiResolution",
                                                          "areas", "lines"};
// An area is a "polygon", or the "min" and "max" corners of an axis-aligned rectangle.
constexpr std::array<std::string_view, 4> kAreaKeys = {"name", "polygon", "min", "max"};
constexpr std::array<std::string_view, 3> kLineKeys = {"name", "from", "to"};

// The first coordinate of `point` outside the coordinate limit, placed below `path`.
PlacedProblem coordinateProblem(const std::string& path, Vec2 point) {
  const float coordinates[2] = {point.x, point.y};
  for (std::size_t c = 0; c < 2; ++c) {
    if (const std::string problem = limitProblem(coordinates[c], limits::kCoordinate); !problem.empty()) {
      return {childPath(path, c), problem + ", got " + formatFloat(coordinates[c])};
    }
  }
  return {};
}

// A plan's own settings alone (no areas or lines), so that each area and line can be checked on
// its own and its problem placed at it.
MeasurementPlan settingsOf(const MeasurementPlan& plan) {
  MeasurementPlan settings = plan;
  settings.areas.clear();
  settings.lines.clear();
  return settings;
}

// checkMeasurementPlan's problem with the settings, placed at the key it is about.
PlacedProblem settingsProblem(const MeasurementPlan& plan) {
  const std::string problem = checkMeasurementPlan(settingsOf(plan));
  if (problem.empty()) return {};
  if (!(std::isfinite(plan.interval) && plan.interval > 0.0)) return {"/interval", problem};
  if (!(std::isfinite(plan.voronoiCutOff) && plan.voronoiCutOff > 0.0f)) return {"/voronoiCutOff", problem};
  const float resolution = plan.voronoiResolution;
  if (!(std::isfinite(resolution) && resolution >= kMinVoronoiResolution &&
        resolution <= plan.voronoiCutOff / 5.0f)) {
    return {"/voronoiResolution", problem};
  }
  return {"", problem};  // The threads: not a key of the file, but set by the program that runs it.
}

MeasurementArea readArea(const JsonValueReader& values, const json& value, const std::string& path) {
  const json& object = values.objectAt(value, path);
  values.checkKeys(object, path, {kAreaKeys});
  values.requireKey(object, path, "name");
  MeasurementArea area;
  area.name = values.text(object["name"], childPath(path, "name"));
  const bool corners = object.contains("min") || object.contains("max");
  if (object.contains("polygon")) {
    if (corners) values.fail(path, "has both 'polygon' and 'min'/'max'; give one shape");
    const std::string at = childPath(path, "polygon");
    const json& vertices = values.arrayAt(object["polygon"], at);
    area.polygon.reserve(vertices.size());
    for (std::size_t v = 0; v < vertices.size(); ++v)
      area.polygon.push_back(values.vector2(vertices[v], childPath(at, v)));
    return area;
  }
  if (!corners) {
    values.fail(
        path,
        "needs a shape: \"polygon\": [[x, y], ...], or the corners \"min\": [x, y] and \"max\": [x, y]");
  }
  values.requireKey(object, path, "min");
  values.requireKey(object, path, "max");
  const Vec2 min = values.vector2(object["min"], childPath(path, "min"));
  const Vec2 max = values.vector2(object["max"], childPath(path, "max"));
  // Checked here, where the corners are written: the plan keeps only the polygon.
  for (const auto& [key, corner] : {std::pair{"min", min}, std::pair{"max", max}}) {
    if (const PlacedProblem bad = coordinateProblem(childPath(path, key), corner); !bad.problem.empty()) {
      values.fail(bad.pointer, bad.problem);
    }
  }
  if (!(min.x < max.x && min.y < max.y)) {
    values.fail(childPath(path, "max"), "must be above min in both coordinates, got min " + formatVec2(min) +
                                            " and max " + formatVec2(max));
  }
  area.polygon = {min, Vec2(max.x, min.y), max, Vec2(min.x, max.y)};  // Counter-clockwise.
  return area;
}

MeasurementLine readLine(const JsonValueReader& values, const json& value, const std::string& path) {
  const json& object = values.objectAt(value, path);
  values.checkKeys(object, path, {kLineKeys});
  for (const char* key : {"name", "from", "to"}) values.requireKey(object, path, key);
  MeasurementLine line;
  line.name = values.text(object["name"], childPath(path, "name"));
  line.from = values.vector2(object["from"], childPath(path, "from"));
  line.to = values.vector2(object["to"], childPath(path, "to"));
  return line;
}

}  // namespace

MeasurementPlan readMeasurementPlan(const JsonValueReader& values, const json& value) {
  const std::string path = "/measure";
  const json& object = values.objectAt(value, path);
  values.checkKeys(object, path, {kMeasureKeys});
  MeasurementPlan plan;
  if (object.contains("interval")) plan.interval = values.number(object["interval"], path + "/interval");
  if (object.contains("voronoiCutOff")) {
    plan.voronoiCutOff = values.floatNumber(object["voronoiCutOff"], path + "/voronoiCutOff");
  }
  if (object.contains("voronoiResolution")) {
    plan.voronoiResolution = values.floatNumber(object["voronoiResolution"], path + "/voronoiResolution");
  }
  if (object.contains("areas")) {
    const json& areas = values.arrayAt(object["areas"], path + "/areas");
    for (std::size_t a = 0; a < areas.size(); ++a) {
      plan.areas.push_back(readArea(values, areas[a], childPath(path + "/areas", a)));
    }
  }
  if (object.contains("lines")) {
    const json& lines = values.arrayAt(object["lines"], path + "/lines");
    for (std::size_t l = 0; l < lines.size(); ++l) {
      plan.lines.push_back(readLine(values, lines[l], childPath(path + "/lines", l)));
    }
  }
  return plan;
}

PlacedProblem measurementPlanProblem(const MeasurementPlan& plan) {
  if (plan.areas.empty() && plan.lines.empty()) {
    return {"", "gives no areas and no lines: there is nothing to measure"};
  }
  if (PlacedProblem bad = settingsProblem(plan); !bad.problem.empty()) return bad;
  // Each area and line on its own first, so that a problem is placed at the one that has it.
  MeasurementPlan single = settingsOf(plan);
  for (std::size_t a = 0; a < plan.areas.size(); ++a) {
    const MeasurementArea& area = plan.areas[a];
    const std::string path = childPath("/areas", a);
    if (area.name.empty()) return {path + "/name", "must not be empty"};
    for (std::size_t k = 0; k < a; ++k) {
      if (plan.areas[k].name == area.name) {
        return {path + "/name", "repeats the name of area " + std::to_string(k) + ", \"" + area.name + "\""};
      }
    }
    for (std::size_t v = 0; v < area.polygon.size(); ++v) {
      if (PlacedProblem bad = coordinateProblem(childPath(path + "/polygon", v), area.polygon[v]);
          !bad.problem.empty()) {
        return bad;
      }
    }
    single.areas = {area};
    if (std::string problem = checkMeasurementPlan(single); !problem.empty()) return {path, problem};
  }
  single.areas.clear();
  for (std::size_t l = 0; l < plan.lines.size(); ++l) {
    const MeasurementLine& line = plan.lines[l];
    const std::string path = childPath("/lines", l);
    if (line.name.empty()) return {path + "/name", "must not be empty"};
    for (std::size_t k = 0; k < l; ++k) {
      if (plan.lines[k].name == line.name) {
        return {path + "/name", "repeats the name of line " + std::to_string(k) + ", \"" + line.name + "\""};
      }
    }
    for (const auto& [key, end] : {std::pair{"from", line.from}, std::pair{"to", line.to}}) {
      if (PlacedProblem bad = coordinateProblem(childPath(path, key), end); !bad.problem.empty()) return bad;
    }
    single.lines = {line};
    if (std::string problem = checkMeasurementPlan(single); !problem.empty()) return {path, problem};
  }
  // Whatever the pieces alone could not show.
  if (std::string problem = checkMeasurementPlan(plan); !problem.empty()) return {"", problem};
  return {};
}

}  // namespace crowd::scenario_detail
