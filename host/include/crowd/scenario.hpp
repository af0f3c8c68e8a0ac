// Scenarios: a complete set-up (settings, agents, obstacles, paths, a map and exits) read from a
// scenario file or built in. The file format is described once, in docs/scenario-format.md.
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

#include <crowd/basic_scenario.hpp>
#include <crowd/scenario_spec.hpp>
#include <crowd/simulator.hpp>

namespace crowd {

/// A planar scenario ready to run: every agent generated (BasicScenario, crowd/basic_scenario.hpp),
/// with the planar world's obstacles, paths and routing.
struct Scenario : BasicScenario<Vec2> {
  std::vector<std::vector<Vec2>> obstacles;
  /// How many of `obstacles`, at its end, routeScenario traced from the map (not warned about
  /// as clockwise polygons a user wrote: a map's enclosed pockets are clockwise holes).
  std::size_t mapObstacles = 0;
  std::vector<CircleSpec> circles;  ///< Circular obstacles (crowd/obstacles.hpp: addCircle).
  std::vector<PathSpec> paths;      ///< Paths for `follow`; Behavior::path indexes this list.

  // ---- routing (routeScenario) ----
  /// The map agents are routed through; none for a scenario without one.
  std::shared_ptr<const GridMap> map;
  /// The .map file `map` was read from, as opened; empty for none (an output must not be it).
  std::string mapFile;
  RouteSpec route;
  /// Agents leaving by the nearest of several exits (every agent number once at most).
  std::vector<ExitSpec> exits;
  /// Every agent's route once routed, agent i at [routeOffsets[i], routeOffsets[i + 1]): empty
  /// for agents without one. routeOffsets is empty until routeScenario has run.
  std::vector<Vec2> routePoints;
  std::vector<std::int64_t> routeOffsets;
  /// Agents with a goal or exits that no route reaches: they stand where they are.
  std::size_t unreachableAgents = 0;

  /// What a run measures (crowd/measurement.hpp), in world coordinates: a simulator computes in
  /// its own frame (SimulatorConfig::origin), so MeasurementSampler moves the plan there.
  std::optional<MeasurementPlan> measure;
  /// Areas that scale the desired speed (Simulator::addSpeedZone), in world coordinates.
  std::vector<SpeedZoneSpec> speedZones;
  /// Where the world repeats along x (SimulatorConfig::periodicX), in world coordinates.
  PeriodicRange periodicX{};
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
