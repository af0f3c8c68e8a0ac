// What every simulator does, in either world: agents with stable handles, their parameters and
// behaviours, a step() that runs the phase list (grid -> neighbours -> steering -> ORCA ->
// commit) on a backend, and the figures each step leaves. BasicSimulator<Vec2> is the planar
// Simulator's base (crowd/simulator.hpp, which adds obstacles, paths and navigation) and
// BasicSimulator<Vec3> the 3D Simulator3's (crowd/simulator3.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <crowd/agent_id.hpp>
#include <crowd/agent_params.hpp>
#include <crowd/behavior.hpp>
#include <crowd/device_agents.hpp>
#include <crowd/kernels/vec2.hpp>
#include <crowd/kernels/vec3.hpp>
#include <crowd/phase_times.hpp>
#include <crowd/simulator_config.hpp>

namespace crowd {

/// Everything needed to add one agent.
template <class Vector>
struct AgentDefOf {
  Vector position{0.0f};
  Vector velocity{0.0f};          ///< Initial velocity.
  std::optional<Vector> goal;     ///< If set, the preferred velocity heads here (see prefVelocity).
  Vector prefVelocity{0.0f};      ///< Fixed preferred velocity, used when there is no goal.
  AgentParams params;             ///< In 3D, radius is the sphere's and timeHorizonObst is not used.
  Behavior behavior;              ///< What steers it; the default is RVO2's goal rule.
  std::optional<AgentId> target;  ///< The agent it pursues, evades, seeks or flees (must be alive).
  /// Premovement: seconds into the run before which the agent stands (it is still a body others
  /// avoid; its model's desired velocity is zero until then). [Limit: limits::kStartTime]
  float startTime = 0.0f;
};
using AgentDef = AgentDefOf<Vec2>;
using AgentDef3 = AgentDefOf<Vec3>;

template <class Vector>
struct SimulatorCore;
struct StaticWorldView;

template <class Vector>
class BasicSimulator {
 public:
  using Def = AgentDefOf<Vector>;

  virtual ~BasicSimulator();
  /// A simulator moved from may only be assigned to or destroyed.
  BasicSimulator(BasicSimulator&&) noexcept;
  BasicSimulator& operator=(BasicSimulator&&) noexcept;

  const SimulatorConfig& config() const;
  /// Changes settings between steps; the backend stays the one chosen at construction. Throws
  /// std::invalid_argument outside the limits. Turning removeArrived on removes those already
  /// arrived.
  void setConfig(const SimulatorConfig& config);

  // --- agents -------------------------------------------------------------------------------
  /// Throws std::invalid_argument for non-finite vectors, parameters outside crowd/limits.hpp's
  /// bounds, a behaviour this world cannot use, or a target that is not a live agent.
  AgentId addAgent(const Def& def);
  /// Returns false if `id` does not name a live agent.
  bool removeAgent(AgentId id);
  bool contains(AgentId id) const;
  std::size_t agentCount() const;

  /// Per-agent access; each throws std::out_of_range for a stale or unknown id.
  Vector position(AgentId id) const;
  Vector velocity(AgentId id) const;
  Vector prefVelocity(AgentId id) const;  ///< As used in the last step (or set by setPrefVelocity).
  std::optional<Vector> goal(AgentId id) const;
  /// The agent's parameters (shared with every agent of its profile). The reference is good
  /// until the next addAgent, setParams or setBehavior; copy it to keep it.
  const AgentParams& params(AgentId id) const;
  bool hasArrived(AgentId id) const;
  void setPosition(AgentId id, Vector position);
  void setVelocity(AgentId id, Vector velocity);
  void setGoal(AgentId id, Vector goal);
  void setPrefVelocity(AgentId id, Vector prefVelocity);  ///< Clears the goal.
  /// Every agent's preferred velocity at once, in dense order (as ids()), clearing their goals:
  /// setPrefVelocity for all, without a look-up per agent. Throws std::invalid_argument, changing
  /// nothing, unless there is one finite vector per agent.
  void setPrefVelocities(std::span<const Vector> prefVelocities);
  void setParams(AgentId id, const AgentParams& params);

  // --- steering (crowd/behavior.hpp) --------------------------------------------------------
  /// The agent's behaviour; good until the next addAgent, setParams or setBehavior, as params.
  const Behavior& behavior(AgentId id) const;
  /// Throws std::invalid_argument with the reason for a behaviour this world cannot use. The
  /// agent's steering state (wander direction, path segment, last seen target) starts afresh.
  void setBehavior(AgentId id, const Behavior& behavior);
  /// The agent it pursues, evades, seeks or flees; nullopt for none, or once that agent is removed.
  std::optional<AgentId> target(AgentId id) const;
  /// Throws std::invalid_argument when `target` is not a live agent or is the agent itself.
  void setTarget(AgentId id, std::optional<AgentId> target);
  /// Distinct (parameters, behaviour) pairs the agents use: the rows of the profile table.
  std::size_t profileCount() const;
  /// The agent's row of the profile table: agents with equal parameters and behaviour share it.
  std::uint32_t profileIndex(AgentId id) const;

  /// Dense views, all in the same order (the order agents were added in, less removed ones),
  /// valid until the next add/remove/step.
  std::span<const AgentId> ids() const;
  std::span<const Vector> positions() const;
  std::span<const Vector> velocities() const;
  /// Each agent's radius, in dense order.
  std::vector<float> radii() const;
  /// Each agent's maxSpeed, in dense order.
  std::vector<float> maxSpeeds() const;

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
  /// ORCA half-planes (or half-spaces) per agent in the last step (a cost figure).
  double lastOrcaLinesPerAgent() const;
  /// New velocities the last step pulled back into their maxSpeed disc (rounding, or the LP's
  /// fallback when a crowd is crushed); always 0 with exactRvo2.
  std::int64_t lastSpeedClamps() const;
  /// Local-planner candidates costed in the last step (a cost figure for benchmarks).
  std::int64_t lastPlanCandidates() const;
  /// "cpu" or "cuda".
  std::string backendName() const;
  /// The CPU threads the last step ran on: config().threads when set, else the library's choice
  /// (with threads = 0 the CPU backend times the counts it may use and runs the fastest, see
  /// host/src/sim/cpu/thread_governor.hpp). 0 for the GPU backend, or before the first step.
  int lastStepThreads() const;
  /// Device memory the backend holds (0 for the CPU backend).
  std::size_t deviceMemoryBytes() const;
  /// The device's copy of the agents, valid until the next step or change (see DeviceAgentsOf).
  DeviceAgentsOf<Vector> deviceAgents() const;
  /// Host memory held for the agents, their steering state, the world and the backend's buffers.
  std::size_t memoryBytes() const;

  /// A hash of every agent's id, position and velocity bits: equal hashes mean identical states.
  std::uint64_t stateHash() const;

 protected:
  /// Throws std::invalid_argument for a configuration outside its limits, std::runtime_error
  /// when the backend asked for cannot run.
  explicit BasicSimulator(const SimulatorConfig& config);

  // What a world adds to the shared verbs.
  /// Throws std::invalid_argument with the reason when this world cannot use `behavior`.
  virtual void requireUsable(const Behavior& behavior) = 0;
  /// The agent's behaviour was set (readies what it will use).
  virtual void behaviorSet(AgentId, const Behavior&) {}
  /// Runs before each step (navigation plans routes here).
  virtual void beforeStep() {}
  /// The world's static arrays for the next step, in host memory (none by default).
  virtual StaticWorldView staticWorld(float maxObstacleRange);
  /// Host memory the world holds beyond the agents.
  virtual std::size_t worldBytes() const { return 0; }

  /// The dense index of a live agent; throws std::out_of_range for any other id.
  std::size_t denseOf(AgentId id) const;

  // The agents, their profiles and steering state, the backend and the step's bookkeeping.
  std::unique_ptr<SimulatorCore<Vector>> core_;
};

extern template class BasicSimulator<Vec2>;
extern template class BasicSimulator<Vec3>;

}  // namespace crowd
