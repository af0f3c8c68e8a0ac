// Reading 3D scenario files (crowd/scenario3.hpp): JSON text -> Scenario3, with the planar
// reader's value checks (JsonValueReader: types, known keys, limits, did-you-mean) and every
// problem reported as "<source>: <JSON pointer>: <problem>".
#include <array>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include <crowd/limits.hpp>
#include <crowd/scenario3.hpp>
#include <crowd/scenario_spec.hpp>

#include "scenario/behavior_json.hpp"
#include "scenario/group_generation_3d.hpp"
#include "scenario/json_document.hpp"
#include "scenario/problem_list.hpp"
#include "scenario/risks.hpp"
#include "scenario/scenario_paths.hpp"

namespace crowd {
namespace {

using nlohmann::json;
using scenario_detail::BoxGoal;
using scenario_detail::childPath;
using scenario_detail::JsonValueReader;
using scenario_detail::kParamKeys;
using scenario_detail::ProblemList;
using scenario_detail::Steering;

constexpr std::array<std::string_view, 9> kTopKeys = {
    "dimensions", "name", "timeStep", "steps", "seed", "removeArrived", "agentDefaults", "agents", "groups"};
// Planar keys a 3D file may not have, and why.
constexpr std::array<std::string_view, 5> kPlanarOnlyKeys = {"obstacles", "circles", "paths", "map", "route"};
// "name" lets a "target" refer to the agent.
constexpr std::array<std::string_view, 5> kAgentKeys = {"position", "velocity", "goal", "prefVelocity",
                                                        "name"};
constexpr std::array<std::string_view, 5> kSphereKeys = {"type", "count", "radius", "center", "agentRadius"};
constexpr std::array<std::string_view, 9> kBoxKeys = {
    "type", "goal", "goalOffset", "goalBox", "prefVelocity", "count", "min", "max", "placement"};
constexpr std::array<std::string_view, 2> kMinMaxKeys = {"min", "max"};

class Scenario3Reader : JsonValueReader {
 public:
  Scenario3Reader(std::string source, std::optional<std::uint64_t> seed)
      : JsonValueReader(std::move(source)), steering_(*this, planar_), seedOverride_(seed) {}

  Scenario3 read(const json& root) {
    if (!root.is_object()) fail("", "expected an object at the top level, got " + typeOf(root));
    refuseUnsupported(root, "");
    if (root.contains("measure")) {
      fail("/measure", "measurement areas and lines are planar; a 3D scenario cannot give them (yet)");
    }
    checkKeys(root, "", {kTopKeys});
    requireKey(root, "", "dimensions");
    if (scenario_detail::readDimensions(*this, root["dimensions"]) != 3) {
      fail("/dimensions", "2: a planar scenario, which loadScenarioFile (crowd/scenario.hpp) reads");
    }
    Scenario3 scenario;
    scenario.name = source();
    // As the planar reader: each key and each agent or group on its own, every problem reported.
    ProblemList problems;
    problems.attempt([&] {
      if (root.contains("name")) text(root["name"], "/name");
    });
    problems.attempt([&] {
      if (root.contains("timeStep")) scenario.timeStep = floatNumber(root["timeStep"], "/timeStep");
      if (const std::string problem = checkLimit(scenario.timeStep, limits::kTimeStep, "timeStep");
          !problem.empty()) {
        fail("/timeStep", problem);
      }
    });
    problems.attempt([&] {
      if (root.contains("steps")) scenario.steps = integer(root["steps"], "/steps");
      if (scenario.steps < 0) fail("/steps", "must be >= 0, got " + std::to_string(scenario.steps));
    });
    problems.attempt([&] {
      if (root.contains("seed")) scenario.seed = unsignedInteger(root["seed"], "/seed");
    });
    if (seedOverride_) scenario.seed = *seedOverride_;
    problems.attempt([&] {
      if (root.contains("removeArrived"))
        scenario.removeArrived = boolean(root["removeArrived"], "/removeArrived");
    });
    AgentParams defaults;
    const std::size_t beforeFoundations = problems.count();
    problems.attempt([&] {
      if (!root.contains("agentDefaults")) return;
      const json& object = objectAt(root["agentDefaults"], "/agentDefaults");
      defaults = readParams(object, "/agentDefaults", {}, "radius", {});
      steering_.readDefaults(object);
    });
    // A target may name an agent listed after its pursuer: the names first, whole.
    if (root.contains("agents")) problems.attempt([&] { steering_.readNames(root["agents"]); });
    // What agents refer to must be whole before they are read, or its problems would echo
    // through every agent.
    if (problems.count() > beforeFoundations) problems.throwIfAny(source());
    if (root.contains("agents"))
      problems.attempt([&] { readAgents(root["agents"], defaults, scenario, problems); });
    if (root.contains("groups"))
      problems.attempt([&] { readGroups(root["groups"], defaults, scenario, problems); });
    problems.throwIfAny(source());
    steering_.finish(scenario.agents.size());
    for (std::size_t i = 0; i < scenario.agents.size(); ++i) {
      const std::optional<AgentId> target = scenario.agents[i].target;
      if (target && target->index >= scenario.agents.size()) {
        fail("", "agent " + std::to_string(i) + " targets agent " + std::to_string(target->index) +
                     ", but there are " + std::to_string(scenario.agents.size()) + " agents");
      }
    }
    addScenario3Warnings(scenario);
    return scenario;
  }

 private:
  // Keys of planar scenarios that name what a 3D world lacks: a clearer message than "unknown".
  void refuseUnsupported(const json& object, const std::string& path) const {
    for (const std::string_view key : kPlanarOnlyKeys) {
      if (object.contains(std::string(key))) {
        fail(childPath(path, key), "a 3D scenario has no obstacles, paths or maps (yet)");
      }
    }
    for (const char* key : {"path", "loop", "planner", "frenet"}) {
      if (object.contains(key)) fail(childPath(path, key), "3D agents have no paths or planners (yet)");
    }
    if (object.contains("timeHorizonObst")) {
      fail(childPath(path, "timeHorizonObst"), "a 3D scenario has no obstacles, so no obstacle time horizon");
    }
  }

  // The AgentParams an object sets over `params`, each checked against its limit.
  AgentParams readParams(const json& object, const std::string& path,
                         std::span<const std::string_view> ownKeys, std::string_view radiusKey,
                         AgentParams params) const {
    refuseUnsupported(object, path);
    checkKeys(object, path,
              {ownKeys, std::span(kParamKeys).subspan(radiusKey == "radius" ? 0 : 1),
               scenario_detail::kSteeringKeys});
    params = applyParams(object, path, params, radiusKey);
    for (const AgentParamField& field : kAgentParamFields) {
      const std::string problem = checkAgentParam(params, field);
      const std::string key(field.real == &AgentParams::radius ? radiusKey : field.key);
      if (!problem.empty()) fail(object.contains(key) ? childPath(path, key) : path, problem);
    }
    return params;
  }

  Vec3 point(const json& value, const std::string& path) const {
    const Vec3 p = vector3(value, path);
    if (const std::string problem = checkCoordinate(p, "value"); !problem.empty()) fail(path, problem);
    return p;
  }

  Vec3 velocity(const json& value, const std::string& path) const {
    const Vec3 v = vector3(value, path);
    if (const std::string problem = checkVelocity(v, "value"); !problem.empty()) fail(path, problem);
    return v;
  }

  void reserve(Scenario3& scenario, std::uint64_t more, const std::string& path) const {
    if (more > limits::kMaxScenarioAgents - scenario.agents.size()) {
      fail(path, "makes more than the " + std::to_string(limits::kMaxScenarioAgents) +
                     " agents a scenario can hold: they will not fit in memory");
    }
    // Before a byte of them is generated.
    checkMemoryFor(scenario.agents.size() + more, source(), bytesPerAgentEstimate3());
    scenario.agents.reserve(scenario.agents.size() + more);
  }

  void readAgents(const json& agents, const AgentParams& defaults, Scenario3& scenario,
                  ProblemList& problems) {
    arrayAt(agents, "/agents");
    reserve(scenario, agents.size(), "/agents");
    for (std::size_t i = 0; i < agents.size(); ++i) {
      // A refused agent keeps its place, so that the ones after it keep their numbers.
      if (!problems.attempt([&] { readAgent(agents[i], i, defaults, scenario); }))
        scenario.agents.push_back(AgentDef3{});
    }
  }

  void readAgent(const json& value, std::size_t i, const AgentParams& defaults, Scenario3& scenario) {
    const std::string path = childPath("/agents", i);
    const json& object = objectAt(value, path);
    AgentDef3 agent;
    agent.params = readParams(object, path, kAgentKeys, "radius", defaults);
    const Steering own = steering(object, path, i, 1);
    if (own.target == i) fail(path + "/target", "an agent cannot target itself");
    agent.behavior = own.behavior;
    if (own.target) agent.target = AgentId{static_cast<std::uint32_t>(*own.target), 0};
    requireKey(object, path, "position");
    if (object.contains("goal") && object.contains("prefVelocity")) {
      fail(path, "has both 'goal' and 'prefVelocity'; give at most one");
    }
    agent.position = point(object["position"], path + "/position");
    if (object.contains("velocity")) agent.velocity = velocity(object["velocity"], path + "/velocity");
    if (object.contains("goal")) agent.goal = point(object["goal"], path + "/goal");
    if (object.contains("prefVelocity"))
      agent.prefVelocity = velocity(object["prefVelocity"], path + "/prefVelocity");
    scenario.agents.push_back(agent);
  }

  // The steering keys over the defaults (the planar reader's), checked for a 3D world, for the
  // `count` agents numbered from `first`; a target is kept by agent number (makeSimulator3).
  Steering steering(const json& object, const std::string& path, std::size_t first, std::size_t count) {
    const Steering steering = steering_.read(object, path, first, count);
    if (const std::string problem = checkBehavior3(steering.behavior); !problem.empty()) {
      fail(object.contains("behavior") ? path + "/behavior" : path, problem);
    }
    return steering;
  }

  void setSteering(Scenario3& scenario, std::size_t first, const Steering& steering,
                   const std::string& path) const {
    if (steering.target && *steering.target >= first && *steering.target < scenario.agents.size()) {
      fail(path + "/target", "agent " + std::to_string(*steering.target) +
                                 " is one of the group's own agents: an agent cannot target itself");
    }
    for (std::size_t i = first; i < scenario.agents.size(); ++i) {
      scenario.agents[i].behavior = steering.behavior;
      if (steering.target)
        scenario.agents[i].target = AgentId{static_cast<std::uint32_t>(*steering.target), 0};
    }
  }

  std::size_t count(const json& object, const std::string& path) const {
    requireKey(object, path, "count");
    const std::int64_t value = integer(object["count"], path + "/count");
    if (value < 0) fail(path + "/count", "must be >= 0, got " + std::to_string(value));
    return static_cast<std::size_t>(value);
  }

  void readGroups(const json& groups, const AgentParams& defaults, Scenario3& scenario,
                  ProblemList& problems) {
    arrayAt(groups, "/groups");
    for (std::size_t g = 0; g < groups.size(); ++g)
      problems.attempt([&] { readGroup(groups[g], g, defaults, scenario); });
  }

  void readGroup(const json& value, std::size_t g, const AgentParams& defaults, Scenario3& scenario) {
    const std::string path = childPath("/groups", g);
    const json& object = objectAt(value, path);
    requireKey(object, path, "type");
    const std::string type = text(object["type"], path + "/type");
    if (type == "sphere") {
      readSphere(object, path, defaults, scenario);
    } else if (type == "box") {
      readBox(object, path, defaults, g, scenario);
    } else {
      fail(path + "/type", "unknown 3D group type '" + type + "' (known: sphere, box)");
    }
  }

  void readSphere(const json& object, const std::string& path, const AgentParams& defaults,
                  Scenario3& scenario) {
    const AgentParams params = readParams(object, path, kSphereKeys, "agentRadius", defaults);
    const std::size_t n = count(object, path);
    requireKey(object, path, "radius");
    const float radius = floatNumber(object["radius"], path + "/radius");
    if (const std::string problem = checkLimit(radius, limits::kCoordinate, "radius");
        !problem.empty() || radius < 0.0f) {
      fail(path + "/radius", problem.empty() ? "must be >= 0, got " + std::to_string(radius) : problem);
    }
    if (radius == 0.0f && n > 1)
      fail(path + "/radius", "is 0: every agent of the group would start on one point");
    const Vec3 center = object.contains("center") ? point(object["center"], path + "/center") : Vec3(0.0f);
    if (!checkCoordinate(center + Vec3(radius), "").empty() ||
        !checkCoordinate(center - Vec3(radius), "").empty()) {
      fail(path, "the sphere reaches past the coordinate limit (" + formatLimit() + ")");
    }
    reserve(scenario, n, path + "/count");
    const std::size_t first = scenario.agents.size();
    scenario_detail::addSphereGroup(scenario.agents, n, radius, center, params);
    setSteering(scenario, first, steering(object, path, first, n), path);
  }

  void readBox(const json& object, const std::string& path, const AgentParams& defaults, std::size_t g,
               Scenario3& scenario) {
    const AgentParams params = readParams(object, path, kBoxKeys, "radius", defaults);
    const std::size_t n = count(object, path);
    Vec3 min, max;
    minMax(object, path, min, max);
    bool random = false;
    if (object.contains("placement")) {
      const std::string placement = text(object["placement"], path + "/placement");
      if (placement != "grid" && placement != "random") {
        fail(path + "/placement", "unknown placement '" + placement + "' (known: grid, random)");
      }
      random = placement == "random";
    }
    int goals = 0;
    for (const char* key : {"goal", "goalOffset", "goalBox", "prefVelocity"})
      goals += object.contains(key) ? 1 : 0;
    if (goals > 1) fail(path, "more than one of goal, goalOffset, goalBox, prefVelocity; give at most one");
    BoxGoal goal = BoxGoal::none;
    Vec3 vector(0.0f), goalMin(0.0f), goalMax(0.0f);
    if (object.contains("goal")) {
      goal = BoxGoal::point;
      vector = point(object["goal"], path + "/goal");
    } else if (object.contains("goalOffset")) {
      goal = BoxGoal::offset;
      vector = vector3(object["goalOffset"], path + "/goalOffset");
      if (!checkCoordinate(min + vector, "").empty() || !checkCoordinate(max + vector, "").empty()) {
        fail(path + "/goalOffset", "takes goals past the coordinate limit (" + formatLimit() + ")");
      }
    } else if (object.contains("goalBox")) {
      goal = BoxGoal::box;
      const json& box = objectAt(object["goalBox"], path + "/goalBox");
      checkKeys(box, path + "/goalBox", {kMinMaxKeys});
      minMax(box, path + "/goalBox", goalMin, goalMax);
    } else if (object.contains("prefVelocity")) {
      goal = BoxGoal::prefVelocity;
      vector = velocity(object["prefVelocity"], path + "/prefVelocity");
    }
    reserve(scenario, n, path + "/count");
    scenario_detail::ScenarioRandom draws(scenario.seed, g);
    const std::size_t first = scenario.agents.size();
    scenario_detail::addBoxGroup(scenario.agents, n, min, max, random, goal, vector, goalMin, goalMax, params,
                                 draws);
    setSteering(scenario, first, steering(object, path, first, n), path);
  }

  void minMax(const json& object, const std::string& path, Vec3& min, Vec3& max) const {
    requireKey(object, path, "min");
    requireKey(object, path, "max");
    min = point(object["min"], path + "/min");
    max = point(object["max"], path + "/max");
    if (min.x > max.x || min.y > max.y || min.z > max.z) fail(path, "needs min <= max in x, y and z");
  }

  static std::string formatLimit() {
    return "+-" + std::to_string(static_cast<long long>(limits::kCoordinate.max));
  }

  ScenarioSpec planar_;  // Where the planar steering reader keeps paths: a 3D world has none.
  scenario_detail::SteeringReader steering_;
  std::optional<std::uint64_t> seedOverride_;
};

// Finds a document's top-level "dimensions" without building the document, stopping there: what
// a file is (a planar or a 3D scenario) is asked before it is read in full.
class DimensionsScan : public nlohmann::json_sax<json> {
 public:
  enum class Found { Nothing, Two, Three, Other };
  Found found = Found::Nothing;

  bool null() override { return value(Found::Other); }
  bool boolean(bool) override { return value(Found::Other); }
  bool number_integer(number_integer_t v) override {
    return value(v == 2 ? Found::Two : v == 3 ? Found::Three : Found::Other);
  }
  bool number_unsigned(number_unsigned_t v) override {
    return value(v == 2 ? Found::Two : v == 3 ? Found::Three : Found::Other);
  }
  bool number_float(number_float_t, const string_t&) override { return value(Found::Other); }
  bool string(string_t&) override { return value(Found::Other); }
  bool binary(binary_t&) override { return value(Found::Other); }
  bool start_object(std::size_t) override { return open(); }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(); }
  bool end_array() override { return close(); }
  bool key(string_t& k) override {
    atDimensions_ = depth_ == 1 && k == "dimensions";
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }

 private:
  // A value at the top level's "dimensions" ends the scan (false stops the parser).
  bool value(Found what) {
    if (!atDimensions_) return true;
    found = what;
    return false;
  }
  bool open() {
    if (atDimensions_) return value(Found::Other);
    ++depth_;
    return true;
  }
  bool close() {
    --depth_;
    return true;
  }
  int depth_ = 0;
  bool atDimensions_ = false;
};

}  // namespace

int scenarioDimensions(std::string_view jsonText, const std::string& source) {
  DimensionsScan scan;
  const bool whole = json::sax_parse(jsonText, &scan);
  if (scan.found == DimensionsScan::Found::Two || (whole && scan.found == DimensionsScan::Found::Nothing))
    return 2;
  if (scan.found == DimensionsScan::Found::Three) return 3;
  // Anything else (not an object, a bad "dimensions", a syntax error): the full reader says what.
  const json root = scenario_detail::parseJsonDocument(jsonText, source);
  if (!root.is_object()) throw ScenarioError(source + ": expected an object at the top level");
  if (!root.contains("dimensions")) return 2;
  return scenario_detail::readDimensions(JsonValueReader(source), root["dimensions"]);
}

int scenarioFileDimensions(const std::string& path) {
  return scenarioDimensions(scenario_detail::readScenarioText(path), path);
}

Scenario3 parseScenario3(std::string_view jsonText, const std::string& source,
                         std::optional<std::uint64_t> seed) {
  if (const std::size_t nul = jsonText.find('\0'); nul != std::string_view::npos) {
    throw ScenarioError(source + ": byte " + std::to_string(nul + 1) +
                        " is a NUL character; a scenario file is JSON text");
  }
  return Scenario3Reader(source, seed).read(scenario_detail::parseJsonDocument(jsonText, source));
}

Scenario3 loadScenario3File(const std::string& path, std::optional<std::uint64_t> seed) {
  return parseScenario3(scenario_detail::readScenarioText(path), path, seed);
}

}  // namespace crowd
