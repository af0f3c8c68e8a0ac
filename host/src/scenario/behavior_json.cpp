// Reading the steering keys of a scenario file (see behavior_json.hpp for the split
// between this reader and validateScenarioSpec).
#include "scenario/behavior_json.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "params/number_text.hpp"
#include "scenario/scenario_paths.hpp"

namespace crowd::scenario_detail {
namespace {

using nlohmann::json;

constexpr std::array<std::string_view, 2> kPathKeys = {"points", "loop"};
constexpr std::array<std::string_view, 2> kWeightedKeys = {"name", "weight"};
// Indexed like the enums they name.
constexpr std::array<std::string_view, 2> kCombineNames = {"sum", "priority"};
constexpr auto kModelNames = [] {
  std::array<std::string_view, kAvoidanceModeCount> names{};
  for (int i = 0; i < kAvoidanceModeCount; ++i) names[static_cast<std::size_t>(i)] = kAvoidanceModeNames[i];
  return names;
}();
constexpr std::array<std::string_view, 2> kPlannerNames = {"none", "frenet"};
// The keys of "frenet", from the tables that define them: real-valued settings, then counts.
constexpr auto kFrenetKeys = [] {
  std::array<std::string_view, std::size(kFrenetFields) + std::size(kFrenetCounts)> keys{};
  std::size_t k = 0;
  for (const FrenetField& field : kFrenetFields) keys[k++] = field.key;
  for (const FrenetCountField& field : kFrenetCounts) keys[k++] = field.key;
  return keys;
}();
constexpr auto kBehaviorNameViews = [] {
  std::array<std::string_view, kBehaviorKindCount> names{};
  for (int i = 0; i < kBehaviorKindCount; ++i) names[static_cast<std::size_t>(i)] = kBehaviorNames[i];
  return names;
}();
constexpr auto kPursuitNameViews = [] {
  std::array<std::string_view, kPursuitKindCount> names{};
  for (int i = 0; i < kPursuitKindCount; ++i) names[static_cast<std::size_t>(i)] = kPursuitNames[i];
  return names;
}();

std::string joined(std::span<const std::string_view> names) {
  std::string list;
  for (const std::string_view name : names) list += (list.empty() ? "" : ", ") + std::string(name);
  return list;
}

// The index of the name `value` holds among `names`; refuses any other, listing them.
std::size_t choice(const JsonValueReader& values, const json& value, const std::string& path,
                   const char* what, std::span<const std::string_view> names) {
  const std::string name = values.text(value, path);
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return i;
  }
  const std::string guess = JsonValueReader::didYouMean(name, names);
  values.fail(path,
              "unknown " + std::string(what) + " '" + name + "'" + guess + " (known: " + joined(names) + ")");
}

std::vector<Vec2> pointList(const JsonValueReader& values, const json& value, const std::string& path) {
  values.arrayAt(value, path);
  std::vector<Vec2> points;
  points.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i)
    points.push_back(values.vector2(value[i], childPath(path, i)));
  return points;
}

}  // namespace

void SteeringReader::readPaths(const json& paths) {
  values_.arrayAt(paths, "/paths");
  for (std::size_t p = 0; p < paths.size(); ++p) {
    const std::string at = childPath("/paths", p);
    const json& object = values_.objectAt(paths[p], at);
    values_.checkKeys(object, at, {kPathKeys});
    values_.requireKey(object, at, "points");
    PathSpec path;
    path.points = pointList(values_, object["points"], at + "/points");
    if (object.contains("loop")) path.loop = values_.boolean(object["loop"], at + "/loop");
    spec_.paths.push_back(std::move(path));
  }
}

void SteeringReader::readCircles(const json& circles) {
  values_.arrayAt(circles, "/circles");
  for (std::size_t c = 0; c < circles.size(); ++c) {
    const std::string at = childPath("/circles", c);
    const json& circle = circles[c];
    if (!circle.is_array() || circle.size() != 3) {
      const std::string got = circle.is_array() ? "an array of " + std::to_string(circle.size()) + " elements"
                                                : JsonValueReader::typeOf(circle);
      values_.fail(at, "expected an array of 3 numbers [x, y, radius], got " + got);
    }
    spec_.circles.push_back(CircleSpec{Vec2(values_.floatNumber(circle[0], childPath(at, 0)),
                                            values_.floatNumber(circle[1], childPath(at, 1))),
                                       values_.floatNumber(circle[2], childPath(at, 2))});
  }
}

void SteeringReader::readNames(const json& agents) {
  if (!agents.is_array()) return;  // The agents' reader says what is wrong with it.
  for (std::size_t i = 0; i < agents.size(); ++i) {
    if (!agents[i].is_object() || !agents[i].contains("name")) continue;
    const std::string at = childPath(childPath("/agents", i), "name");
    const std::string name = values_.text(agents[i]["name"], at);
    if (name.empty()) values_.fail(at, "must not be empty");
    const auto [where, added] = names_.emplace(name, i);
    if (!added)
      values_.fail(at, "agent " + std::to_string(where->second) + " is already named '" + name + "'");
  }
}

void SteeringReader::readDefaults(const json& object) {
  defaults_ = readKeys(object, "/agentDefaults", Steering{});
  // The spec keeps only the merged values, so a bad default is reported here, where it is
  // written, even when every agent overrides it.
  if (const PlacedProblem bad = behaviorValueProblem(defaults_.behavior); !bad.problem.empty()) {
    values_.fail("/agentDefaults" + bad.pointer, bad.problem);
  }
}

Steering SteeringReader::read(const json& object, const std::string& path, std::size_t first,
                              std::size_t count) {
  const Steering steering = readKeys(object, path, defaults_);
  // Here rather than in validateScenarioSpec, which cannot tell a planner the defaults gave
  // from one the object asked for.
  if (steering.behavior.planner == LocalPlanner::Frenet && steering.behavior.path == -1) {
    const std::string give = "give \"path\", a number of \"paths\" or a list of points [[x, y], ...]";
    if (object.contains("planner"))
      values_.fail(path + "/planner", "the frenet planner needs a path: " + give);
    values_.fail(path, "has the frenet planner of /agentDefaults/planner but no path: " + give);
  }
  if (!object.contains("target") && steering.target && *steering.target >= first &&
      *steering.target - first < count) {
    values_.fail(path, (count == 1 ? "targets itself"
                                   : "agent " + std::to_string(*steering.target) +
                                         " of this group would target itself") +
                           std::string(" through the default target (/agentDefaults/target); give ") +
                           (count == 1 ? "it" : "the group") + " a \"target\" of its own, or null for none");
  }
  return steering;
}

void SteeringReader::finish(std::uint64_t agentCount) const {
  if (defaults_.target && *defaults_.target >= agentCount) {
    values_.fail("/agentDefaults/target", "agent " + std::to_string(*defaults_.target) +
                                              " does not exist (the scenario has " +
                                              std::to_string(agentCount) + " agents)");
  }
  const int path = defaults_.behavior.path;
  if (path >= 0 && static_cast<std::size_t>(path) >= spec_.paths.size()) {
    values_.fail("/agentDefaults/path", "path " + std::to_string(path) + " does not exist (" +
                                            std::to_string(spec_.paths.size()) + " paths are defined)");
  }
}

Steering SteeringReader::readKeys(const json& object, const std::string& path, const Steering& base) {
  Steering steering = base;
  Behavior& behavior = steering.behavior;
  if (object.contains("behavior")) readBehaviorList(object["behavior"], path + "/behavior", behavior);
  if (object.contains("combine")) {
    behavior.combine = static_cast<CombineRule>(
        choice(values_, object["combine"], path + "/combine", "combine rule", kCombineNames));
  }
  if (object.contains("avoidance") && object.contains("model")) {
    values_.fail(path, "has both 'model' and 'avoidance' (its older name); give one");
  }
  for (const char* key : {"model", "avoidance"}) {
    if (!object.contains(key)) continue;
    behavior.avoidance = static_cast<AvoidanceMode>(
        choice(values_, object[key], path + "/" + key, "motion model", kModelNames));
  }
  for (const ModelField& field : kModelFields) {
    const std::string key(field.key);
    if (object.contains(key))
      behavior.model.*field.value = values_.floatNumber(object[key], childPath(path, key));
  }
  if (object.contains("densitySpeed")) {
    behavior.model.densitySpeed = values_.boolean(object["densitySpeed"], path + "/densitySpeed");
  }
  if (object.contains("pursuit")) {
    behavior.pursuit = static_cast<PursuitKind>(
        choice(values_, object["pursuit"], path + "/pursuit", "pursuit rule", kPursuitNameViews));
  }
  for (const BehaviorField& field : kBehaviorFields) {
    const std::string key(field.key);
    if (object.contains(key)) behavior.*field.value = values_.floatNumber(object[key], childPath(path, key));
  }
  if (object.contains("planner")) {
    behavior.planner = static_cast<LocalPlanner>(
        choice(values_, object["planner"], path + "/planner", "planner", kPlannerNames));
  }
  if (object.contains("frenet")) readFrenet(object["frenet"], path + "/frenet", behavior.frenet);
  if (object.contains("loop") && !(object.contains("path") && object["path"].is_array())) {
    values_.fail(path + "/loop",
                 "'loop' goes with a path given here as a list of points (a path of \"paths\" "
                 "says \"loop\" there)");
  }
  if (object.contains("path")) behavior.path = pathIndex(object, path);
  if (object.contains("target")) steering.target = target(object["target"], path + "/target");
  return steering;
}

std::optional<std::size_t> SteeringReader::target(const json& value, const std::string& path) const {
  if (value.is_null()) return std::nullopt;  // Overrides a default target.
  if (value.is_string()) {
    const std::string name = value.get<std::string>();
    if (const auto found = names_.find(name); found != names_.end()) return found->second;
    if (names_.empty()) {
      values_.fail(path, "no agent is named '" + name + "' (no agent in \"agents\" has a \"name\")");
    }
    std::vector<std::string_view> known;
    for (const auto& named : names_) known.push_back(named.first);
    values_.fail(path, "no agent is named '" + name + "'" + JsonValueReader::didYouMean(name, known));
  }
  if (!value.is_number()) {
    values_.fail(path,
                 "expected an agent number or an agent's \"name\", got " + JsonValueReader::typeOf(value));
  }
  const std::int64_t number = values_.integer(value, path);
  if (number < 0) values_.fail(path, "must be >= 0, got " + std::to_string(number));
  // Whether it exists is validateScenarioSpec's to say; this only keeps it from wrapping round
  // when an agent stores it in a 32-bit id.
  if (static_cast<std::uint64_t>(number) >= limits::kMaxScenarioAgents) {
    values_.fail(path, "agent " + std::to_string(number) + " does not exist (a scenario holds at most " +
                           std::to_string(limits::kMaxScenarioAgents) + " agents)");
  }
  return static_cast<std::size_t>(number);
}

void SteeringReader::readBehaviorList(const json& value, const std::string& path, Behavior& behavior) const {
  behavior.behaviors.clear();
  if (value.is_string()) {
    behavior.behaviors.push_back(WeightedBehavior{behaviorKind(value, path), 1.0f});
    return;
  }
  if (!value.is_array()) {
    values_.fail(path,
                 "expected a behaviour name or a list of behaviours, got " + JsonValueReader::typeOf(value));
  }
  for (std::size_t k = 0; k < value.size(); ++k) {
    const std::string at = childPath(path, k);
    const json& item = value[k];
    if (item.is_string()) {
      behavior.behaviors.push_back(WeightedBehavior{behaviorKind(item, at), 1.0f});
      continue;
    }
    if (!item.is_object()) {
      values_.fail(at, "expected a behaviour name or {\"name\": ..., \"weight\": ...}, got " +
                           JsonValueReader::typeOf(item));
    }
    values_.checkKeys(item, at, {kWeightedKeys});
    values_.requireKey(item, at, "name");
    WeightedBehavior weighted{behaviorKind(item["name"], at + "/name"), 1.0f};
    if (item.contains("weight")) weighted.weight = values_.floatNumber(item["weight"], at + "/weight");
    behavior.behaviors.push_back(weighted);
  }
}

BehaviorKind SteeringReader::behaviorKind(const json& value, const std::string& path) const {
  const std::string name = values_.text(value, path);
  if (const std::optional<BehaviorKind> kind = behaviorKindNamed(name)) return *kind;
  values_.fail(path, "unknown behaviour '" + name + "'" +
                         JsonValueReader::didYouMean(name, kBehaviorNameViews) +
                         " (known: " + behaviorNameList() + ")");
}

void SteeringReader::readFrenet(const json& value, const std::string& path, FrenetSettings& settings) const {
  values_.objectAt(value, path);
  for (const auto& item : value.items()) {
    const std::string& key = item.key();
    if (std::find(kFrenetKeys.begin(), kFrenetKeys.end(), key) != kFrenetKeys.end()) continue;
    // FrenetSettings has these two, but the planner takes them from the agent.
    const char* agentKey = key == "targetSpeed" ? "prefSpeed" : key == "maxSpeed" ? "maxSpeed" : nullptr;
    const std::string known = " (known: " + joined(kFrenetKeys) + ")";
    if (agentKey != nullptr) {
      values_.fail(
          childPath(path, key),
          "'" + key + "' is not a frenet setting: the planner uses the agent's \"" + agentKey + "\"" + known);
    }
    values_.fail(childPath(path, key), "unknown frenet setting '" + key + "'" +
                                           JsonValueReader::didYouMean(key, kFrenetKeys) + known);
  }
  for (const FrenetField& field : kFrenetFields) {
    const std::string key(field.key);
    if (!value.contains(key)) continue;
    const std::string at = childPath(path, key);
    const float number = values_.floatNumber(value[key], at);
    if (!(number >= field.min && number <= field.max)) {
      values_.fail(at, "must be between " + formatFloat(field.min) + " and " + formatFloat(field.max) +
                           ", got " + formatFloat(number));
    }
    settings.*field.value = number;
  }
  for (const FrenetCountField& field : kFrenetCounts) {
    const std::string key(field.key);
    if (!value.contains(key)) continue;
    const std::string at = childPath(path, key);
    // Checked before it is narrowed to an int.
    const std::int64_t count = values_.integer(value[key], at);
    if (count < 1 || count > kMaxFrenetSamples) {
      values_.fail(at,
                   "must be 1 to " + std::to_string(kMaxFrenetSamples) + ", got " + std::to_string(count));
    }
    settings.*field.value = static_cast<int>(count);
  }
  // Each value is in range; what is left is how they go together (minHorizon <= maxHorizon, ...),
  // over the settings this object overrides too.
  if (const std::string problem = checkFrenetSettings(settings); !problem.empty())
    values_.fail(path, problem);
}

int SteeringReader::pathIndex(const json& object, const std::string& path) {
  const std::string at = path + "/path";
  const json& value = object["path"];
  if (value.is_null()) return -1;  // Overrides a default path.
  if (value.is_array()) {
    PathSpec given;
    given.points = pointList(values_, value, at);
    if (object.contains("loop")) given.loop = values_.boolean(object["loop"], path + "/loop");
    // Checked here: in the spec it is one of "paths", which the file does not say.
    if (const PlacedProblem bad = pathPointsProblem(given); !bad.problem.empty()) {
      values_.fail(at + bad.pointer, bad.problem);
    }
    if (spec_.paths.size() >= static_cast<std::size_t>(INT_MAX)) values_.fail(at, "too many paths");
    spec_.paths.push_back(std::move(given));
    return static_cast<int>(spec_.paths.size() - 1);
  }
  if (!value.is_number()) {
    values_.fail(at,
                 "expected a path number (an index into \"paths\") or a list of points [[x, y], ...], got " +
                     JsonValueReader::typeOf(value));
  }
  const std::int64_t index = values_.integer(value, at);
  if (index < 0) values_.fail(at, "must be >= 0, got " + std::to_string(index));
  if (index > INT_MAX) values_.fail(at, "is too large, got " + std::to_string(index));
  return static_cast<int>(index);
}

}  // namespace crowd::scenario_detail
