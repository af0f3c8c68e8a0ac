// Steering in scenario files: the keys that give agents behaviours ("behavior", "combine",
// "model" or "avoidance" with every field of kModelFields and "densitySpeed", "pursuit", "path" and "loop",
// "target", every field of kBehaviorFields), the local planner ("planner", and "frenet" with the keys of
// kFrenetFields and kFrenetCounts), agent names, and the top-level "paths" and "circles".
//
// The split is the one the rest of the reader keeps: SteeringReader checks shape (types, known
// names, names of targets) and validateScenarioSpec checks values, so a spec built in code is
// checked too. A few values only the reader sees where they are written: "agentDefaults" (the
// spec keeps only merged values) and inline paths (the spec keeps them in its paths list). For
// those the reader runs the validator's own checks (behaviorValueProblem, pathPointsProblem,
// defined in scenario_spec.cpp) and reports them at their place in the file. The settings under
// "frenet" are checked as they are read, key by key, then whole (checkFrenetSettings); the
// validator checks the whole again, through checkBehavior, for specs built in code.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include <crowd/behavior.hpp>
#include <crowd/scenario_spec.hpp>

#include "scenario/json_value_reader.hpp"

namespace crowd::scenario_detail {

/// Keys that set AgentParams fields, accepted in "agentDefaults", agents and groups.
inline constexpr auto kParamKeys = [] {
  std::array<std::string_view, std::size(kAgentParamFields)> keys{};
  for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = kAgentParamFields[i].key;
  return keys;
}();

/// The steering keys of an agent, a group or "agentDefaults" (beside AgentParams' keys).
inline constexpr auto kSteeringKeys = [] {
  constexpr std::string_view kNamed[] = {"behavior", "combine", "avoidance", "pursuit", "path",        "loop",
                                         "target",   "planner", "frenet",    "model",   "densitySpeed"};
  std::array<std::string_view, std::size(kNamed) + std::size(kBehaviorFields) + std::size(kModelFields)>
      keys{};
  std::size_t k = 0;
  for (const std::string_view key : kNamed) keys[k++] = key;
  for (const BehaviorField& field : kBehaviorFields) keys[k++] = field.key;
  for (const ModelField& field : kModelFields) keys[k++] = field.key;
  return keys;
}();

/// What an agent, a group or "agentDefaults" says about steering, merged over the defaults.
struct Steering {
  Behavior behavior;
  std::optional<std::size_t> target;  ///< The targeted agent's number.
};

/// Reads the steering keys of one scenario document, in this order: the top-level "paths" and
/// "circles", the names of the listed agents, "agentDefaults", then each agent and group; and
/// last, finish(). Inline paths are appended to spec.paths after the file's "paths", in the
/// order they are read.
class SteeringReader {
 public:
  SteeringReader(const JsonValueReader& values, ScenarioSpec& spec) : values_(values), spec_(spec) {}

  /// "paths": [ {"points": [[x, y], ...], "loop": false}, ... ].
  void readPaths(const nlohmann::json& paths);
  /// "circles": [ [x, y, radius], ... ].
  void readCircles(const nlohmann::json& circles);
  /// The "name" of every agent listed one by one, so that a target may name an agent listed
  /// after the one targeting it. Names are non-empty and unique.
  void readNames(const nlohmann::json& agents);
  /// The steering keys of "agentDefaults"; each value is checked here, where it is written.
  void readDefaults(const nlohmann::json& object);
  /// The steering keys of `object` at `path`, over the defaults. The object makes the agents
  /// numbered [first, first + count): one that would target itself through the default target
  /// is refused here (an explicit target is validateScenarioSpec's to check), and so is the
  /// frenet planner without a path, at the "planner" key that asks for it or, when that key is
  /// the defaults', at the object.
  Steering read(const nlohmann::json& object, const std::string& path, std::size_t first, std::size_t count);
  /// Once every agent is read: the default target and path must exist.
  void finish(std::uint64_t agentCount) const;

 private:
  Steering readKeys(const nlohmann::json& object, const std::string& path, const Steering& base);
  std::optional<std::size_t> target(const nlohmann::json& value, const std::string& path) const;
  void readBehaviorList(const nlohmann::json& value, const std::string& path, Behavior& behavior) const;
  BehaviorKind behaviorKind(const nlohmann::json& value, const std::string& path) const;
  /// The "frenet" object at `path`: its keys over `settings`, each checked where it is written,
  /// then the whole (checkFrenetSettings) at `path`.
  void readFrenet(const nlohmann::json& value, const std::string& path, FrenetSettings& settings) const;
  /// The "path" key: an index into "paths", or a list of points added to it.
  int pathIndex(const nlohmann::json& object, const std::string& path);

  const JsonValueReader& values_;
  ScenarioSpec& spec_;
  std::map<std::string, std::size_t, std::less<>> names_;  // Agent name -> agent number.
  Steering defaults_;
};

/// A problem with a value and where it lies below the object checked: "/maxForce",
/// "/behavior/1/weight", "" for the object itself. No problem when `problem` is empty.
struct PlacedProblem {
  std::string pointer;
  std::string problem;
};

/// The first of `behavior`'s behaviours and real-valued parameters that breaks a rule or limit
/// (kMaxBehaviors, each kind once, the weight limit, kBehaviorFields' limits), placed as a
/// file's keys write it. The path and the target are the caller's to check. Defined in
/// scenario_spec.cpp.
PlacedProblem behaviorValueProblem(const Behavior& behavior);

/// Why Simulator::addPath would refuse `path`: too few points, a point outside the coordinate
/// limit ("/3/0"), a point repeated by the next ("/4"). Placed below the list of points.
/// Defined in scenario_spec.cpp.
PlacedProblem pathPointsProblem(const PathSpec& path);

}  // namespace crowd::scenario_detail
