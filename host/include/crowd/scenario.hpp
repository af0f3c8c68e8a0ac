// Scenarios: a complete set-up (settings, agents, obstacles) read from JSON or built in.
//
// File format (every key optional unless marked; unknown and repeated keys are errors; every
// number within its limit in crowd/limits.hpp):
//   { "name": "text",
//     "timeStep": 0.25, "steps": 3000, "seed": 1, "removeArrived": false,
//     "agentDefaults": { AgentParams keys, Steering keys },
//     "agents": [ { "position": [x, y] (required), "velocity": [vx, vy],
//                   "goal": [x, y]  or  "prefVelocity": [px, py], "name": "text",
//                   AgentParams keys, Steering keys } ],
//     "groups": [ { "type": "circle", "count": N, "radius": R, "center": [x, y],
//                   "agentRadius": r, other AgentParams keys, Steering keys }
//                 { "type": "rectangle", "count": N, "min": [x, y], "max": [x, y],
//                   "placement": "grid" | "random",
//                   "goal": [x, y] | "goalOffset": [dx, dy] | "goalRect": {"min": .., "max": ..}
//                   | "prefVelocity": [px, py],  AgentParams keys, Steering keys } ],
//     "obstacles": [ [[x, y], [x, y], ...], ... ],
//     "circles": [ [x, y, radius], ... ],
//     "paths": [ { "points": [[x, y], [x, y], ...] (required), "loop": false }, ... ] }
// AgentParams keys: radius, maxSpeed, prefSpeed, neighborDist, maxNeighbors, timeHorizon,
// timeHorizonObst, goalRadius. Agents are numbered in file order: "agents" first, then each
// group's agents in turn. Circle groups head for the antipodal point; in them "radius" is the
// circle's, so the agents' own radius is "agentRadius".
//
// Steering keys (crowd/behavior.hpp; without them an agent keeps RVO2's goal rule):
//   "behavior": "seek"  or  [ "seek", {"name": "wander", "weight": 0.5}, ... ]  (weight 1 unless
//       given; at most kMaxBehaviors, each once; names: goal, seek, flee, arrive, wander,
//       separation, follow, pursue, evade, avoid),
//   "combine": "sum" | "priority",  "avoidance": "orca" | "none",
//   "pursuit": "chase" | "sight" | "intercept",
//   "target": an agent number, or the "name" of an agent of "agents" (a group's target is every
//       one of its agents'; no agent may target itself; null: none, overriding a default),
//   "path": a number of "paths", or a list of points [[x, y], ...] added to "paths" after the
//       file's own (with "loop": true beside it for a closed one); null: none,
//   and the parameters maxForce, mass, slowingRadius, pathRadius, lookAhead, wanderRadius,
//   wanderDistance, wanderJitter, boxLength, separationRadius.
// An agent's keys override "agentDefaults" one by one ("behavior" replaces the whole list).
// Paths need 2 points (a loop 3), no point repeating the one before it; circles a radius > 0.
//
// Maps and routes (see routeScenario below):
//     "map": "file.map" | { "file": "file.map" (relative to the scenario's folder) or
//            "rows": ["....", ...], "cellSize": 1, "origin": [x, y] },
//     "route": { "cornerCutting": false, "heuristic": "octile" | "euclidean" | "manhattan",
//                "radius": r (default: each agent's own), "clearanceMargin": 0.05,
//                "replanAfter": 4 (seconds without progress; 0: never), "replanDistance": 0.5 },
//   and agents and rectangle groups may give "exits": [[x, y], ...] instead of a goal.
//
// Loading is parse -> spec -> validate -> expand: loadScenarioSpec reads the file into a
// ScenarioSpec (crowd/scenario_spec.hpp) and checks it; expandScenario generates the groups with
// a seed and adds the warnings. loadScenarioFile does both.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <crowd/scenario_spec.hpp>
#include <crowd/simulator.hpp>

namespace crowd {

/// A scenario ready to run: every agent generated.
struct Scenario {
  std::string name;              ///< The file path or built-in name it came from.
  float timeStep = 0.25f;        ///< [Limit: limits::kTimeStep]
  std::int64_t steps = 1000;     ///< Steps a run takes unless told otherwise. [Limit: >= 0]
  std::uint64_t seed = 1;        ///< Seeds every random choice made while generating it.
  bool removeArrived = false;    ///< Remove agents once they reach their goal.
  /// In agent-number order. A target is given by agent number: AgentDef::target->index is the
  /// number of the agent targeted (makeSimulator turns it into that agent's id).
  std::vector<AgentDef> agents;
  std::vector<std::vector<Vec2>> obstacles;
  /// How many of `obstacles`, at its end, routeScenario traced from the map (not warned about
  /// as clockwise polygons a user wrote: a map's enclosed pockets are clockwise holes).
  std::size_t mapObstacles = 0;
  std::vector<CircleSpec> circles;  ///< Circular obstacles (crowd/obstacles.hpp: addCircle).
  std::vector<PathSpec> paths;      ///< Paths for `follow`; Behavior::path indexes this list.
  std::vector<std::string> warnings;  ///< Legal but suspicious, e.g. agents that start overlapping.

  // ---- routing (routeScenario) ----
  /// The map agents are routed through; none for a scenario without one.
  std::shared_ptr<const GridMap> map;
  RouteSpec route;
  /// Agents leaving by the nearest of several exits (every agent number once at most).
  std::vector<ExitSpec> exits;
  /// Every agent's route once routed, agent i at [routeOffsets[i], routeOffsets[i + 1]): empty
  /// for agents without one. routeOffsets is empty until routeScenario has run.
  std::vector<Vec2> routePoints;
  std::vector<std::int64_t> routeOffsets;
  /// Agents with a goal or exits that no route reaches: they stand where they are.
  std::size_t unreachableAgents = 0;
};

/// For each agent number, which of `scenario.exits` it leaves by, or -1 for none.
std::vector<std::int32_t> exitSetOfAgents(const Scenario& scenario);

/// Routes a scenario with a map: appends the map's blocked regions to `obstacles`
/// (traceObstacleOutlines), plans a route for every agent with exits, and for every agent with a
/// goal whose behaviour is the default goal rule (one RoutePlanner::plan call, deterministic for
/// any thread count), and sets routePoints/routeOffsets. A routed agent's goal becomes its
/// route's end (the chosen exit; a goal inside a wall moves to the nearest free cell), and an
/// agent on the goal rule follows its own route instead (follow, Behavior::path = kOwnRoute).
/// An agent starting inside a wall is moved to the nearest free cell; one that cannot reach its
/// goal loses it and stands still. Each kind of problem adds one warning. Does nothing without
/// a map; runs once (a second call does nothing). `threads` <= 0: OpenMP's default.
void routeScenario(Scenario& scenario, int threads = 0);

/// Generates the spec's groups with `seed` (the spec's own when not given), after checking the
/// spec (validateScenarioSpec), and adds the scenario's warnings (addScenarioWarnings). The same
/// spec and seed always give the same agents. Throws ScenarioError.
Scenario expandScenario(const ScenarioSpec& spec, std::optional<std::uint64_t> seed = std::nullopt);

/// Reads and checks a scenario file: expandScenario(loadScenarioSpec(path)). Throws
/// ScenarioError; never returns a scenario that would start a run on bad data.
Scenario loadScenarioFile(const std::string& path);

/// As loadScenarioFile, from text; `source` names it in messages.
Scenario parseScenario(std::string_view jsonText, const std::string& source);

/// The built-in scenarios: circle, crossing, corridor, bottleneck, random, and the steering ones,
/// pursuit, pathloop, forest and mix.
std::vector<std::string> builtinScenarioNames();
std::string builtinScenarioDescription(const std::string& name);
/// Builds a built-in with `agents` agents (each has its own default). Throws ScenarioError for
/// an unknown name or an agent count it cannot make.
Scenario builtinScenario(const std::string& name, std::optional<std::size_t> agents = std::nullopt,
                         std::uint64_t seed = 1);

/// Adds every warning below, plus "no agents" for an empty scenario. Loading a file or building
/// a built-in does this once; cheap (grids), even for millions of agents.
void addScenarioWarnings(Scenario& scenario);

/// Adds warnings for agents overlapping each other or an obstacle.
void addOverlapWarnings(Scenario& scenario);

/// Adds a warning for clockwise polygons (boundaries that keep agents inside) that enclose no
/// agent: usually a solid obstacle listed the wrong way round.
void addWindingWarnings(Scenario& scenario);

/// A simulator holding the scenario's agents (ids in agent-number order), obstacles, circles and
/// paths (path numbers as in the scenario), with every agent's target set.
/// Throws std::runtime_error when `backend` is Cuda and no usable device is present.
Simulator makeSimulator(const Scenario& scenario, int threads = 0, BackendKind backend = BackendKind::Cpu);

}  // namespace crowd
