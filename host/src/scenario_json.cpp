// Reading scenario files: JSON text -> checked Scenario. Every problem is reported as
// "<source>: <JSON pointer>: <problem>" so a user can find the offending value directly.
#include <crowd/scenario.hpp>

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

#include "scenario_internal.hpp"

namespace crowd {
namespace {

using nlohmann::json;
using scenario_detail::GroupSpec;
using scenario_detail::kMaxScenarioAgents;

// Keys that set AgentParams fields, accepted in "agentDefaults", agents and groups.
constexpr std::array<std::string_view, 8> kParamKeys = {
    "radius",       "maxSpeed",    "prefSpeed",       "neighborDist",
    "maxNeighbors", "timeHorizon", "timeHorizonObst", "goalRadius"};
constexpr std::array<std::string_view, 9> kTopKeys = {"name",   "timeStep",      "steps",
                                                      "seed",   "removeArrived", "agentDefaults",
                                                      "agents", "groups",        "obstacles"};
constexpr std::array<std::string_view, 4> kAgentKeys = {"position", "velocity", "goal",
                                                        "prefVelocity"};
// In a circle group "radius" is the circle's; the agents' disc radius is "agentRadius".
constexpr std::array<std::string_view, 5> kCircleKeys = {"type", "count", "radius", "center",
                                                         "agentRadius"};
constexpr std::array<std::string_view, 9> kRectangleKeys = {
    "type", "count", "min", "max", "placement", "goal", "goalOffset", "goalRect", "prefVelocity"};
constexpr std::array<std::string_view, 2> kBoxKeys = {"min", "max"};

std::string formatNumber(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.10g", value);
  return text;
}

std::string formatVec2(Vec2 v) {
  // Appended piece by piece: GCC 12 at -O3 warns falsely (-Wrestrict) on "[" + std::string.
  std::string text = "[";
  text += formatNumber(v.x);
  text += ", ";
  text += formatNumber(v.y);
  text += "]";
  return text;
}

// RFC 6901 escaping, so that a key holding '/' or '~' still gives a pointer that resolves.
std::string childPath(const std::string& path, std::string_view key) {
  std::string out = path + "/";
  for (const char c : key) {
    switch (c) {
      case '~': out += "~0"; break;
      case '/': out += "~1"; break;
      default: out += c;
    }
  }
  return out;
}

std::string childPath(const std::string& path, std::size_t index) {
  return path + "/" + std::to_string(index);
}

std::size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

class ScenarioReader {
 public:
  explicit ScenarioReader(const std::string& source) : source_(source) {}

  Scenario read(const json& root) {
    if (!root.is_object()) fail("", "expected an object at the top level, got " + typeOf(root));
    checkKeys(root, "", {kTopKeys});
    Scenario scenario;
    // Scenario::name says where the scenario came from; the file's "name" is a label for
    // readers of the file, checked but not kept.
    scenario.name = source_;
    if (root.contains("name")) text(root["name"], "/name");
    if (root.contains("timeStep")) {
      scenario.timeStep = floatNumber(root["timeStep"], "/timeStep");
      if (!(scenario.timeStep > 0.0f)) {
        fail("/timeStep", "must be > 0, got " + show(root["timeStep"]));
      }
    }
    if (root.contains("steps")) {
      scenario.steps = integer(root["steps"], "/steps");
      if (scenario.steps < 0) fail("/steps", "must be >= 0, got " + show(root["steps"]));
    }
    if (root.contains("seed")) scenario.seed = unsignedInteger(root["seed"], "/seed");
    if (root.contains("removeArrived")) {
      scenario.removeArrived = boolean(root["removeArrived"], "/removeArrived");
    }
    AgentParams defaults;
    if (root.contains("agentDefaults")) {
      const json& object = objectAt(root["agentDefaults"], "/agentDefaults");
      checkKeys(object, "/agentDefaults", {kParamKeys});
      defaults = applyParams(object, "/agentDefaults", defaults, "radius");
      checkMerged(defaults, "/agentDefaults");
    }
    if (root.contains("agents")) readAgents(root["agents"], defaults, scenario);
    if (root.contains("groups")) {
      for (const GroupSpec& group : readGroups(root["groups"], defaults, scenario.agents.size())) {
        scenario_detail::appendGroup(group, scenario.seed, scenario.agents);
      }
    }
    if (root.contains("obstacles")) readObstacles(root["obstacles"], scenario);
    return scenario;
  }

 private:
  [[noreturn]] void fail(const std::string& path, const std::string& problem) const {
    throw ScenarioError(source_ + ": " + (path.empty() ? "/" : path) + ": " + problem);
  }

  static std::string typeOf(const json& value) { return value.type_name(); }

  // A value as the user wrote it, for "got ..." in messages.
  static std::string show(const json& value) {
    if (value.is_number_float()) return formatNumber(value.get<double>());
    return value.dump();
  }

  // Refuses keys outside the union of `allowedSets`.
  void checkKeys(const json& object, const std::string& path,
                 std::initializer_list<std::span<const std::string_view>> allowedSets) const {
    for (const auto& item : object.items()) {
      const std::string& key = item.key();
      std::string_view closest;
      std::size_t closestDistance = std::numeric_limits<std::size_t>::max();
      bool known = false;
      for (const auto allowed : allowedSets) {
        for (const std::string_view name : allowed) {
          if (name == key) known = true;
          const std::size_t distance = editDistance(key, name);
          if (distance < closestDistance) {
            closestDistance = distance;
            closest = name;
          }
        }
      }
      if (known) continue;
      std::string problem = "unknown key '" + key + "'";
      // Suggest only close matches: two edits, and no more than half the key.
      if (closestDistance <= 2 && 2 * closestDistance <= key.size()) {
        problem += " (did you mean '" + std::string(closest) + "'?)";
      }
      fail(childPath(path, key), problem);
    }
  }

  void requireKey(const json& object, const std::string& path, const char* key) const {
    if (!object.contains(key)) fail(path, std::string("missing required key '") + key + "'");
  }

  const json& objectAt(const json& value, const std::string& path) const {
    if (!value.is_object()) fail(path, "expected an object, got " + typeOf(value));
    return value;
  }

  const json& arrayAt(const json& value, const std::string& path) const {
    if (!value.is_array()) fail(path, "expected an array, got " + typeOf(value));
    return value;
  }

  std::string text(const json& value, const std::string& path) const {
    if (!value.is_string()) fail(path, "expected a string, got " + typeOf(value));
    return value.get<std::string>();
  }

  bool boolean(const json& value, const std::string& path) const {
    if (!value.is_boolean()) fail(path, "expected true or false, got " + typeOf(value));
    return value.get<bool>();
  }

  double number(const json& value, const std::string& path) const {
    if (!value.is_number()) fail(path, "expected a number, got " + typeOf(value));
    const double result = value.get<double>();
    if (!std::isfinite(result)) fail(path, "must be a finite number, got " + show(value));
    return result;
  }

  // Simulation values are 32-bit floats: a double beyond float range would become infinite.
  float floatNumber(const json& value, const std::string& path) const {
    const float result = static_cast<float>(number(value, path));
    if (!std::isfinite(result)) {
      fail(path, "must be a finite number within 32-bit float range, got " + show(value));
    }
    return result;
  }

  std::int64_t integer(const json& value, const std::string& path) const {
    if (value.is_number_unsigned()) {
      const auto result = value.get<std::uint64_t>();
      if (result > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
        fail(path, "is too large, got " + show(value));
      }
      return static_cast<std::int64_t>(result);
    }
    if (value.is_number_integer()) return value.get<std::int64_t>();
    const double result = number(value, path);  // Whole-valued floats such as 1e3 are fine.
    if (result != std::floor(result)) fail(path, "must be an integer, got " + show(value));
    if (std::fabs(result) >= 0x1.0p63) fail(path, "is too large, got " + show(value));
    return static_cast<std::int64_t>(result);
  }

  std::uint64_t unsignedInteger(const json& value, const std::string& path) const {
    if (value.is_number_unsigned()) return value.get<std::uint64_t>();
    if (value.is_number_integer()) fail(path, "must be >= 0, got " + show(value));
    const double result = number(value, path);
    if (result != std::floor(result)) fail(path, "must be an integer, got " + show(value));
    if (result < 0.0) fail(path, "must be >= 0, got " + show(value));
    if (result >= 0x1.0p64) fail(path, "is too large, got " + show(value));
    return static_cast<std::uint64_t>(result);
  }

  Vec2 vector2(const json& value, const std::string& path) const {
    if (!value.is_array() || value.size() != 2) {
      const std::string got = value.is_array()
                                  ? "an array of " + std::to_string(value.size()) + " elements"
                                  : typeOf(value);
      fail(path, "expected an array of 2 numbers [x, y], got " + got);
    }
    return Vec2(floatNumber(value[0], childPath(path, 0)),
                floatNumber(value[1], childPath(path, 1)));
  }

  // A {"min": [x, y], "max": [x, y]} pair, or the "min"/"max" keys of a rectangle group.
  void box(const json& object, const std::string& path, Vec2& min, Vec2& max) const {
    requireKey(object, path, "min");
    requireKey(object, path, "max");
    min = vector2(object["min"], childPath(path, "min"));
    max = vector2(object["max"], childPath(path, "max"));
    if (min.x > max.x || min.y > max.y) {
      fail(childPath(path, "max"), "must be >= min in both coordinates, got min " +
                                       formatVec2(min) + " and max " + formatVec2(max));
    }
  }

  // Overrides the fields of `params` that `object` sets. `radiusKey` names the disc radius.
  AgentParams applyParams(const json& object, const std::string& path, AgentParams params,
                          std::string_view radiusKey) const {
    const auto set = [&](std::string_view key, float& field, bool strictlyPositive) {
      const std::string name(key);
      if (!object.contains(name)) return;
      const std::string at = childPath(path, key);
      field = floatNumber(object[name], at);
      if (strictlyPositive && !(field > 0.0f)) fail(at, "must be > 0, got " + show(object[name]));
      if (!strictlyPositive && field < 0.0f) fail(at, "must be >= 0, got " + show(object[name]));
    };
    set(radiusKey, params.radius, false);
    set("maxSpeed", params.maxSpeed, false);
    set("prefSpeed", params.prefSpeed, false);
    set("neighborDist", params.neighborDist, false);
    set("timeHorizon", params.timeHorizon, true);
    set("timeHorizonObst", params.timeHorizonObst, true);
    if (object.contains("maxNeighbors")) {
      const std::string at = childPath(path, "maxNeighbors");
      const std::int64_t value = integer(object["maxNeighbors"], at);
      if (value < 0 || value > kMaxNeighbors) {
        fail(at, "must be between 0 and " + std::to_string(kMaxNeighbors) + ", got " +
                     std::to_string(value));
      }
      params.maxNeighbors = static_cast<int>(value);
    }
    // Any finite goal radius is allowed: a negative one means "use the agent's radius".
    if (object.contains("goalRadius")) {
      params.goalRadius = floatNumber(object["goalRadius"], childPath(path, "goalRadius"));
    }
    return params;
  }

  void checkMerged(const AgentParams& params, const std::string& path) const {
    if (const std::string problem = checkAgentParams(params); !problem.empty()) fail(path, problem);
  }

  void readAgents(const json& agents, const AgentParams& defaults, Scenario& scenario) const {
    arrayAt(agents, "/agents");
    if (agents.size() > kMaxScenarioAgents) fail("/agents", "too many agents: it will not fit");
    scenario.agents.reserve(agents.size());
    for (std::size_t i = 0; i < agents.size(); ++i) {
      const std::string path = childPath("/agents", i);
      const json& object = objectAt(agents[i], path);
      checkKeys(object, path, {kAgentKeys, kParamKeys});
      requireKey(object, path, "position");
      if (object.contains("goal") && object.contains("prefVelocity")) {
        fail(path, "has both 'goal' and 'prefVelocity'; give at most one");
      }
      AgentDef agent;
      agent.position = vector2(object["position"], path + "/position");
      if (object.contains("velocity")) {
        agent.velocity = vector2(object["velocity"], path + "/velocity");
      }
      if (object.contains("goal")) agent.goal = vector2(object["goal"], path + "/goal");
      if (object.contains("prefVelocity")) {
        agent.prefVelocity = vector2(object["prefVelocity"], path + "/prefVelocity");
      }
      agent.params = applyParams(object, path, defaults, "radius");
      checkMerged(agent.params, path);
      scenario.agents.push_back(agent);
    }
  }

  std::vector<GroupSpec> readGroups(const json& groups, const AgentParams& defaults,
                                    std::size_t agentsSoFar) const {
    arrayAt(groups, "/groups");
    std::vector<GroupSpec> specs;
    std::uint64_t total = agentsSoFar;
    for (std::size_t g = 0; g < groups.size(); ++g) {
      const std::string path = childPath("/groups", g);
      const json& object = objectAt(groups[g], path);
      requireKey(object, path, "type");
      const std::string type = text(object["type"], path + "/type");
      GroupSpec spec;
      spec.stream = g;
      if (type == "circle") {
        readCircle(object, path, defaults, spec);
      } else if (type == "rectangle") {
        readRectangle(object, path, defaults, spec);
      } else {
        fail(path + "/type", "unknown group type '" + type + "' (known: circle, rectangle)");
      }
      // Checked group by group, so the total stays small enough never to overflow.
      if (spec.count > kMaxScenarioAgents - total) {
        fail(path + "/count", "brings the total to " + std::to_string(total + spec.count) +
                                  " agents, more than the " + std::to_string(kMaxScenarioAgents) +
                                  " a scenario can hold: it will not fit in memory");
      }
      total += spec.count;
      specs.push_back(spec);
    }
    return specs;
  }

  std::size_t count(const json& object, const std::string& path) const {
    requireKey(object, path, "count");
    const std::int64_t value = integer(object["count"], path + "/count");
    if (value < 0) fail(path + "/count", "must be >= 0, got " + std::to_string(value));
    return static_cast<std::size_t>(value);
  }

  void readCircle(const json& object, const std::string& path, const AgentParams& defaults,
                  GroupSpec& spec) const {
    checkKeys(object, path, {kCircleKeys, std::span(kParamKeys).subspan(1)});
    spec.shape = GroupSpec::Shape::circle;
    spec.count = count(object, path);
    requireKey(object, path, "radius");
    spec.circleRadius = floatNumber(object["radius"], path + "/radius");
    if (spec.circleRadius < 0.0f) {
      fail(path + "/radius", "must be >= 0, got " + show(object["radius"]));
    }
    if (object.contains("center")) spec.center = vector2(object["center"], path + "/center");
    spec.params = applyParams(object, path, defaults, "agentRadius");
    checkMerged(spec.params, path);
  }

  void readRectangle(const json& object, const std::string& path, const AgentParams& defaults,
                     GroupSpec& spec) const {
    checkKeys(object, path, {kRectangleKeys, kParamKeys});
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
    for (const char* key : {"goal", "goalOffset", "goalRect", "prefVelocity"}) {
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
    }
    spec.params = applyParams(object, path, defaults, "radius");
    checkMerged(spec.params, path);
  }

  void readObstacles(const json& obstacles, Scenario& scenario) const {
    arrayAt(obstacles, "/obstacles");
    for (std::size_t p = 0; p < obstacles.size(); ++p) {
      const std::string path = childPath("/obstacles", p);
      const json& vertices = arrayAt(obstacles[p], path);
      std::vector<Vec2> polygon;
      polygon.reserve(vertices.size());
      for (std::size_t v = 0; v < vertices.size(); ++v) {
        polygon.push_back(vector2(vertices[v], childPath(path, v)));
      }
      if (const std::string problem = checkPolygon(polygon); !problem.empty()) fail(path, problem);
      scenario.obstacles.push_back(std::move(polygon));
    }
  }

  std::string source_;
};

// "[json.exception.parse_error.101] parse error at line 1, column 7: syntax error while parsing
// value - invalid literal; ..." -> "parsing value - invalid literal; ... (line 1, column 7)".
std::string syntaxDetail(const std::string& what) {
  std::string detail = what;
  if (const auto bracket = detail.find("] "); bracket != std::string::npos) {
    detail.erase(0, bracket + 2);
  }
  std::string where;
  if (detail.rfind("parse error at ", 0) == 0) {
    const auto colon = detail.find(": ");
    if (colon != std::string::npos) {
      where = detail.substr(std::string_view("parse error at ").size(),
                            colon - std::string_view("parse error at ").size());
      detail.erase(0, colon + 2);
    }
  }
  if (detail.rfind("syntax error while ", 0) == 0) {
    detail.erase(0, std::strlen("syntax error while "));
  }
  return where.empty() ? detail : detail + " (" + where + ")";
}

}  // namespace

Scenario parseScenario(std::string_view jsonText, const std::string& source) {
  json root;
  try {
    root = json::parse(jsonText.begin(), jsonText.end());
  } catch (const json::parse_error& error) {
    throw ScenarioError(source + ": syntax error at byte " + std::to_string(error.byte) + ": " +
                        syntaxDetail(error.what()));
  } catch (const json::out_of_range& error) {
    // nlohmann refuses numbers such as 1e999 that overflow a double ("number overflow parsing
    // '1e999'") without a position, so look for the number's text.
    const std::string what = error.what();
    const auto open = what.find('\'');
    const auto close = what.rfind('\'');
    if (open != std::string::npos && close > open) {
      const std::string token = what.substr(open + 1, close - open - 1);
      const auto at = jsonText.find(token);
      if (at != std::string_view::npos) {
        throw ScenarioError(source + ": syntax error at byte " + std::to_string(at + 1) +
                            ": number " + token + " is too large (numbers must be finite)");
      }
    }
    throw ScenarioError(source + ": " + syntaxDetail(what));
  } catch (const json::exception& error) {
    throw ScenarioError(source + ": cannot read JSON: " + syntaxDetail(error.what()));
  }
  Scenario scenario = ScenarioReader(source).read(root);
  if (scenario.agents.empty()) scenario.warnings.push_back("no agents");
  addOverlapWarnings(scenario);
  return scenario;
}

Scenario loadScenarioFile(const std::string& path) {
  errno = 0;
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"),
                                                             &std::fclose);
  if (!file) throw ScenarioError(path + ": cannot open: " + std::strerror(errno));
  std::string text;
  char buffer[1 << 16];
  std::size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof buffer, file.get())) > 0) text.append(buffer, got);
  // Reading a directory, for one, opens fine and fails here.
  if (std::ferror(file.get())) throw ScenarioError(path + ": cannot read: " + std::strerror(errno));
  return parseScenario(text, path);
}

}  // namespace crowd
