// From a spec to a scenario: check every value of the spec against the limits, then generate
// the groups with a seed and look for what is legal but suspicious.
#include <crowd/scenario.hpp>

#include <string>
#include <string_view>

#include "group_generation.hpp"
#include "scenario_risks.hpp"
#include "number_text.hpp"
#include "scenario_paths.hpp"

namespace crowd {
namespace {

using scenario_detail::childPath;

std::string tooManyAgents(std::uint64_t count) {
  return std::to_string(count) + " agents, more than the " + std::to_string(limits::kMaxScenarioAgents) +
         " a scenario can hold: it will not fit in memory";
}

// Walks the spec in file order and stops at the first problem, naming its JSON pointer.
class SpecValidator {
 public:
  explicit SpecValidator(const ScenarioSpec& spec) : spec_(spec) {}

  void run() const {
    limit("/timeStep", spec_.timeStep, limits::kTimeStep);
    if (spec_.steps < 0) fail("/steps", "must be >= 0, got " + std::to_string(spec_.steps));
    if (spec_.agents.size() > limits::kMaxScenarioAgents)
      fail("/agents", "has " + tooManyAgents(spec_.agents.size()));
    for (std::size_t i = 0; i < spec_.agents.size(); ++i) agent(childPath("/agents", i), spec_.agents[i]);
    // Counted group by group, so the total stays small enough never to overflow.
    std::uint64_t total = spec_.agents.size();
    for (std::size_t g = 0; g < spec_.groups.size(); ++g) {
      const std::string path = childPath("/groups", g);
      const GroupSpec& group = spec_.groups[g];
      if (group.count > limits::kMaxScenarioAgents - total) {
        fail(path + "/count", "brings the total to " + tooManyAgents(total + group.count));
      }
      total += group.count;
      if (group.shape == GroupSpec::Shape::circle) {
        circle(path, group);
      } else {
        rectangle(path, group);
      }
    }
    for (std::size_t p = 0; p < spec_.obstacles.size(); ++p)
      obstacle(childPath("/obstacles", p), spec_.obstacles[p]);
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

  void obstacle(const std::string& path, const std::vector<Vec2>& polygon) const {
    for (std::size_t v = 0; v < polygon.size(); ++v)
      vector(childPath(path, v), polygon[v], limits::kCoordinate);
    if (const std::string problem = checkPolygon(polygon); !problem.empty()) fail(path, problem);
  }

  const ScenarioSpec& spec_;
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
  for (const GroupSpec& group : spec.groups)
    scenario_detail::appendGroup(group, scenario.seed, scenario.agents);
  scenario.obstacles = spec.obstacles;
  scenario.circles = spec.circles;
  scenario.paths = spec.paths;
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
