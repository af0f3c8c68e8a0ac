// Scenarios: a complete set-up (settings, agents, obstacles) read from JSON or built in.
//
// File format (every key optional unless marked; unknown keys are errors):
//   { "name": "text",
//     "timeStep": 0.25, "steps": 3000, "seed": 1, "removeArrived": false,
//     "agentDefaults": { AgentParams keys },
//     "agents": [ { "position": [x, y] (required), "velocity": [vx, vy],
//                   "goal": [x, y]  or  "prefVelocity": [px, py],  AgentParams keys } ],
//     "groups": [ { "type": "circle", "count": N, "radius": R, "center": [x, y],
//                   "agentRadius": r, other AgentParams keys }
//                 { "type": "rectangle", "count": N, "min": [x, y], "max": [x, y],
//                   "placement": "grid" | "random",
//                   "goal": [x, y] | "goalOffset": [dx, dy] | "goalRect": {"min": .., "max": ..}
//                   | "prefVelocity": [px, py],  AgentParams keys } ],
//     "obstacles": [ [[x, y], [x, y], ...], ... ] }
// AgentParams keys: radius, maxSpeed, prefSpeed, neighborDist, maxNeighbors, timeHorizon,
// timeHorizonObst, goalRadius. Agents are numbered in file order: "agents" first, then each
// group's agents in turn. Circle groups head for the antipodal point; in them "radius" is the
// circle's, so the agents' own radius is "agentRadius".
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <crowd/simulator.hpp>

namespace crowd {

/// A bad scenario. The message names the source, the JSON path and the problem, e.g.
/// "crowd.json: /agents/3/radius: must be >= 0, got -1".
class ScenarioError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Scenario {
  std::string name;              ///< The file path or built-in name it came from.
  float timeStep = 0.25f;        ///< [Limit: > 0]
  std::int64_t steps = 1000;     ///< Steps a run takes unless told otherwise. [Limit: >= 0]
  std::uint64_t seed = 1;        ///< Seeds every random choice made while generating it.
  bool removeArrived = false;    ///< Remove agents once they reach their goal.
  std::vector<AgentDef> agents;  ///< In agent-number order.
  std::vector<std::vector<Vec2>> obstacles;
  std::vector<std::string> warnings;  ///< Legal but suspicious, e.g. agents that start overlapping.
};

/// Reads and checks a scenario file. Throws ScenarioError; never returns a scenario that would
/// start a run on bad data.
Scenario loadScenarioFile(const std::string& path);

/// As loadScenarioFile, from text; `source` names it in messages.
Scenario parseScenario(std::string_view jsonText, const std::string& source);

/// The built-in scenarios: circle, crossing, corridor, bottleneck, random.
std::vector<std::string> builtinScenarioNames();
std::string builtinScenarioDescription(const std::string& name);
/// Builds a built-in with `agents` agents (each has its own default). Throws ScenarioError for
/// an unknown name or an agent count it cannot make.
Scenario builtinScenario(const std::string& name, std::optional<std::size_t> agents = std::nullopt,
                         std::uint64_t seed = 1);

/// Adds warnings for agents overlapping each other or an obstacle. Cheap (a grid), so it runs
/// for every loaded or built-in scenario.
void addOverlapWarnings(Scenario& scenario);

/// A simulator holding the scenario's agents (ids in agent-number order) and obstacles.
/// Throws std::runtime_error when `backend` is Cuda and no usable device is present.
Simulator makeSimulator(const Scenario& scenario, int threads = 0, BackendKind backend = BackendKind::Cpu);

}  // namespace crowd
