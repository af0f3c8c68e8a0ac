// The simulator facade: agents with stable handles, static obstacles, paths, and a step() that
// runs the phase list (grid -> neighbours -> steering -> ORCA -> commit) on a backend.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <crowd/agent_id.hpp>
#include <crowd/agent_params.hpp>
#include <crowd/behavior.hpp>
#include <crowd/navigation.hpp>
#include <crowd/obstacles.hpp>
#include <crowd/phase_times.hpp>
#include <crowd/reference_line.hpp>
#include <crowd/simulator_config.hpp>
#include <crowd/kernels/profile_terms.hpp>
#include <crowd/kernels/vec2.hpp>

namespace crowd {

/// The agents as a GPU backend holds them between steps, in device memory: what a viewer reads to
/// draw them without copying them to the host (CUDA-OpenGL interop). Dense order; the radius and
/// maxSpeed of agent i are terms[profile[i]].
struct DeviceAgents {
  const Vec2* position = nullptr;
  const Vec2* velocity = nullptr;
  const std::uint32_t* profile = nullptr;
  const ProfileTerms* terms = nullptr;
  std::size_t count = 0;  ///< 0: no device state (the CPU backend, or the host changed it since).
};

/// Everything needed to add one agent.
struct AgentDef {
  Vec2 position{0.0f, 0.0f};
  Vec2 velocity{0.0f, 0.0f};      ///< Initial velocity.
  std::optional<Vec2> goal;       ///< If set, the preferred velocity heads here (see prefVelocity).
  Vec2 prefVelocity{0.0f, 0.0f};  ///< Fixed preferred velocity, used when there is no goal.
  AgentParams params;
  Behavior behavior;              ///< What steers it; the default is RVO2's goal rule.
  std::optional<AgentId> target;  ///< The agent it pursues, evades, seeks or flees (must be alive).
};

template <class Vector>
struct SimulatorCore;
class Navigator;
class SteeringStore;
struct ProfileTable;
struct StepRequest;

class Simulator {
 public:
  explicit Simulator(const SimulatorConfig& config = {});
  ~Simulator();
  /// A simulator moved from may only be assigned to or destroyed.
  Simulator(Simulator&&) noexcept;
  Simulator& operator=(Simulator&&) noexcept;

  const SimulatorConfig& config() const;
  /// Changes settings between steps. Throws std::invalid_argument outside the limits.
  void setConfig(const SimulatorConfig& config);

  // --- agents -------------------------------------------------------------------------------
  /// Throws std::invalid_argument for non-finite vectors or parameters outside their limits.
  AgentId addAgent(const AgentDef& def);
  /// Returns false if `id` does not name a live agent.
  bool removeAgent(AgentId id);
  bool contains(AgentId id) const;
  std::size_t agentCount() const;

  /// Per-agent access; each throws std::out_of_range for a stale or unknown id.
  Vec2 position(AgentId id) const;
  Vec2 velocity(AgentId id) const;
  Vec2 prefVelocity(AgentId id) const;  ///< As used in the last step (or set by setPrefVelocity).
  std::optional<Vec2> goal(AgentId id) const;
  /// The agent's parameters (shared with every agent of its profile). The reference is good
  /// until the next addAgent, setParams or setBehavior; copy it to keep it.
  const AgentParams& params(AgentId id) const;
  bool hasArrived(AgentId id) const;
  void setPosition(AgentId id, Vec2 position);
  void setVelocity(AgentId id, Vec2 velocity);
  void setGoal(AgentId id, Vec2 goal);
  void setPrefVelocity(AgentId id, Vec2 prefVelocity);  ///< Clears the goal.
  void setParams(AgentId id, const AgentParams& params);

  // --- steering (crowd/behavior.hpp) --------------------------------------------------------
  /// The agent's behaviour; good until the next addAgent, setParams or setBehavior, as params.
  const Behavior& behavior(AgentId id) const;
  /// Throws std::invalid_argument with checkBehavior's message for an unusable behaviour. The
  /// agent's steering state (wander direction, path segment, last seen target) starts afresh.
  void setBehavior(AgentId id, const Behavior& behavior);
  /// The agent it pursues, evades, seeks or flees; nullopt for none, or once that agent is removed.
  std::optional<AgentId> target(AgentId id) const;
  /// Throws std::invalid_argument when `target` is not a live agent or is the agent itself.
  void setTarget(AgentId id, std::optional<AgentId> target);
  /// Adds a path for `follow`: an open polyline, or a closed loop (the last point joins the
  /// first). Throws std::invalid_argument for fewer than 2 points (3 for a loop), points outside
  /// the coordinate limit, or repeated consecutive points. Returns its number (Behavior::path).
  int addPath(std::span<const Vec2> points, bool loop);
  int pathCount() const { return static_cast<int>(pathStart_.size()) - 1; }
  /// Path `path`'s reference line for the Frenet planner (Behavior::planner): a spline through
  /// its points sampled every kReferenceSpacing. Lines are made for the paths planners use (their
  /// Behavior::path, or a planner's own route): empty for any other path, or one too short.
  std::span<const ReferencePoint> referenceLine(int path) const;
  /// Gives the agent its own route, a path added with addPath (or -1 for none): what `follow`
  /// follows for agents whose Behavior::path is kOwnRoute. Its path segment starts afresh.
  /// Throws std::invalid_argument for an unknown path.
  void setRoute(AgentId id, int path);
  /// The agent's own route, or -1.
  int route(AgentId id) const;
  /// Distinct (parameters, behaviour) pairs the agents use: the rows of the profile table.
  std::size_t profileCount() const;
  /// The agent's row of the profile table: agents with equal parameters and behaviour share it.
  std::uint32_t profileIndex(AgentId id) const;
  std::span<const Vec2> pathPoints(int path) const;
  bool pathLoops(int path) const;

  /// Dense views, all in the same order (the order agents were added in, less removed ones),
  /// valid until the next add/remove/step.
  std::span<const AgentId> ids() const;
  std::span<const Vec2> positions() const;
  std::span<const Vec2> velocities() const;
  /// Each agent's radius, in dense order.
  std::vector<float> radii() const;
  /// Each agent's maxSpeed, in dense order.
  std::vector<float> maxSpeeds() const;

  // --- navigation (crowd/navigation.hpp) ---------------------------------------------------
  /// Gives the simulator a grid map to route agents through, placed in the simulator's frame
  /// (see SimulatorConfig::origin); replaces an earlier one (navigating agents keep their goals
  /// and are re-planned on the new map). Throws std::invalid_argument for options outside their
  /// limits (navigationOptionsProblem) or an empty map.
  void setNavigation(const GridMap& map, const NavigationOptions& options = {});
  bool hasNavigation() const { return navigator_ != nullptr; }
  /// The agent walks to the nearest of `goals` (by route length) along its own route, planned
  /// before the next step (unless `keepRoute` and it has one already: setRoute) and planned again
  /// from where it stands whenever it makes no progress. Its goal becomes its route's end. An
  /// agent on the default goal rule switches to following its own route; one that no route
  /// leads from stands still (prefVelocity 0) and counts as unreachable. Throws std::logic_error
  /// without setNavigation, std::invalid_argument for no goals or a goal outside the coordinate
  /// limit.
  void navigate(AgentId id, std::span<const Vec2> goals, bool keepRoute = false);
  /// Counts and time so far; all zero without setNavigation.
  NavigationStats navigationStats() const;

  // --- obstacles ----------------------------------------------------------------------------
  /// Adds a polygon obstacle (see ObstacleSet::addPolygon). Returns its number.
  int addObstacle(std::span<const Vec2> vertices);
  /// Adds a circular obstacle (see ObstacleSet::addCircle). Returns its number.
  int addCircle(Vec2 center, float radius);
  const ObstacleSet& obstacles() const { return obstacles_; }

  // --- stepping -----------------------------------------------------------------------------
  /// Readies the backend now rather than at the first step: the CUDA backend uploads the state,
  /// and throws std::runtime_error if the device cannot hold it.
  void prepare();
  /// Advances every agent by one time step. Throws SimulationError, leaving the state as it
  /// was, if some agent's new velocity or position would not be finite (the message names the
  /// agent and the step).
  void step();
  std::int64_t stepCount() const;
  /// Seconds simulated: the sum of the steps' time steps (setConfig may change it between steps).
  double time() const;
  /// Agents that arrived during the last step (removed ones included when removeArrived).
  const std::vector<Arrival>& lastArrivals() const;
  /// How many live agents have a goal and are within their goal radius.
  std::size_t arrivedCount() const;
  const PhaseTimes& lastStepTimes() const;
  /// Neighbour candidates examined per agent in the last step (a cost figure for benchmarks).
  double lastCandidatesPerAgent() const;
  /// ORCA half-planes per agent in the last step (agent and obstacle lines; a cost figure).
  double lastOrcaLinesPerAgent() const;
  /// New velocities the last step pulled back into their maxSpeed disc (rounding, or the LP's
  /// fallback when a crowd is crushed); always 0 with exactRvo2.
  std::int64_t lastSpeedClamps() const;
  /// Local-planner candidates costed in the last step (a cost figure for benchmarks).
  std::int64_t lastPlanCandidates() const;
  std::string backendName() const;
  /// Device memory the backend holds (0 for the CPU backend).
  std::size_t deviceMemoryBytes() const;
  /// The device's copy of the agents, valid until the next step or change (see DeviceAgents).
  DeviceAgents deviceAgents() const;
  /// Host memory held for the agents, the obstacles and the backend's step buffers.
  std::size_t memoryBytes() const;

  /// A hash of every agent's id, position and velocity bits: equal hashes mean identical states.
  std::uint64_t stateHash() const;

 private:
  /// Throws std::invalid_argument when `behavior` cannot be used here (checkBehavior, and a
  /// planner's path must have a reference line).
  void requireUsable(const Behavior& behavior);
  /// Makes path `path`'s reference line, once (nothing for a path too short for one).
  void makeReferenceLine(int path);
  std::size_t denseOf(AgentId id) const;  // Throws std::out_of_range.
  // Per-agent steering state, made when the first agent steers or gets a target.
  SteeringStore& steeringStore();
  // What the backend needs for the next step (the obstacle grid readied for `table`).
  StepRequest stepRequest(const ProfileTable& table);
  // Plans routes for navigating agents that need one (navigation.hpp); runs before a step.
  void navigateRoutes();

  // The agents, their profiles, the backend and the step's bookkeeping, as in Simulator3
  // (simulator_core.hpp).
  std::unique_ptr<SimulatorCore<Vec2>> core_;
  ObstacleSet obstacles_;
  std::unique_ptr<SteeringStore> steering_;
  std::unique_ptr<Navigator> navigator_;
  std::vector<Vec2> pathPoints_;
  std::vector<int> pathStart_{0};
  std::vector<std::uint8_t> pathLoop_;
  std::vector<ReferencePoint> linePoints_;  // The reference lines made so far, one after another.
  std::vector<int> lineBegin_;              // Per path: where its line lies in linePoints_.
  std::vector<int> lineEnd_;
  std::vector<std::uint8_t> lineTried_;     // Per path: whether a line was made (or found too short).
};

}  // namespace crowd
