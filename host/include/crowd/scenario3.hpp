// 3D scenarios: a scenario file with "dimensions": 3, or the built-ins sphere and swarm. Every
// vector is [x, y, z]; agents are spheres (crowd/simulator3.hpp).
//
// File format (every key optional unless marked; unknown and repeated keys are errors; every
// number within its limit in crowd/limits.hpp):
//   { "dimensions": 3 (required), "name": "text",
//     "timeStep": 0.125, "steps": 3000, "seed": 1, "removeArrived": false,
//     "agentDefaults": { AgentParams keys, Steering keys },
//     "agents": [ { "position": [x, y, z] (required), "velocity": [vx, vy, vz],
//                   "goal": [x, y, z]  or  "prefVelocity": [px, py, pz], "name": "text",
//                   AgentParams keys, Steering keys } ],
//     "groups": [ { "type": "sphere", "count": N, "radius": R, "center": [x, y, z],
//                   "agentRadius": r, other AgentParams keys }
//                 { "type": "box", "count": N, "min": [x, y, z], "max": [x, y, z],
//                   "placement": "grid" | "random",
//                   "goal": [x, y, z] | "goalOffset": [dx, dy, dz]
//                   | "goalBox": {"min": [..], "max": [..]} | "prefVelocity": [px, py, pz],
//                   AgentParams keys, Steering keys } ] }
// AgentParams keys as in planar files, less timeHorizonObst: a 3D world has no obstacles (yet),
// so obstacles, circles, paths, maps and routes are refused with a message. Steering keys as in
// planar files for the behaviours a 3D world steers by (checkBehavior3: goal, seek, flee, arrive,
// separation, pursue, evade): "behavior", "combine", "avoidance", "pursuit", "target" (an agent
// number, or the "name" of a listed agent) and their parameters; "path", "loop", "planner" and
// "frenet" are refused.
// A sphere group spreads its agents evenly over the sphere (a Fibonacci lattice), each heading
// for the antipodal point; a box group places them on a lattice filling the box layer by layer
// (as planar rectangles fill row by row), or uniformly at random in it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <crowd/scenario_spec.hpp>  // ScenarioError
#include <crowd/simulator.hpp>
#include <crowd/simulator3.hpp>

namespace crowd {

/// A 3D scenario ready to run: every agent generated.
struct Scenario3 {
  std::string name;            ///< The file path or built-in name it came from.
  float timeStep = 0.125f;     ///< [Limit: limits::kTimeStep]
  std::int64_t steps = 1000;   ///< Steps a run takes unless told otherwise. [Limit: >= 0]
  std::uint64_t seed = 1;      ///< Seeds every random choice made while generating it.
  bool removeArrived = false;  ///< Remove agents once they reach their goal.
  /// In agent-number order. A target is given by agent number: AgentDef3::target->index is the
  /// number of the agent targeted (makeSimulator3 turns it into that agent's id).
  std::vector<AgentDef3> agents;
  std::vector<std::string> warnings;  ///< Legal but suspicious, e.g. agents that start overlapping.
};

/// The "dimensions" a scenario file's text declares: 2 (also when it says nothing) or 3.
/// Throws ScenarioError for text that is not a JSON object or a bad "dimensions".
int scenarioDimensions(std::string_view jsonText, const std::string& source);
/// As scenarioDimensions, for a file.
int scenarioFileDimensions(const std::string& path);

/// Reads and checks a 3D scenario file, generating its groups with `seed` (the file's own when
/// not given). Throws ScenarioError naming the file and the JSON pointer of the problem.
Scenario3 loadScenario3File(const std::string& path, std::optional<std::uint64_t> seed = std::nullopt);
/// As loadScenario3File, from text; `source` names it in messages.
Scenario3 parseScenario3(std::string_view jsonText, const std::string& source,
                         std::optional<std::uint64_t> seed = std::nullopt);

/// The 3D built-ins: sphere and swarm.
std::vector<std::string> builtinScenario3Names();
std::string builtinScenario3Description(const std::string& name);
bool isBuiltinScenario3(const std::string& name);
/// Builds a 3D built-in with `agents` agents (each has its own default). Throws ScenarioError for
/// an unknown name or an agent count it cannot make.
Scenario3 builtinScenario3(const std::string& name, std::optional<std::size_t> agents = std::nullopt,
                           std::uint64_t seed = 1);

/// Adds a warning for agents that start overlapping (and "no agents" for an empty scenario).
void addScenario3Warnings(Scenario3& scenario);

/// A simulator holding the scenario's agents (agent i gets id index i).
Simulator3 makeSimulator3(const Scenario3& scenario, int threads = 0, BackendKind backend = BackendKind::Cpu);

}  // namespace crowd
