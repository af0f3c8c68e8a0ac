// The table of planar built-in scenarios, one row per built-in with its default size and what it
// shows, and the functions that find and build them. Each family is built in a file of its own
// (orca_builtins.cpp, steering_builtins.cpp, lanes_builtin.cpp, navigation_builtins.cpp,
// pedestrian_builtins.cpp); the 3D
// built-ins are in builtins_3d.cpp.
#include <string>
#include <vector>

#include <crowd/scenario.hpp>
#include <crowd/scenario3.hpp>

#include "scenario/builtins/builtin_support.hpp"
#include "scenario/risks.hpp"

namespace crowd {
namespace {

using namespace builtin_detail;

struct Builtin {
  const char* name;
  std::size_t defaultAgents;
  const char* description;
  void (*build)(Scenario&, std::size_t);
};

constexpr Builtin kBuiltins[] = {
    {"circle", 250, "agents on a circle swap places with the antipodal agent; RVO2's Circle example at 250",
     buildCircle},
    {"crossing", 400, "two perpendicular streams, eastbound and northbound, cross at the origin",
     buildCrossing},
    {"corridor", 300, "two groups swap ends of a 30-wide walled corridor, meeting head-on", buildCorridor},
    {"bottleneck", 200, "a crowded square room evacuates through an 8-wide door", buildBottleneck},
    {"random", 1000, "agents at density 0.05 in an open square walk to random goals", buildRandom},
    {"pursuit", 60,
     "evaders walk across a field, each chased by a slower pursuer: chase, sight or intercept (ORCA on)",
     buildPursuit},
    {"pathloop", 12, "a dozen vehicles per loop follow a closed five-point path of radius 20 (Reynolds)",
     buildPathLoop},
    {"forest", 50, "agents seek across a field of circular posts with the detection box, ORCA off",
     buildForest},
    {"mix", 2000,
     "goal, arrive, wander, follow, pursue/evade pairs and detection-box agents among posts (ORCA on); "
     "ends when the goal walkers have arrived",
     buildMix},
    {"evacuation", 1000,
     "a floor of rooms and corridors empties through exits in its outer wall, each agent taking the "
     "nearest by route length (map routes, ORCA on)",
     buildEvacuation},
    {"lanes", 24,
     "vehicles with the Frenet planner drive both lanes of a bending road and swerve round parked cars "
     "(ORCA on)",
     buildLanes},
    {"maze", 200, "agents cross a generated maze with corridors 2.5 m wide along planned routes (ORCA on)",
     buildMaze},
    {"walkway", 2000,
     "people (pedestrian preset, collision-free speed model) fill a 10 m wide walkway at 2 P/m^2 and all "
     "walk one way",
     buildWalkway},
    {"doorway", 500,
     "people (pedestrian preset, collision-free speed model) empty a room at 2 P/m^2 through a 1 m door",
     buildDoorway},
};

const Builtin& findBuiltin(const std::string& name) {
  for (const Builtin& builtin : kBuiltins) {
    if (name == builtin.name) return builtin;
  }
  std::string known;
  for (const Builtin& builtin : kBuiltins) {
    known += (known.empty() ? "" : ", ") + std::string(builtin.name);
  }
  // The 3D ones too: a command that reads both kinds names them all.
  for (const std::string& name3 : builtinScenario3Names()) known += ", " + name3;
  throw ScenarioError("unknown built-in scenario '" + name + "' (known: " + known + ")");
}

}  // namespace

std::vector<std::string> builtinScenarioNames() {
  std::vector<std::string> names;
  for (const Builtin& builtin : kBuiltins) names.emplace_back(builtin.name);
  return names;
}

std::string builtinScenarioDescription(const std::string& name) {
  const Builtin& builtin = findBuiltin(name);
  return std::string(builtin.description) + " (default " + std::to_string(builtin.defaultAgents) + " agents)";
}

Scenario builtinScenario(const std::string& name, std::optional<std::size_t> agents, std::uint64_t seed) {
  const Builtin& builtin = findBuiltin(name);
  const std::size_t count = agents.value_or(builtin.defaultAgents);
  Scenario scenario;
  scenario.name = "builtin:" + name;
  if (count == 0 || count > limits::kMaxScenarioAgents) {
    throw ScenarioError(scenario.name + ": agents: must be between 1 and " +
                        std::to_string(limits::kMaxScenarioAgents) + ", got " + std::to_string(count) +
                        (count == 0 ? "" : " (more agents will not fit in memory)"));
  }
  checkMemoryFor(count, scenario.name);  // Before a byte of it is generated.
  scenario.timeStep = kRvo2TimeStep;     // The flows shorten it.
  scenario.seed = seed;
  scenario.agents.reserve(count);
  builtin.build(scenario, count);
  addScenarioWarnings(scenario);
  return scenario;
}

}  // namespace crowd
