// What the planar Simulator and the 3D Simulator3 hold and do alike, written once over the
// vector type: the agents and their handles, the interned profiles, the backend and the host
// copy it may hold stale, the per-agent getters and setters, and the bookkeeping around a step
// (its cost figures, the non-finite refusal, arrivals and their removal). Each facade keeps
// what only its world has (obstacles, paths and navigation in the plane; targets and wander
// state in 3D) and builds its own StepRequest.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <crowd/agent_id.hpp>
#include <crowd/agent_params.hpp>
#include <crowd/behavior.hpp>
#include <crowd/limits.hpp>
#include <crowd/phase_times.hpp>
#include <crowd/simulator_config.hpp>

#include "sim/agent_store.hpp"
#include "sim/backend.hpp"

namespace crowd {

/// Throws std::invalid_argument unless `point` is within the coordinate limit (crowd/limits.hpp):
/// what keeps a step's maths finite.
template <class Vector>
void requirePoint(Vector point, const char* what) {
  if (const std::string problem = checkCoordinate(point, what); !problem.empty()) throw std::invalid_argument(problem);
}

/// Throws std::invalid_argument unless `velocity` is within the velocity limit.
template <class Vector>
void requireVelocity(Vector velocity, const char* what) {
  if (const std::string problem = checkVelocity(velocity, what); !problem.empty()) throw std::invalid_argument(problem);
}

/// Throws std::invalid_argument with checkAgentParams's message for parameters outside their limits.
void requireParams(const AgentParams& params);

/// The state and logic a simulator of Vec2 or Vec3 agents shares; the facades own one each
/// (behind a pointer, so that their public headers need not see it) and forward to it.
template <class Vector>
struct SimulatorCore {
  using Request = typename StepRequestFor<Vector>::Type;

  /// Throws std::invalid_argument for a configuration outside its limits, std::runtime_error
  /// when the backend asked for cannot run.
  explicit SimulatorCore(const SimulatorConfig& configuration);

  // --- agents and profiles -------------------------------------------------------------------
  std::size_t denseOf(AgentId id) const { return handles.denseOf(id); }  // Throws std::out_of_range.
  /// Checks what every agent definition has (vectors and parameters) against their limits; its
  /// behaviour and target are the facade's to check.
  template <class Def>
  static void requireAgentDef(const Def& def) {
    requirePoint(def.position, "position");
    requireVelocity(def.velocity, "velocity");
    requireVelocity(def.prefVelocity, "prefVelocity");
    if (def.goal) requirePoint(*def.goal, "goal");
    requireParams(def.params);
  }
  /// Appends a checked agent (goal or fixed preferred velocity, profile interned) and returns its
  /// handle. Throws std::length_error when the handles are used up.
  AgentId addAgent(Vector position, Vector velocity, std::optional<Vector> goal, Vector prefVelocity,
                   const AgentParams& params, const Behavior& behavior);
  /// Removes the agents at the ascending dense indices `sortedDense` (the host copy first brought
  /// up to date), freeing their handles.
  void removeDense(std::span<const std::size_t> sortedDense);
  bool removeAgent(AgentId id);
  // Most agents share a few parameter sets and behaviours; each pair is stored once.
  std::uint32_t internProfile(const AgentParams& params, const Behavior& behavior);
  /// The profile table, rebuilt only when a profile was added since.
  const ProfileTable& profileTable();

  Vector position(AgentId id) const;
  Vector velocity(AgentId id) const;
  Vector prefVelocity(AgentId id) const;
  std::optional<Vector> goal(AgentId id) const;
  const AgentParams& params(AgentId id) const { return profiles[agents.profile[denseOf(id)]]; }
  const Behavior& behavior(AgentId id) const { return behaviors[agents.profile[denseOf(id)]]; }
  bool hasArrived(AgentId id) const;
  std::span<const Vector> positions() const;
  std::span<const Vector> velocities() const;
  void setPosition(AgentId id, Vector position);
  void setVelocity(AgentId id, Vector velocity);
  void setGoal(AgentId id, Vector goal);
  void setPrefVelocity(AgentId id, Vector prefVelocity);
  void setParams(AgentId id, const AgentParams& params);
  /// Interns the agent's parameters with a new, already checked behaviour.
  void setBehavior(AgentId id, const Behavior& behavior);
  std::vector<float> radii() const;
  std::vector<float> maxSpeeds() const;

  // --- host copy ---------------------------------------------------------------------------
  // A GPU backend keeps the state on the device between steps; readers call syncHost() to
  // bring the host copy up to date, writers call hostChanged(), which syncs and then tells the
  // backend its copy is stale.
  void syncHost() const;
  void hostChanged();

  // --- settings and stepping ----------------------------------------------------------------
  /// Throws std::invalid_argument outside the limits or for another backend; removes those
  /// already arrived when removeArrived is turned on.
  void setConfig(const SimulatorConfig& configuration);
  /// The deadlock jitter the configuration asks for.
  float jitter() const { return config.exactRvo2 ? 0.0f : kDeadlockJitter; }
  /// Runs the backend's step and records its cost figures. Throws SimulationError, leaving the
  /// state as it was, when the step was refused for a non-finite agent.
  StepReportOf<Vector> runStep(const Request& request);
  /// Counts an accepted step, then records (and, with removeArrived, removes) the agents it
  /// reports as arrived.
  void finishStep(const std::vector<std::size_t>& arrivedDense);
  std::size_t arrivedCount() const;
  std::uint64_t stateHash() const;
  /// Host memory held for the agents, their handles and the backend's step buffers.
  std::size_t memoryBytes() const;

  SimulatorConfig config;
  // Dense order. Mutable: with a GPU backend it is a cache of the device's state, refreshed by
  // syncHost() in readers too.
  mutable AgentStoreOf<Vector> agents;
  AgentHandles handles;
  std::vector<AgentParams> profiles;
  std::vector<Behavior> behaviors;  // Indexed like profiles.
  std::map<std::pair<AgentParams, Behavior>, std::uint32_t> profileIndex;  // For interning.
  std::unique_ptr<ProfileTable> table;
  std::unique_ptr<BackendOf<Vector>> backend;

  std::int64_t stepCount = 0;
  double time = 0.0;
  std::vector<Arrival> lastArrivals;
  PhaseTimes lastTimes;
  double lastCandidates = 0;
  double lastOrcaLines = 0;
  std::int64_t lastSpeedClamps = 0;
  std::int64_t lastPlanCandidates = 0;
  mutable bool hostStale = false;
};

extern template struct SimulatorCore<Vec2>;
extern template struct SimulatorCore<Vec3>;

}  // namespace crowd
