// From a spec to a scenario: check every value of the spec against the limits, then generate
// the groups with a seed and look for what is legal but suspicious.
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <crowd/obstacles.hpp>
#include <crowd/scenario.hpp>

#include "nav/reference_line.hpp"
#include "params/number_text.hpp"
#include "scenario/behavior_json.hpp"
#include "scenario/group_generation.hpp"
#include "scenario/measure_json.hpp"
#include "scenario/population_json.hpp"
#include "scenario/problem_list.hpp"
#include "scenario/risks.hpp"
#include "scenario/scenario_paths.hpp"

namespace crowd {

// ---- checks the reader shares (behavior_json.hpp) ---------------------------------------

namespace scenario_detail {

PlacedProblem behaviorValueProblem(const Behavior& behavior) {
  const std::vector<WeightedBehavior>& list = behavior.behaviors;
  if (list.empty()) return {"/behavior", "needs at least one behaviour"};
  if (list.size() > static_cast<std::size_t>(kMaxBehaviors)) {
    return {"/behavior", "lists " + std::to_string(list.size()) + " behaviours; at most " +
                             std::to_string(kMaxBehaviors) + " can be combined"};
  }
  for (std::size_t k = 0; k < list.size(); ++k) {
    const std::string at = childPath("/behavior", k);
    if (static_cast<int>(list[k].kind) >= kBehaviorKindCount) return {at, "is not a known behaviour"};
    for (std::size_t j = 0; j < k; ++j) {
      if (list[j].kind == list[k].kind) {
        return {at, "lists \"" + std::string(behaviorName(list[k].kind)) + "\" again (it is behaviour " +
                        std::to_string(j) + "); each behaviour may appear once"};
      }
    }
    if (const std::string problem = limitProblem(list[k].weight, limits::kBehaviorWeight); !problem.empty()) {
      return {at + "/weight", problem + ", got " + formatFloat(list[k].weight)};
    }
  }
  for (const BehaviorField& field : kBehaviorFields) {
    const float value = behavior.*field.value;
    if (const std::string problem = limitProblem(value, field.limit); !problem.empty()) {
      return {childPath("", field.key), problem + ", got " + formatFloat(value)};
    }
  }
  for (const ModelField& field : kModelFields) {
    const float value = behavior.model.*field.value;
    if (const std::string problem = limitProblem(value, field.limit); !problem.empty()) {
      return {childPath("", field.key), problem + ", got " + formatFloat(value)};
    }
  }
  return {};
}

PlacedProblem pathPointsProblem(const PathSpec& path) {
  const std::vector<Vec2>& points = path.points;
  const std::size_t least = path.loop ? 3 : 2;
  if (points.size() < least) {
    return {"", std::string(path.loop ? "a loop" : "a path") + " needs at least " + std::to_string(least) +
                    " points, got " + std::to_string(points.size())};
  }
  for (std::size_t i = 0; i < points.size(); ++i) {
    const float coordinates[2] = {points[i].x, points[i].y};
    for (std::size_t c = 0; c < 2; ++c) {
      if (const std::string problem = limitProblem(coordinates[c], limits::kCoordinate); !problem.empty()) {
        return {childPath(childPath("", i), c), problem + ", got " + formatFloat(coordinates[c])};
      }
    }
  }
  // A segment of zero length has no direction to follow.
  for (std::size_t i = 0; i + 1 < points.size(); ++i) {
    if (points[i + 1] == points[i]) {
      return {childPath("", i + 1), "repeats point " + std::to_string(i) + " (a segment of zero length)"};
    }
  }
  if (path.loop && points.back() == points.front()) {
    return {childPath("", points.size() - 1),
            "repeats point 0: a loop joins its last point to its first by itself (a segment of zero length)"};
  }
  return {};
}

}  // namespace scenario_detail

namespace {

using scenario_detail::childPath;
using scenario_detail::PlacedProblem;

std::string tooManyAgents(std::uint64_t count) {
  return std::to_string(count) + " agents, more than the " + std::to_string(limits::kMaxScenarioAgents) +
         " a scenario can hold: it will not fit in memory";
}

// Walks the spec in file order and refuses it with every problem, each named by its JSON pointer.
class SpecValidator {
 public:
  explicit SpecValidator(const ScenarioSpec& spec) : spec_(spec) {}

  void run() const {
    // Each check stands alone: what one refuses is kept and the others still run, so the spec is
    // refused with every problem (ProblemList).
    scenario_detail::ProblemList problems;
    problems.attempt([&] { limit("/timeStep", spec_.timeStep, limits::kTimeStep); });
    problems.attempt([&] {
      if (spec_.steps < 0) fail("/steps", "must be >= 0, got " + std::to_string(spec_.steps));
    });
    problems.attempt([&] {
      if (const PlacedProblem bad = scenario_detail::speedZonesProblem(spec_.speedZones);
          !bad.problem.empty())
        fail("/speedZones" + bad.pointer, bad.problem);
    });
    problems.attempt([&] {
      if (const std::string problem = scenario_detail::periodicProblem(spec_); !problem.empty())
        fail("/periodic/x", problem);
    });
    if (spec_.agents.size() > limits::kMaxScenarioAgents)
      fail("/agents", "has " + tooManyAgents(spec_.agents.size()));
    for (std::size_t i = 0; i < spec_.agents.size(); ++i)
      problems.attempt([&] { agent(childPath("/agents", i), spec_.agents[i]); });
    // Counted group by group, so the total stays small enough never to overflow.
    std::uint64_t total = spec_.agents.size();
    for (std::size_t g = 0; g < spec_.groups.size(); ++g) {
      const std::string path = childPath("/groups", g);
      const GroupSpec& group = spec_.groups[g];
      if (group.count > limits::kMaxScenarioAgents - total) {
        problems.throwIfAny(spec_.name);
        fail(path + "/count", "brings the total to " + tooManyAgents(total + group.count));
      }
      total += group.count;
      problems.attempt([&] {
        if (const PlacedProblem bad = scenario_detail::groupPopulationProblem(group); !bad.problem.empty()) {
          fail(path + bad.pointer, bad.problem);
        }
        if (group.shape == GroupSpec::Shape::circle) {
          circle(path, group);
        } else {
          rectangle(path, group);
        }
      });
    }
    for (std::size_t p = 0; p < spec_.obstacles.size(); ++p)
      problems.attempt([&] { obstacle(childPath("/obstacles", p), spec_.obstacles[p]); });
    for (std::size_t c = 0; c < spec_.circles.size(); ++c)
      problems.attempt([&] { circle(childPath("/circles", c), spec_.circles[c]); });
    for (std::size_t p = 0; p < spec_.paths.size(); ++p) {
      problems.attempt([&] {
        if (const PlacedProblem bad = scenario_detail::pathPointsProblem(spec_.paths[p]);
            !bad.problem.empty())
          fail(childPath("/paths", p) + "/points" + bad.pointer, bad.problem);
      });
    }
    problems.attempt([&] { routing(); });
    problems.attempt([&] {
      if (!spec_.measure) return;
      if (const PlacedProblem bad = scenario_detail::measurementPlanProblem(*spec_.measure);
          !bad.problem.empty())
        fail("/measure" + bad.pointer, bad.problem);
    });
    // Steering last: a target is checked against the number of agents, known only now.
    for (std::size_t i = 0; i < spec_.agents.size(); ++i) {
      problems.attempt([&] {
        const AgentDef& agent = spec_.agents[i];
        std::optional<std::uint64_t> target;
        if (agent.target) target = agent.target->index;
        steering(childPath("/agents", i), agent.behavior, target, i, 1, total);
        modelFits(childPath("/agents", i), agent.params, agent.behavior.model, agent.behavior.avoidance);
      });
    }
    std::uint64_t first = spec_.agents.size();
    for (std::size_t g = 0; g < spec_.groups.size(); ++g) {
      const GroupSpec& group = spec_.groups[g];
      problems.attempt([&] {
        std::optional<std::uint64_t> target;
        if (group.target) target = *group.target;
        steering(childPath("/groups", g), group.behavior, target, first, group.count, total);
        modelFits(childPath("/groups", g), group.params, group.behavior.model, group.behavior.avoidance);
      });
      first += group.count;
    }
    problems.throwIfAny(spec_.name);
  }

 private:
  [[noreturn]] void fail(const std::string& path, const std::string& problem) const {
    scenario_detail::failAt(spec_.name, path, problem);
  }

  void limit(const std::string& path, float value, const Limit& bound) const {
    if (const std::string problem = limitProblem(value, bound); !problem.empty()) {
      fail(path, problem + ", got " + formatFloat(value));
    }
  }

  void vector(const std::string& path, Vec2 v, const Limit& bound) const {
    limit(childPath(path, 0), v.x, bound);
    limit(childPath(path, 1), v.y, bound);
  }

  // `radiusKey` is the file's name for the disc radius ("agentRadius" in circle groups).
  void params(const std::string& path, const AgentParams& params, std::string_view radiusKey) const {
    for (const AgentParamField& field : kAgentParamFields) {
      if (const std::string problem = checkAgentParam(params, field); !problem.empty()) {
        fail(childPath(path, field.real == &AgentParams::radius ? radiusKey : field.key), problem);
      }
    }
  }

  // Corners of a box, min <= max in both coordinates.
  void box(const std::string& path, Vec2 min, Vec2 max) const {
    vector(childPath(path, "min"), min, limits::kCoordinate);
    vector(childPath(path, "max"), max, limits::kCoordinate);
    if (min.x > max.x || min.y > max.y) {
      fail(childPath(path, "max"),
           "must be >= min in both coordinates, got min " + formatVec2(min) + " and max " + formatVec2(max));
    }
  }

  // Generated points (agents or goals) lie in [lo, hi], as float arithmetic rounds them:
  // rounding never decreases, so no point goes past the rounded ends of its range.
  void generatedWithin(const std::string& path, const char* what, Vec2 lo, Vec2 hi) const {
    for (const Vec2 corner : {lo, hi}) {
      for (const float coordinate : {corner.x, corner.y}) {
        if (const std::string problem = limitProblem(coordinate, limits::kCoordinate); !problem.empty()) {
          fail(path,
               std::string("puts ") + what + " as far as " + formatVec2(corner) + ": coordinates " + problem);
        }
      }
    }
  }

  void agent(const std::string& path, const AgentDef& agent) const {
    vector(path + "/position", agent.position, limits::kCoordinate);
    vector(path + "/velocity", agent.velocity, limits::kVelocity);
    if (agent.goal) vector(path + "/goal", *agent.goal, limits::kCoordinate);
    vector(path + "/prefVelocity", agent.prefVelocity, limits::kVelocity);
    params(path, agent.params, "radius");
  }

  void circle(const std::string& path, const GroupSpec& group) const {
    limit(path + "/radius", group.circleRadius,
          Limit{limits::kCoordinate.name, 0.0f, limits::kCoordinate.max});
    vector(path + "/center", group.center, limits::kCoordinate);
    params(path, group.params, "agentRadius");
    // Agents and their antipodal goals lie within the radius of the centre.
    const Vec2 reach(group.circleRadius, group.circleRadius);
    if (group.count > 0)
      generatedWithin(path + "/radius", "agents", group.center - reach, group.center + reach);
  }

  void rectangle(const std::string& path, const GroupSpec& group) const {
    box(path, group.min, group.max);
    switch (group.goal) {
      case GroupSpec::Goal::none:
        break;
      case GroupSpec::Goal::point:
        vector(path + "/goal", group.goalVector, limits::kCoordinate);
        break;
      case GroupSpec::Goal::offset:
        vector(path + "/goalOffset", group.goalVector, limits::kCoordinate);
        generatedWithin(path + "/goalOffset", "goals", group.min + group.goalVector,
                        group.max + group.goalVector);
        break;
      case GroupSpec::Goal::box:
        box(path + "/goalRect", group.goalMin, group.goalMax);
        break;
      case GroupSpec::Goal::prefVelocity:
        vector(path + "/prefVelocity", group.goalVector, limits::kVelocity);
        break;
    }
    params(path, group.params, "radius");
  }

  // What a model needs of the step and the neighbour search: the social force model a step short
  // enough for its body force, the density-aware speed room in the neighbour list for everyone
  // within its radius at the densest (Weidmann's standstill density).
  void modelFits(const std::string& path, const AgentParams& params, const ModelParams& model,
                 AvoidanceMode kind) const {
    if (kind == AvoidanceMode::SocialForce && spec_.timeStep > socialForceMaxTimeStep(model)) {
      char most[32];
      std::snprintf(most, sizeof most, "%.3g", static_cast<double>(socialForceMaxTimeStep(model)) * 0.9995);
      fail("/timeStep", "the social force model of " + path.substr(1) + " needs a timeStep of at most " +
                            most + " s with its parameters (its body force is stiff; 0.01 s is usual), got " +
                            formatFloat(spec_.timeStep));
    }
    if (!model.densitySpeed) return;
    const int needed = densitySpeedNeighbors(model);
    if (params.maxNeighbors < needed || params.neighborDist < model.densityRadius) {
      fail(path + "/densitySpeed",
           "counting people within densityRadius " + formatFloat(model.densityRadius) +
               " needs maxNeighbors >= " + std::to_string(needed) +
               " and neighborDist >= " + formatFloat(model.densityRadius) + ", got " +
               std::to_string(params.maxNeighbors) + " and " + formatFloat(params.neighborDist));
    }
  }

  // The behaviour and target of the agents numbered [first, first + count), of `agentCount`.
  void steering(const std::string& path, const Behavior& behavior, std::optional<std::uint64_t> target,
                std::uint64_t first, std::uint64_t count, std::uint64_t agentCount) const {
    if (const PlacedProblem bad = scenario_detail::behaviorValueProblem(behavior); !bad.problem.empty()) {
      fail(path + bad.pointer, bad.problem);
    }
    const int pathCount = static_cast<int>(std::min<std::size_t>(spec_.paths.size(), INT_MAX));
    if (behavior.path < -1) fail(path + "/path", "must be >= 0, got " + std::to_string(behavior.path));
    if (behavior.path >= pathCount) {
      fail(path + "/path", "path " + std::to_string(behavior.path) + " does not exist (" +
                               std::to_string(pathCount) + " paths are defined)");
    }
    if (behavior.has(BehaviorKind::FollowPath) && behavior.path < 0) {
      fail(path,
           "follow needs a path: give \"path\", a number of \"paths\" or a list of points [[x, y], ...]");
    }
    // Simulator::addAgent refuses a planner on a path with no reference line; refused here so
    // that the file's place is named.
    if (behavior.planner == LocalPlanner::Frenet && behavior.path >= 0) {
      if (spec_.paths[static_cast<std::size_t>(behavior.path)].loop) {
        fail(path + "/path", loopPlannerProblem(behavior.path));
      }
      if (const std::string problem = referenceLineProblem(static_cast<std::size_t>(behavior.path));
          !problem.empty()) {
        // Refused for its length (too many samples), or for its shape.
        const bool tooLong = problem.rfind("a reference line of about", 0) == 0;
        fail(path + "/path", "path " + std::to_string(behavior.path) + " is too " +
                                 (tooLong ? "long" : "short") + " for the frenet planner's reference line (" +
                                 problem + ")");
      }
    }
    if (target) {
      if (*target >= agentCount) {
        fail(path + "/target", "agent " + std::to_string(*target) + " does not exist (the scenario has " +
                                   std::to_string(agentCount) + " agents)");
      }
      if (*target >= first && *target - first < count) {
        fail(path + "/target",
             count == 1 ? "an agent cannot target itself (it is agent " + std::to_string(first) + ")"
                        : "agent " + std::to_string(*target) + " is one of this group's agents (" +
                              std::to_string(first) + " to " + std::to_string(first + count - 1) +
                              "): it would target itself");
      }
    }
    // Whatever else Simulator::setBehavior would refuse, so that makeSimulator never does.
    if (const std::string problem = checkBehavior(behavior, pathCount); !problem.empty()) fail(path, problem);
  }

  // Exits need a map to choose between them by route length; route values within limits.
  void routing() const {
    const auto exits = [&](const std::string& path, const std::vector<Vec2>& points) {
      if (!spec_.map) fail(path, "exits need a map to route through (give \"map\")");
      if (points.empty()) fail(path, "needs at least one exit [x, y]");
      for (std::size_t e = 0; e < points.size(); ++e)
        vector(childPath(path, e), points[e], limits::kCoordinate);
    };
    for (const ExitSpec& set : spec_.exits) {
      if (set.count != 1 || set.firstAgent >= spec_.agents.size()) {
        fail("/agents", "exit set for agents " + std::to_string(set.firstAgent) + " (" +
                            std::to_string(set.count) + ") does not name one listed agent");
      }
      const AgentDef& agent = spec_.agents[set.firstAgent];
      const std::string path = childPath("/agents", set.firstAgent);
      if (agent.goal) fail(path, "has both 'exits' and 'goal'; give at most one");
      exits(path + "/exits", set.points);
    }
    for (std::size_t g = 0; g < spec_.groups.size(); ++g) {
      const GroupSpec& group = spec_.groups[g];
      if (group.exits.empty()) continue;
      const std::string path = childPath("/groups", g);
      if (group.shape != GroupSpec::Shape::rectangle || group.goal != GroupSpec::Goal::none) {
        fail(path + "/exits", "only rectangle groups without another goal spec may give exits");
      }
      exits(path + "/exits", group.exits);
    }
    if (spec_.route.radius) limit("/route/radius", *spec_.route.radius, limits::kRadius);
    limit("/route/clearanceMargin", spec_.route.planner.clearanceMargin,
          Limit{"the radius limit", 0.0f, limits::kRadius.max});
    limit("/route/replanAfter", spec_.route.replanAfter, limits::kReplanAfter);
    if (!(spec_.route.replanDistance > 0.0f)) {
      fail("/route/replanDistance", "must be > 0, got " + formatFloat(spec_.route.replanDistance));
    }
    limit("/route/replanDistance", spec_.route.replanDistance, limits::kRadius);
    const ExitChoice& choice = spec_.route.exitChoice;
    if (!(choice.exitFlow > 0.0f) || !std::isfinite(choice.exitFlow))
      fail("/route/exitChoice/exitFlow",
           "must be > 0 persons per second, got " + formatFloat(choice.exitFlow));
    if (!(choice.every > 0.0f) || !std::isfinite(choice.every))
      fail("/route/exitChoice/every", "must be > 0 seconds, got " + formatFloat(choice.every));
    if (!(choice.margin >= 0.0f) || !std::isfinite(choice.margin))
      fail("/route/exitChoice/margin", "must be >= 0 seconds, got " + formatFloat(choice.margin));
    for (std::size_t i = 0; i < spec_.route.exitHours.size(); ++i) {
      const ExitHours& hours = spec_.route.exitHours[i];
      const std::string path = childPath("/route/exitHours", i);
      if (!(hours.opens >= 0.0f) || !std::isfinite(hours.opens))
        fail(path + "/opens", "must be >= 0 seconds, got " + formatFloat(hours.opens));
      if (!(hours.closes > hours.opens))
        fail(path + "/closes", "must be later than opens (" + formatFloat(hours.opens) + " s), got " +
                                   formatFloat(hours.closes));
      // An exit's hours name one of the exits agents are given, exactly.
      bool named = false;
      for (const ExitSpec& set : spec_.exits)
        named = named || std::ranges::find(set.points, hours.at) != set.points.end();
      for (const GroupSpec& group : spec_.groups)
        named = named || std::ranges::find(group.exits, hours.at) != group.exits.end();
      if (!named) fail(path + "/at", "is not one of the exits any agent or group lists");
    }
  }

  // A circular obstacle [x, y, radius].
  void circle(const std::string& path, const CircleSpec& circle) const {
    limit(childPath(path, 0), circle.center.x, limits::kCoordinate);
    limit(childPath(path, 1), circle.center.y, limits::kCoordinate);
    if (!(circle.radius > 0.0f)) fail(childPath(path, 2), "must be > 0, got " + formatFloat(circle.radius));
    limit(childPath(path, 2), circle.radius, limits::kRadius);
    // ORCA avoids the polygon drawn around the disc, whose corners lie this far from its centre.
    const double reach = circle.radius / std::cos(std::numbers::pi / ObstacleSet::kCircleSides);
    const Vec2 corner(static_cast<float>(reach), static_cast<float>(reach));
    generatedWithin(path, "the circle's polygon", circle.center - corner, circle.center + corner);
    // A radius below the float spacing at its centre draws a polygon whose corners coincide.
    try {
      ObstacleSet probe;
      probe.addCircle(circle.center, circle.radius);
    } catch (const std::invalid_argument&) {
      fail(childPath(path, 2), "is too small to draw a circle around " + formatVec2(circle.center) +
                                   " (floats there are further apart than its corners)");
    }
  }

  void obstacle(const std::string& path, const std::vector<Vec2>& polygon) const {
    for (std::size_t v = 0; v < polygon.size(); ++v)
      vector(childPath(path, v), polygon[v], limits::kCoordinate);
    if (const std::string problem = checkPolygon(polygon); !problem.empty()) fail(path, problem);
  }

  // Why path `p` has no reference line, as Simulator::addPath builds it (a loop closed on its
  // first point); "" when it has one. Built once per path, however many agents plan on it.
  std::string referenceLineProblem(std::size_t p) const {
    if (lineProblems_.empty()) lineProblems_.resize(spec_.paths.size());
    std::optional<std::string>& known = lineProblems_[p];
    if (!known) {
      try {
        buildReferenceLine(spec_.paths[p].points, kReferenceSpacing);
        known = std::string();
      } catch (const std::invalid_argument& error) {
        known = std::string(error.what());
      }
    }
    return *known;
  }

  const ScenarioSpec& spec_;
  mutable std::vector<std::optional<std::string>> lineProblems_;  // Per path, once asked.
};

}  // namespace

void validateScenarioSpec(const ScenarioSpec& spec) {
  SpecValidator(spec).run();
}

Scenario expandScenario(const ScenarioSpec& spec, std::optional<std::uint64_t> seed) {
  validateScenarioSpec(spec);
  Scenario scenario;
  scenario.name = spec.name;
  scenario.timeStep = spec.timeStep;
  scenario.steps = spec.steps;
  scenario.seed = seed.value_or(spec.seed);
  scenario.removeArrived = spec.removeArrived;
  std::size_t total = spec.agents.size();
  for (const GroupSpec& group : spec.groups) total += group.count;
  checkMemoryFor(total, spec.name);  // Before a byte of it is generated.
  scenario.agents.reserve(total);
  scenario.agents.insert(scenario.agents.end(), spec.agents.begin(), spec.agents.end());
  for (const GroupSpec& group : spec.groups) {
    const std::size_t first = scenario.agents.size();
    scenario_detail::appendGroup(group, scenario.seed, scenario.agents);
    scenario_detail::applyDraws(group, scenario.seed, first, scenario.agents);
  }
  scenario.obstacles = spec.obstacles;
  scenario.circles = spec.circles;
  scenario.paths = spec.paths;
  scenario.map = spec.map;
  scenario.mapFile = spec.mapFile;
  scenario.route = spec.route;
  scenario.exits = spec.exits;
  scenario.measure = spec.measure;
  scenario.speedZones = spec.speedZones;
  scenario.periodicX = spec.periodicX;
  std::size_t first = spec.agents.size();  // Each group's first agent number.
  for (const GroupSpec& group : spec.groups) {
    if (!group.exits.empty()) scenario.exits.push_back(ExitSpec{first, group.count, group.exits});
    first += group.count;
  }
  // Routing before the warnings: they then see the map's walls and the moved starts.
  routeScenario(scenario);
  addScenarioWarnings(scenario);
  return scenario;
}

Scenario parseScenario(std::string_view jsonText, const std::string& source) {
  return expandScenario(parseScenarioSpec(jsonText, source));
}

Scenario loadScenarioFile(const std::string& path) {
  return expandScenario(loadScenarioSpec(path));
}

}  // namespace crowd
