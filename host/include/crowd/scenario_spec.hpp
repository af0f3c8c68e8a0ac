// What a scenario file says, before its random groups are generated: the settings, the agents
// it lists one by one, the groups it describes by count, and the obstacles. A spec plus a seed
// gives a Scenario (expandScenario in crowd/scenario.hpp), so running a file with another
// seed regenerates its groups without reading the file again.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <crowd/agent_params.hpp>
#include <crowd/behavior.hpp>
#include <crowd/distribution.hpp>
#include <crowd/errors.hpp>
#include <crowd/grid_map.hpp>
#include <crowd/measurement.hpp>
#include <crowd/navigation.hpp>
#include <crowd/route_planner.hpp>
#include <crowd/simulator.hpp>

namespace crowd {

/// A bad scenario. The message names the source, the JSON path and the problem, e.g.
/// "crowd.json: /agents/3/radius: must be >= 0, got -1".
class ScenarioError : public InputError {
 public:
  using InputError::InputError;
};

/// A circular obstacle.
struct CircleSpec {
  Vec2 center{0.0f, 0.0f};
  float radius = 1.0f;  ///< [Limit: limits::kRadius, > 0]
};

/// A path for `follow`: an open polyline, or a closed loop.
struct PathSpec {
  std::vector<Vec2> points;
  bool loop = false;
};

/// Agents that leave by whichever of several exits is nearest to them by route length (needs a
/// map): agents numbered [firstAgent, firstAgent + count).
struct ExitSpec {
  std::size_t firstAgent = 0;
  std::size_t count = 0;
  std::vector<Vec2> points;  ///< World positions. [Limit: at least one; limits::kCoordinate]
};

/// How agents are routed through a scenario's map (crowd/route_planner.hpp).
/// A file's "route" object: planner options, the planning radius and re-planning
/// (crowd/navigation.hpp). [Limit: radius limits::kRadius; clearanceMargin 0 .. limits::kRadius;
/// replanAfter 0 .. limits::kReplanAfter; replanDistance (0, limits::kRadius]]
using RouteSpec = NavigationOptions;

/// A value drawn per agent of a group where a file gives a distribution in place of a number
/// (crowd/distribution.hpp): an AgentParams field other than maxNeighbors, or "startTime".
struct DrawSpec {
  std::string key;  ///< The field's scenario key ("prefSpeed", "radius", ..., "startTime").
  ValueDistribution distribution;
};

/// An area that scales the desired speed of whoever stands in it (Simulator::addSpeedZone).
struct SpeedZoneSpec {
  std::vector<Vec2> polygon;  ///< [Limit: at least 3 vertices within limits::kCoordinate]
  float factor = 1.0f;        ///< [Limit: limits::kSpeedFactor]
};

/// A group of agents generated from a few numbers (a file's "groups" entry).
struct GroupSpec {
  enum class Shape {
    circle,     ///< `count` agents evenly around a circle, each heading for the antipodal point.
    rectangle,  ///< `count` agents on a lattice over [min, max], or uniformly at random in it.
  };
  enum class Goal {
    none,          ///< Agents stand still (rectangles only).
    point,         ///< Every agent heads for goalVector.
    offset,        ///< Each agent heads for its start plus goalVector.
    box,           ///< Each agent heads for a random point of [goalMin, goalMax].
    prefVelocity,  ///< Every agent keeps the preferred velocity goalVector.
  };
  Shape shape = Shape::circle;
  std::size_t count = 0;     ///< [Limit: the scenario's total <= limits::kMaxScenarioAgents]
  std::uint64_t stream = 0;  ///< Which random stream of the seed it draws from (a file: the group's index).
  AgentParams params;
  float circleRadius = 0.0f;  ///< [Limit: >= 0; the circle inside the coordinate limit]
  Vec2 center{0.0f, 0.0f};    ///< Circle centre.
  Vec2 min{0.0f, 0.0f};       ///< Rectangle corners. [Limit: min <= max in both coordinates]
  Vec2 max{0.0f, 0.0f};
  bool randomPlacement = false;  ///< Uniform in the rectangle rather than a lattice.
  Goal goal = Goal::none;
  Vec2 goalVector{0.0f, 0.0f};  ///< The goal point, offset or preferred velocity.
  Vec2 goalMin{0.0f, 0.0f};     ///< The box goals are drawn from. [Limit: goalMin <= goalMax]
  Vec2 goalMax{0.0f, 0.0f};
  /// With Goal::none: every agent leaves by the nearest of these exits by route length (needs a
  /// map). [Limit: limits::kCoordinate]
  std::vector<Vec2> exits;
  Behavior behavior;       ///< Every agent of the group steers alike.
  float startTime = 0.0f;  ///< Every agent's premovement time. [Limit: limits::kStartTime]
  /// Values drawn per agent, over params and startTime (the later entry wins for a key).
  std::vector<DrawSpec> draws;
  /// Every agent of the group targets this agent (its number; see Scenario::agents).
  std::optional<std::size_t> target;
};

/// Everything a scenario file says. Agents are numbered as the file orders them: `agents`
/// first, then each group's agents in turn.
struct ScenarioSpec {
  std::string name;              ///< Where it came from (a file path); messages start with it.
  float timeStep = 0.25f;        ///< [Limit: limits::kTimeStep]
  std::int64_t steps = 1000;     ///< Steps a run takes unless told otherwise. [Limit: >= 0]
  std::uint64_t seed = 1;        ///< The seed the file gives its random groups.
  bool removeArrived = false;    ///< Remove agents once they reach their goal.
  std::vector<AgentDef> agents;  ///< The agents listed one by one.
  std::vector<GroupSpec> groups;
  std::vector<std::vector<Vec2>> obstacles;
  std::vector<CircleSpec> circles;
  std::vector<PathSpec> paths;
  /// The grid map agents are routed through, placed in the world (a file's "map", read and
  /// checked when the file is read); none: agents head straight for their goals.
  std::shared_ptr<const GridMap> map;
  /// The .map file `map` was read from (a file's "map" naming one), as opened; empty for none.
  std::string mapFile;
  RouteSpec route;
  /// Exit sets of agents listed one by one (count 1 each); groups keep theirs in GroupSpec.
  std::vector<ExitSpec> exits;
  /// Measurement areas and lines a run observes (a file's "measure"); none: nothing measured.
  /// [Limit: checkMeasurementPlan's rules; vertices and line ends within limits::kCoordinate]
  std::optional<MeasurementPlan> measure;
  std::vector<SpeedZoneSpec>
      speedZones;  ///< A file's "speedZones", in order (the first holding an agent wins).
  /// A file's "periodic": where the world repeats along x, in world coordinates (off: none).
  /// [Limit: to > from within limits::kCoordinate; to - from > 2 x every neighborDist]
  PeriodicRange periodicX{};
};

/// Reads and checks a scenario file (validateScenarioSpec included). Throws ScenarioError.
ScenarioSpec loadScenarioSpec(const std::string& path);
/// A scenario file's text, for reading it once and parsing it as what it says it is (a pipe can
/// be read only once). Throws ScenarioError for a file that cannot be read, holds a NUL byte or
/// is larger than limits::kMaxScenarioFileBytes.
std::string readScenarioFileText(const std::string& path);

/// As loadScenarioSpec, from text; `source` names it in messages.
ScenarioSpec parseScenarioSpec(std::string_view jsonText, const std::string& source);

/// Checks a spec, one built in code included, against the limits (crowd/limits.hpp) and the
/// file format's rules: every value within its limit, rectangles with min <= max, generated
/// agents and goals inside the coordinate limit, no more than limits::kMaxScenarioAgents agents,
/// usable obstacle polygons. Throws ScenarioError naming `spec.name` and the JSON pointer the
/// value has in a file, e.g. "crowd.json: /groups/1/count: ...".
void validateScenarioSpec(const ScenarioSpec& spec);

}  // namespace crowd
