// A 3D world: agents are spheres with 3D positions, velocities and goals, avoiding each other by
// ORCA in three dimensions (RVO2-3D's semantics). Drones, fish, birds, or people on several
// floors at once. The step is the planar simulator's (the same phases in kernels/step_phases.hpp,
// the same backends' executors, the same agent grid and K-nearest rule), over Vec3 columns.
//
// What a 3D world has: goals (RVO2-3D's rule: head for the goal, no faster than prefSpeed) or
// fixed preferred velocities, the steering behaviours that need no planar geometry (seek, flee,
// arrive, separation, pursue, evade, wander; checkBehavior3) with their state (targets, wander
// directions), deadlock breaking as in the plane, per-agent parameters, arrivals and their
// removal. What it has not (yet): obstacles,
// paths, routes and planners; timeHorizonObst is not used.
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
#include <crowd/phase_times.hpp>
#include <crowd/simulator_config.hpp>
#include <crowd/kernels/vec3.hpp>

namespace crowd {

template <class Vector>
struct SimulatorCore;
struct StepRequest3;

/// Everything needed to add one agent to a 3D world.
struct AgentDef3 {
  Vec3 position{0.0f};
  Vec3 velocity{0.0f};            ///< Initial velocity.
  std::optional<Vec3> goal;       ///< If set, the preferred velocity heads here.
  Vec3 prefVelocity{0.0f};        ///< Fixed preferred velocity, used when there is no goal.
  AgentParams params;             ///< radius is the sphere's; timeHorizonObst is not used.
  /// What steers it (the default: RVO2-3D's goal rule); only checkBehavior3's behaviours.
  Behavior behavior;
  std::optional<AgentId> target;  ///< The agent it pursues, evades, seeks or flees (must be alive).
};

class Simulator3 {
 public:
  /// The configuration's timeStep, threads, cellSize, exactRvo2 (no deadlock breaking and no
  /// speed clamp: RVO2-3D's results), removeArrived, seed (wander and the deadlock jitter) and
  /// backend apply as in the planar simulator; origin does not.
  /// Auto picks the GPU when there is a usable one, as in the plane.
  explicit Simulator3(const SimulatorConfig& config = {});
  ~Simulator3();
  /// A simulator moved from may only be assigned to or destroyed.
  Simulator3(Simulator3&&) noexcept;
  Simulator3& operator=(Simulator3&&) noexcept;

  const SimulatorConfig& config() const;
  /// Changes the settings between steps; the backend stays the one chosen at construction.
  void setConfig(const SimulatorConfig& config);

  /// Throws std::invalid_argument for a value outside crowd/limits.hpp's bounds.
  AgentId addAgent(const AgentDef3& def);
  bool removeAgent(AgentId id);
  bool contains(AgentId id) const;
  std::size_t agentCount() const;

  // Accessors throw std::out_of_range for an id that is not alive.
  Vec3 position(AgentId id) const;
  Vec3 velocity(AgentId id) const;
  Vec3 prefVelocity(AgentId id) const;  ///< As used in the last step (or set by setPrefVelocity).
  std::optional<Vec3> goal(AgentId id) const;
  /// The agent's parameters (shared with every agent of its profile). The reference is good
  /// until the next addAgent, setParams or setBehavior; copy it to keep it.
  const AgentParams& params(AgentId id) const;
  bool hasArrived(AgentId id) const;
  void setPosition(AgentId id, Vec3 position);
  void setVelocity(AgentId id, Vec3 velocity);
  void setGoal(AgentId id, Vec3 goal);
  void setPrefVelocity(AgentId id, Vec3 prefVelocity);  ///< Clears the goal.
  void setParams(AgentId id, const AgentParams& params);
  /// The agent's behaviour; good until the next addAgent, setParams or setBehavior, as params.
  const Behavior& behavior(AgentId id) const;
  /// The agent `id` pursues, evades, seeks or flees, if it is alive.
  std::optional<AgentId> target(AgentId id) const;
  /// Throws std::invalid_argument when `target` is not a live agent or is `id` itself.
  void setTarget(AgentId id, std::optional<AgentId> target);
  /// Throws std::invalid_argument for a behaviour checkBehavior3 refuses.
  void setBehavior(AgentId id, const Behavior& behavior);

  /// Every agent, in the order they were added (ascending id among those added together).
  std::span<const AgentId> ids() const;
  std::span<const Vec3> positions() const;
  std::span<const Vec3> velocities() const;
  std::vector<float> radii() const;
  std::vector<float> maxSpeeds() const;

  /// One step; throws SimulationError, changing nothing, when some agent would get a
  /// non-finite velocity or position.
  void step();
  std::int64_t stepCount() const;
  /// Seconds simulated: the sum of the steps' time steps (setConfig may change it between steps).
  double time() const;
  /// Agents that arrived during the last step (removed ones included when removeArrived).
  const std::vector<Arrival>& lastArrivals() const;
  std::size_t arrivedCount() const;
  const PhaseTimes& lastStepTimes() const;
  /// Neighbour candidates examined per agent in the last step.
  double lastCandidatesPerAgent() const;
  std::string backendName() const;
  /// Uploads the agents to the device now (a GPU backend), so that a world the device cannot
  /// hold fails here rather than at the first step. Throws std::runtime_error if it cannot.
  void prepare();
  /// Device memory the backend holds, in bytes (0 on the CPU).
  std::size_t deviceMemoryBytes() const;
  /// Half-spaces built per agent in the last step, a cost figure.
  double lastOrcaLinesPerAgent() const;
  /// New velocities the last step pulled back into the maxSpeed ball (none with exactRvo2).
  std::int64_t lastSpeedClamps() const;
  /// Host memory held for the agents and the backend's working copies, in bytes.
  std::size_t memoryBytes() const;
  /// A hash of every agent's id, position and velocity bits: equal hashes mean identical states.
  std::uint64_t stateHash() const;

 private:
  std::size_t denseOf(AgentId id) const;  // Throws std::out_of_range.
  StepRequest3 stepRequest();
  // A new or re-steered agent's steering state starts afresh.
  void startSteering(AgentId id, const Behavior& behavior);

  // The agents, their profiles, the backend and the step's bookkeeping, as in the planar
  // Simulator (simulator_core.hpp).
  std::unique_ptr<SimulatorCore<Vec3>> core_;
  std::vector<AgentId> targets_;     // By AgentId::index; empty until some agent has a target.
  // Wander directions by AgentId::index, before and after a step; kept once some profile wanders.
  bool wandering_ = false;
  std::vector<Vec3> wanderIn_, wanderOut_;
};

}  // namespace crowd
