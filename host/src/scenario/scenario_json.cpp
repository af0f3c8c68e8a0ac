// Reading scenario files: JSON text -> ScenarioSpec. This reader checks the document's shape
// (types, known keys, required keys, one goal spec at most) and the agent defaults, which the
// spec does not keep; validateScenarioSpec then checks every value against the limits. The
// steering keys (behaviours, targets, paths, circles) have their own reader,
// behavior_json.hpp; both read values with JsonValueReader (json_value_reader.hpp). Every
// problem is reported as "<source>: <JSON pointer>: <problem>" so a user can find the
// offending value directly.
#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <crowd/scenario_spec.hpp>

#include "params/number_text.hpp"
#include "scenario/behavior_json.hpp"
#include "scenario/json_document.hpp"
#include "scenario/json_value_reader.hpp"
#include "scenario/map_json.hpp"
#include "scenario/measure_json.hpp"
#include "scenario/population_json.hpp"
#include "scenario/problem_list.hpp"
#include "scenario/scenario_paths.hpp"

namespace crowd {
namespace {

using nlohmann::json;
using scenario_detail::childPath;
using scenario_detail::JsonValueReader;
using scenario_detail::kSteeringKeys;
using scenario_detail::ProblemList;
using scenario_detail::Steering;
using scenario_detail::SteeringReader;

using scenario_detail::kParamKeys;
// Circle groups take every key but the first under its own name (see kCircleKeys).
static_assert(kParamKeys[0] == "radius");
constexpr std::array<std::string_view, 18> kTopKeys = {
    "name",   "timeStep",   "steps",     "seed",    "removeArrived", "agentDefaults",
    "agents", "groups",     "obstacles", "circles", "paths",         "map",
    "route",  "dimensions", "preset",    "measure", "speedZones",    "periodic"};
// "name" lets a "target" refer to the agent (behavior_json.hpp).
constexpr std::array<std::string_view, 7> kAgentKeys = {"position", "velocity", "goal",     "prefVelocity",
                                                        "name",     "exits",    "startTime"};
// In a circle group "radius" is the circle's; the agents' disc radius is "agentRadius".
constexpr std::array<std::string_view, 6> kCircleKeys = {"type",   "count",       "radius",
                                                         "center", "agentRadius", "startTime"};
constexpr std::array<std::string_view, 11> kRectangleKeys = {
    "type",       "count",    "min",          "max",   "placement", "goal",
    "goalOffset", "goalRect", "prefVelocity", "exits", "startTime"};
constexpr std::array<std::string_view, 2> kBoxKeys = {"min", "max"};

}  // namespace

namespace {

// ---- the document --------------------------------------------------------------------------------

std::uint64_t saturatingSum(std::uint64_t a, std::uint64_t b) {
  return b > std::numeric_limits<std::uint64_t>::max() - a ? std::numeric_limits<std::uint64_t>::max()
                                                           : a + b;
}

class ScenarioReader : JsonValueReader {
 public:
  using JsonValueReader::JsonValueReader;

  ScenarioSpec read(const json& root) {
    if (!root.is_object()) fail("", "expected an object at the top level, got " + typeOf(root));
    if (root.contains("dimensions") && readDimensions(*this, root["dimensions"]) == 3) {
      fail("/dimensions", "3: a 3D scenario, which loadScenario3File (crowd/scenario3.hpp) reads");
    }
    // Each key, and each entry of agents, groups and obstacles, is read on its own: what one
    // refuses is kept and the others are still read, so the file is refused with every problem.
    ProblemList problems;
    const auto section = [&](const char* key, auto&& readIt) {
      if (root.contains(key)) problems.attempt([&] { readIt(root[key]); });
    };
    problems.attempt([&] { checkKeys(root, "", {kTopKeys}); });
    ScenarioSpec spec;
    // ScenarioSpec::name says where the scenario came from; the file's "name" is a label for
    // readers of the file, checked but not kept.
    spec.name = source();
    section("name", [&](const json& v) { text(v, "/name"); });
    // A preset sets the defaults that everything below may override.
    AgentParams defaults;
    section("preset", [&](const json& v) {
      const std::string preset = text(v, "/preset");
      if (preset != "pedestrian" && preset != "rvo2") {
        fail("/preset", "unknown preset '" + preset + "' (known: rvo2, the default, and pedestrian)");
      }
      if (preset == "pedestrian") {
        defaults = kPedestrianParams;
        spec.timeStep = kPedestrianTimeStep;
      }
    });
    section("timeStep", [&](const json& v) { spec.timeStep = floatNumber(v, "/timeStep"); });
    section("steps", [&](const json& v) { spec.steps = integer(v, "/steps"); });
    section("seed", [&](const json& v) { spec.seed = unsignedInteger(v, "/seed"); });
    section("removeArrived", [&](const json& v) { spec.removeArrived = boolean(v, "/removeArrived"); });
    // The file's own paths first: paths given inline by agents are numbered after them.
    SteeringReader steering(*this, spec);
    const std::size_t beforeFoundations = problems.count();
    section("paths", [&](const json& v) { steering.readPaths(v); });
    section("circles", [&](const json& v) { steering.readCircles(v); });
    section("agents", [&](const json& v) { steering.readNames(v); });
    section("agentDefaults", [&](const json& v) { readDefaults(v, defaults, steering); });
    // What agents refer to (paths, circles, names, defaults) must be whole before they are read,
    // or their problems would echo through every agent.
    if (problems.count() > beforeFoundations) problems.throwIfAny(source());
    section("agents", [&](const json& v) { readAgents(v, defaults, steering, spec, problems); });
    section("groups", [&](const json& v) { readGroups(v, defaults, steering, spec, problems); });
    section("obstacles", [&](const json& v) { readObstacles(v, spec, problems); });
    section("map",
            [&](const json& v) { spec.map = scenario_detail::readScenarioMap(*this, v, spec.mapFile); });
    section("route", [&](const json& v) { spec.route = scenario_detail::readRouteSpec(*this, v); });
    section("measure", [&](const json& v) { spec.measure = scenario_detail::readMeasurementPlan(*this, v); });
    section("speedZones",
            [&](const json& v) { spec.speedZones = scenario_detail::readSpeedZones(*this, v); });
    section("periodic", [&](const json& v) { spec.periodicX = scenario_detail::readPeriodic(*this, v); });
    problems.throwIfAny(source());
    std::uint64_t agentCount = spec.agents.size();
    for (const GroupSpec& group : spec.groups) agentCount = saturatingSum(agentCount, group.count);
    steering.finish(agentCount);
    return spec;
  }

 private:
  // A {"min": [x, y], "max": [x, y]} pair, or the "min"/"max" keys of a rectangle group.
  void box(const json& object, const std::string& path, Vec2& min, Vec2& max) const {
    requireKey(object, path, "min");
    requireKey(object, path, "max");
    min = vector2(object["min"], childPath(path, "min"));
    max = vector2(object["max"], childPath(path, "max"));
  }

  void readDefaults(const json& value, AgentParams& defaults, SteeringReader& steering) const {
    const json& object = objectAt(value, "/agentDefaults");
    checkKeys(object, "/agentDefaults", {kParamKeys, kSteeringKeys});
    defaults = applyParams(object, "/agentDefaults", defaults, "radius");
    // The spec keeps only the merged values, so a bad default is reported here, where it is
    // written, even when every agent overrides it.
    for (const AgentParamField& field : kAgentParamFields) {
      const std::string problem = checkAgentParam(defaults, field);
      if (!problem.empty()) fail(childPath("/agentDefaults", field.key), problem);
    }
    steering.readDefaults(object);
  }

  void readAgents(const json& agents, const AgentParams& defaults, SteeringReader& steering,
                  ScenarioSpec& spec, ProblemList& problems) const {
    arrayAt(agents, "/agents");
    // Refused before any memory is spent on them.
    if (agents.size() > limits::kMaxScenarioAgents) {
      fail("/agents", "has " + std::to_string(agents.size()) + " agents, more than the " +
                          std::to_string(limits::kMaxScenarioAgents) +
                          " a scenario can hold: they will not fit in memory");
    }
    spec.agents.reserve(agents.size());
    for (std::size_t i = 0; i < agents.size(); ++i) {
      // A refused agent keeps its place, so that the ones after it keep their numbers.
      if (!problems.attempt([&] { readAgent(agents[i], i, defaults, steering, spec); }))
        spec.agents.push_back(AgentDef{});
    }
  }

  void readAgent(const json& value, std::size_t i, const AgentParams& defaults, SteeringReader& steering,
                 ScenarioSpec& spec) const {
    const std::string path = childPath("/agents", i);
    const json& object = objectAt(value, path);
    checkKeys(object, path, {kAgentKeys, kParamKeys, kSteeringKeys});
    requireKey(object, path, "position");
    if (object.contains("goal") && object.contains("prefVelocity")) {
      fail(path, "has both 'goal' and 'prefVelocity'; give at most one");
    }
    for (const char* other : {"goal", "prefVelocity"}) {
      if (object.contains("exits") && object.contains(other)) {
        fail(path, std::string("has both 'exits' and '") + other + "'; give at most one");
      }
    }
    if (object.contains("exits")) {
      spec.exits.push_back(
          ExitSpec{i, 1, scenario_detail::readExits(*this, object["exits"], path + "/exits")});
    }
    AgentDef agent;
    agent.position = vector2(object["position"], path + "/position");
    if (object.contains("velocity")) agent.velocity = vector2(object["velocity"], path + "/velocity");
    if (object.contains("goal")) agent.goal = vector2(object["goal"], path + "/goal");
    if (object.contains("prefVelocity")) {
      agent.prefVelocity = vector2(object["prefVelocity"], path + "/prefVelocity");
    }
    agent.params = applyParams(object, path, defaults, "radius");
    if (object.contains("startTime")) agent.startTime = floatNumber(object["startTime"], path + "/startTime");
    const Steering own = steering.read(object, path, i, 1);
    agent.behavior = own.behavior;
    // By number, as Scenario::agents documents; makeSimulator turns it into an id.
    if (own.target) agent.target = AgentId{static_cast<std::uint32_t>(*own.target), 0};
    spec.agents.push_back(agent);
  }

  void readGroups(const json& groups, const AgentParams& defaults, SteeringReader& steering,
                  ScenarioSpec& spec, ProblemList& problems) const {
    arrayAt(groups, "/groups");
    std::uint64_t first = spec.agents.size();  // The group's first agent number.
    for (std::size_t g = 0; g < groups.size(); ++g) {
      problems.attempt([&] { readGroup(groups[g], g, defaults, steering, spec, first); });
    }
  }

  void readGroup(const json& value, std::size_t g, const AgentParams& defaults, SteeringReader& steering,
                 ScenarioSpec& spec, std::uint64_t& first) const {
    const std::string path = childPath("/groups", g);
    const json& object = objectAt(value, path);
    requireKey(object, path, "type");
    const std::string type = text(object["type"], path + "/type");
    GroupSpec group;
    group.stream = g;
    if (type == "circle") {
      readCircle(object, path, defaults, group);
    } else if (type == "rectangle") {
      readRectangle(object, path, defaults, group);
    } else {
      fail(path + "/type", "unknown group type '" + type + "' (known: circle, rectangle)");
    }
    const Steering shared = steering.read(object, path, first, group.count);
    group.behavior = shared.behavior;
    group.target = shared.target;
    first = saturatingSum(first, group.count);
    spec.groups.push_back(group);
  }

  std::size_t count(const json& object, const std::string& path) const {
    requireKey(object, path, "count");
    const std::int64_t value = integer(object["count"], path + "/count");
    if (value < 0) fail(path + "/count", "must be >= 0, got " + std::to_string(value));
    return static_cast<std::size_t>(value);
  }

  void readCircle(const json& object, const std::string& path, const AgentParams& defaults,
                  GroupSpec& spec) const {
    checkKeys(object, path, {kCircleKeys, std::span(kParamKeys).subspan(1), kSteeringKeys});
    spec.shape = GroupSpec::Shape::circle;
    spec.count = count(object, path);
    requireKey(object, path, "radius");
    spec.circleRadius = floatNumber(object["radius"], path + "/radius");
    if (object.contains("center")) spec.center = vector2(object["center"], path + "/center");
    const json plain = scenario_detail::readGroupPopulation(*this, object, path, "agentRadius", spec);
    spec.params = applyParams(plain, path, defaults, "agentRadius");
  }

  void readRectangle(const json& object, const std::string& path, const AgentParams& defaults,
                     GroupSpec& spec) const {
    checkKeys(object, path, {kRectangleKeys, kParamKeys, kSteeringKeys});
    spec.shape = GroupSpec::Shape::rectangle;
    spec.count = count(object, path);
    box(object, path, spec.min, spec.max);
    if (object.contains("placement")) {
      const std::string placement = text(object["placement"], path + "/placement");
      if (placement != "grid" && placement != "random") {
        fail(path + "/placement", "unknown placement '" + placement + "' (known: grid, random)");
      }
      spec.randomPlacement = placement == "random";
    }
    std::string goalKeys;
    int goalSpecs = 0;
    for (const char* key : {"goal", "goalOffset", "goalRect", "prefVelocity", "exits"}) {
      if (!object.contains(key)) continue;
      goalKeys += (goalSpecs++ == 0 ? "" : ", ") + std::string(key);
    }
    if (goalSpecs > 1) fail(path, "more than one goal spec (" + goalKeys + "); give at most one");
    if (object.contains("goal")) {
      spec.goal = GroupSpec::Goal::point;
      spec.goalVector = vector2(object["goal"], path + "/goal");
    } else if (object.contains("goalOffset")) {
      spec.goal = GroupSpec::Goal::offset;
      spec.goalVector = vector2(object["goalOffset"], path + "/goalOffset");
    } else if (object.contains("goalRect")) {
      spec.goal = GroupSpec::Goal::box;
      const std::string at = path + "/goalRect";
      const json& rect = objectAt(object["goalRect"], at);
      checkKeys(rect, at, {kBoxKeys});
      box(rect, at, spec.goalMin, spec.goalMax);
    } else if (object.contains("prefVelocity")) {
      spec.goal = GroupSpec::Goal::prefVelocity;
      spec.goalVector = vector2(object["prefVelocity"], path + "/prefVelocity");
    } else if (object.contains("exits")) {
      // Goal::none until routed: the exits give each agent its goal (routeScenario).
      spec.exits = scenario_detail::readExits(*this, object["exits"], path + "/exits");
    }
    const json plain = scenario_detail::readGroupPopulation(*this, object, path, "radius", spec);
    spec.params = applyParams(plain, path, defaults, "radius");
  }

  void readObstacles(const json& obstacles, ScenarioSpec& spec, ProblemList& problems) const {
    arrayAt(obstacles, "/obstacles");
    spec.obstacles.reserve(obstacles.size());
    for (std::size_t p = 0; p < obstacles.size(); ++p) {
      problems.attempt([&] {
        const std::string path = childPath("/obstacles", p);
        const json& vertices = arrayAt(obstacles[p], path);
        std::vector<Vec2> polygon;
        polygon.reserve(vertices.size());
        for (std::size_t v = 0; v < vertices.size(); ++v) {
          polygon.push_back(vector2(vertices[v], childPath(path, v)));
        }
        spec.obstacles.push_back(std::move(polygon));
      });
    }
  }
};

}  // namespace

ScenarioSpec parseScenarioSpec(std::string_view jsonText, const std::string& source) {
  // JSON text has no NUL: one means a binary file, and the parser would stop reading there.
  if (const std::size_t nul = jsonText.find('\0'); nul != std::string_view::npos) {
    throw ScenarioError(source + ": byte " + std::to_string(nul + 1) +
                        " is a NUL character; a scenario file is JSON text");
  }
  const json root = scenario_detail::parseJsonDocument(jsonText, source);
  ScenarioSpec spec = ScenarioReader(source).read(root);
  validateScenarioSpec(spec);
  return spec;
}

std::string readScenarioFileText(const std::string& path) {
  return scenario_detail::readScenarioText(path);
}

ScenarioSpec loadScenarioSpec(const std::string& path) {
  return parseScenarioSpec(scenario_detail::readScenarioText(path), path);
}

}  // namespace crowd
