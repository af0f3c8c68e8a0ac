// What a simulator of either world holds, behind BasicSimulator's pointer (so that the public
// header need not see it): the agents and their handles, the interned profiles, the steering
// state, the step driver with its executor, and the host copy that executor may hold stale; with
// the bookkeeping the verbs share (syncing the host copy, interning profiles, a step's figures,
// the non-finite refusal, arrivals and their removal).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <crowd/agent_params.hpp>
#include <crowd/basic_simulator.hpp>
#include <crowd/behavior.hpp>
#include <crowd/limits.hpp>
#include <crowd/phase_times.hpp>
#include <crowd/simulator_config.hpp>

#include "sim/agent_handles.hpp"
#include "sim/agent_store.hpp"
#include "sim/steering_store.hpp"
#include "sim/step/profile_table.hpp"
#include "sim/step/step_driver.hpp"

namespace crowd {

/// Throws std::invalid_argument unless `point` is within the coordinate limit (crowd/limits.hpp):
/// what keeps a step's maths finite.
template <class Vector>
void requirePoint(Vector point, const char* what) {
  if (const std::string problem = checkCoordinate(point, what); !problem.empty())
    throw std::invalid_argument(problem);
}

/// Throws std::invalid_argument unless `velocity` is within the velocity limit.
template <class Vector>
void requireVelocity(Vector velocity, const char* what) {
  if (const std::string problem = checkVelocity(velocity, what); !problem.empty())
    throw std::invalid_argument(problem);
}

/// Throws std::invalid_argument with checkAgentParams's message for parameters outside their limits.
void requireParams(const AgentParams& params);

template <class Vector>
struct SimulatorCore {
  /// Throws std::invalid_argument for a configuration outside its limits, std::runtime_error
  /// when the backend asked for cannot run.
  explicit SimulatorCore(const SimulatorConfig& configuration);

  std::size_t denseOf(AgentId id) const { return handles.denseOf(id); }  // Throws std::out_of_range.
  // Most agents share a few parameter sets and behaviours; each pair is stored once.
  std::uint32_t internProfile(const AgentParams& params, const Behavior& behavior);
  /// The profile table, rebuilt only when a profile was added since.
  const ProfileTable& profileTable();
  /// Removes the agents at the ascending dense indices `sortedDense` (the host copy first brought
  /// up to date), freeing their handles.
  void removeDense(std::span<const std::size_t> sortedDense);

  // Per-agent steering state, made when the first agent steers or gets a target; sized for every
  // handle handed out.
  SteeringStoreOf<Vector>& steeringStore();
  bool hasSteering() const { return steering != nullptr; }

  // A GPU keeps the state on the device between steps; readers call syncHost() to bring the host
  // copy up to date, writers call hostChanged(), which syncs and then tells the executor its copy
  // is stale.
  void syncHost() const;
  void hostChanged();

  /// Throws std::invalid_argument unless `position` lies inside a repeating world's period.
  void requireInsidePeriod(Vector position) const;
  /// The deadlock jitter the configuration asks for.
  float jitter() const { return config.exactRvo2 ? 0.0f : kDeadlockJitter; }
  /// What the next step needs, with the world's static arrays.
  StepRequestOf<Vector> stepRequest(const StaticWorldView& world);
  /// Runs a step and records its figures; counts it, then records (and, with removeArrived,
  /// removes) the agents that arrived. Throws SimulationError, leaving the state as it was, when
  /// the step was refused for a non-finite agent.
  void step(const StepRequestOf<Vector>& request);
  std::size_t memoryBytes() const;

  SimulatorConfig config;
  // Dense order. Mutable: with a GPU it is a cache of the device's state, refreshed by syncHost()
  // in readers too.
  mutable AgentStoreOf<Vector> agents;
  AgentHandles handles;
  std::vector<AgentParams> profiles;
  std::vector<Behavior> behaviors;                                         // Indexed like profiles.
  std::map<std::pair<AgentParams, Behavior>, std::uint32_t> profileIndex;  // For interning.
  std::unique_ptr<ProfileTable> table;
  mutable std::unique_ptr<SteeringStoreOf<Vector>> steering;
  std::unique_ptr<StepDriverOf<Vector>> driver;

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
