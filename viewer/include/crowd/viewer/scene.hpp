// What a picture shows, taken from a simulator between steps (or from a recorded trajectory):
// the static scene (obstacle polygons, circles) once, and each frame's agents as instances laid
// out exactly as the GPU instance buffer holds them. Coordinates are the simulator's frame.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <crowd/scenario.hpp>
#include <crowd/simulator.hpp>

namespace crowd::viewer {

/// What an agent's colour shows.
enum class ColorBy : std::uint8_t {
  Speed,     ///< Speed / maxSpeed on a blue-to-red ramp.
  Group,     ///< Its profile (parameters and behaviour): one colour per profile.
  Behavior,  ///< Its first steering behaviour.
  Density,   ///< Agents within two radii of it, from 0 (blue) to 6 or more (red).
};
inline constexpr std::array<const char*, 4> kColorByNames = {"speed", "group", "behavior", "density"};

/// One agent as drawn: the instance buffer's layout (6 floats).
struct AgentInstance {
  float x, y;    ///< Centre.
  float hx, hy;  ///< Heading, a unit vector; (0, 0) at rest.
  float radius;
  float value;  ///< Colour key in [0, 1] (ColorBy); a categorical key is k / 16.
};
static_assert(sizeof(AgentInstance) == 6 * sizeof(float));

/// Places a picture marks so that it says where the crowd is going and where it is measured,
/// in the simulator's frame.
struct Marks {
  std::vector<Vec2> exits;
  /// The agents' distinct goals; none when there are more than kMaxGoals (every agent its own
  /// goal, say, where marks would only hide the crowd).
  std::vector<Vec2> goals;
  std::vector<std::vector<Vec2>> areas;    ///< Measurement areas.
  std::vector<std::array<Vec2, 2>> lines;  ///< Measurement lines.
  static constexpr std::size_t kMaxGoals = 64;
  bool empty() const { return exits.empty() && goals.empty() && areas.empty() && lines.empty(); }
  /// Adds `other`'s marks to these.
  void add(const Marks& other) {
    exits.insert(exits.end(), other.exits.begin(), other.exits.end());
    goals.insert(goals.end(), other.goals.begin(), other.goals.end());
    areas.insert(areas.end(), other.areas.begin(), other.areas.end());
    lines.insert(lines.end(), other.lines.begin(), other.lines.end());
  }
};

/// The exits and measurement areas and lines of `scenario` (world coordinates) in the frame of
/// a simulator whose origin is `origin` (SimulatorConfig::origin).
Marks scenarioMarks(const Scenario& scenario, glm::dvec2 origin);

/// The parts that do not move.
struct StaticScene {
  std::vector<std::vector<Vec2>> polygons;    ///< As added; clockwise ones are boundaries.
  std::vector<std::array<float, 3>> circles;  ///< x, y, radius.
  Vec2 lo{0.0f, 0.0f};  ///< Bounds of the obstacles, the agents when captured and their goals.
  Vec2 hi{0.0f, 0.0f};
  Marks marks;
  /// What the legend needs to say what the colours mean: the agents' maximum speed when they
  /// all share one (m/s; 0 when they differ, and Speed is then a fraction of each one's own),
  /// and the categorical keys present (ColorBy::Group: profile % 16; Behavior: first kind + 1).
  float commonMaxSpeed = 0.0f;
  std::vector<int> profileKeys, behaviorKeys;
  std::size_t profiles = 0;  ///< Profiles in all (keys repeat beyond 16).

  /// Obstacles and circles of `sim`; bounds over them and its agents' positions, and their goals
  /// too unless `goals` is false (a picture of the crowd as it stands).
  static StaticScene fromSimulator(const Simulator& sim, bool goals = true);
};

/// One moment of the simulation.
struct Frame {
  std::int64_t step = 0;
  double time = 0.0;
  std::vector<AgentInstance> agents;
  std::vector<AgentId> ids;  ///< Same order as `agents`.
  std::vector<Vec2> route;   ///< The selected agent's route, if any (a polyline).
  std::vector<Vec2> links;   ///< Selected agent to each neighbour: pairs of points.
  /// The selected agent's ORCA half-planes against those neighbours, drawn in velocity space
  /// around it (a velocity v at position + v): for each line a long segment, then a short tick
  /// into the side where its new velocity may lie; and its velocity. Pairs of points.
  std::vector<Vec2> halfPlanes;
  std::vector<Vec2> trails;  ///< Recent paths of the agents (Trails), pairs of points.
};

/// Where each agent has been lately: the last kLength positions it was published at, kept by
/// agent id, drawn as short tails.
class Trails {
 public:
  static constexpr int kLength = 24;
  /// Most agents that get trails (beyond it they cost more than they show).
  static constexpr std::size_t kMaxAgents = 50000;
  /// Records the frame's positions and writes the trails into frame.trails.
  void update(Frame& frame);
  void clear() { history_.clear(); }

 private:
  struct History {
    std::uint32_t generation = 0;
    int count = 0;  // Positions held (up to kLength), the newest at `next - 1`.
    int next = 0;
    std::array<Vec2, kLength> points{};
  };
  std::vector<History> history_;  // By AgentId::index.
};

/// The agents of `sim` (host state) into `frame`, coloured by `colorBy`.
void captureAgents(const Simulator& sim, ColorBy colorBy, Frame& frame);

/// The selected agent's route (its own route or its path), neighbour links and ORCA half-planes
/// against its neighbours into `frame` (cleared when `selected` is not a live agent).
void captureSelection(const Simulator& sim, AgentId selected, Frame& frame);

/// Agents whose disc holds world point `p` in `frame`: the nearest such, or an invalid id.
AgentId agentAt(const Frame& frame, Vec2 p);

}  // namespace crowd::viewer
