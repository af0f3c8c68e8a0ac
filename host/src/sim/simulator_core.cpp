#include "sim/simulator_core.hpp"

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <crowd/kernels/agent_columns.hpp>

namespace crowd {
namespace {

// "(x, y)" or "(x, y, z)", for the message of a refused step.
template <class Vector>
std::string describe(Vector v) {
  std::string text = "(";
  for (int i = 0; i < Vector::length(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(v[i]);
  }
  return text + ")";
}

}  // namespace

template <class Vector>
std::unique_ptr<BackendOf<Vector>> makeBackend(BackendKind kind) {
  constexpr bool kPlanar = std::is_same_v<Vector, Vec2>;
  if (kind == BackendKind::Cpu) {
    if constexpr (kPlanar) return makeCpuBackend();
    else return makeCpuBackend3();
  }
  std::string why;
  if (cudaBackendAvailable(&why)) {
#if defined(CROWD_WITH_CUDA)
    try {
      if constexpr (kPlanar) return makeCudaBackend();
      else return makeCudaBackend3();
    } catch (const std::exception& e) {
      // A device that is listed but cannot give a context (busy, out of memory): auto falls
      // back to the CPU; only an explicit request for CUDA fails.
      if (kind == BackendKind::Cuda) throw;
      why = e.what();
    }
#endif
  }
  if (kind == BackendKind::Cuda) throw std::runtime_error("the CUDA backend cannot run: " + why);
  if constexpr (kPlanar) return makeCpuBackend();
  else return makeCpuBackend3();
}
template std::unique_ptr<Backend> makeBackend<Vec2>(BackendKind);
template std::unique_ptr<Backend3> makeBackend<Vec3>(BackendKind);

void requireParams(const AgentParams& params) {
  if (const std::string problem = checkAgentParams(params); !problem.empty()) throw std::invalid_argument(problem);
}

template <class Vector>
SimulatorCore<Vector>::SimulatorCore(const SimulatorConfig& configuration) : config(configuration) {
  checkConfig(configuration);
  backend = makeBackend<Vector>(configuration.backend);
}

template <class Vector>
AgentId SimulatorCore<Vector>::addAgent(Vector position, Vector velocity, std::optional<Vector> goal,
                                        Vector prefVelocity, const AgentParams& params,
                                        const Behavior& behavior) {
  if (agents.size() >= static_cast<std::size_t>(INT32_MAX)) {
    throw std::length_error("too many agents: at most 2^31 - 1 are supported");
  }
  hostChanged();
  AgentRowOf<Vector> row{};
  row.id = handles.add(agents.size());
  row.position = position;
  row.velocity = velocity;
  row.prefVelocity = goal ? Vector(0.0f) : prefVelocity;  // A goal sets it each step.
  row.goal = goal.value_or(Vector(0.0f));
  row.profile = internProfile(params, behavior);
  row.flags = goal ? kHasGoal : 0;
  agents.append(row);
  return row.id;
}

template <class Vector>
void SimulatorCore<Vector>::removeDense(std::span<const std::size_t> sortedDense) {
  hostChanged();
  removeAgents(agents, handles, sortedDense);
}

template <class Vector>
bool SimulatorCore<Vector>::removeAgent(AgentId id) {
  if (!handles.contains(id)) return false;
  const std::size_t dense[1] = {denseOf(id)};
  removeDense(dense);
  return true;
}

template <class Vector>
std::uint32_t SimulatorCore<Vector>::internProfile(const AgentParams& params, const Behavior& behavior) {
  const auto [it, added] = profileIndex.try_emplace({params, behavior}, static_cast<std::uint32_t>(profiles.size()));
  if (added) {
    profiles.push_back(params);
    behaviors.push_back(behavior);
  }
  return it->second;
}

template <class Vector>
const ProfileTable& SimulatorCore<Vector>::profileTable() {
  if (!table || table->terms.size() != profiles.size()) {
    table = std::make_unique<ProfileTable>(makeProfileTable(profiles, behaviors));
  }
  return *table;
}

template <class Vector>
Vector SimulatorCore<Vector>::position(AgentId id) const {
  syncHost();
  return agents.position[denseOf(id)];
}
template <class Vector>
Vector SimulatorCore<Vector>::velocity(AgentId id) const {
  syncHost();
  return agents.velocity[denseOf(id)];
}
template <class Vector>
Vector SimulatorCore<Vector>::prefVelocity(AgentId id) const {
  syncHost();
  return agents.prefVelocity[denseOf(id)];
}
template <class Vector>
std::optional<Vector> SimulatorCore<Vector>::goal(AgentId id) const {
  const std::size_t d = denseOf(id);
  if ((agents.flags[d] & kHasGoal) == 0) return std::nullopt;
  return agents.goal[d];
}
template <class Vector>
bool SimulatorCore<Vector>::hasArrived(AgentId id) const {
  syncHost();
  return (agents.flags[denseOf(id)] & kArrived) != 0;
}
template <class Vector>
std::span<const Vector> SimulatorCore<Vector>::positions() const {
  syncHost();
  return agents.position;
}
template <class Vector>
std::span<const Vector> SimulatorCore<Vector>::velocities() const {
  syncHost();
  return agents.velocity;
}

template <class Vector>
void SimulatorCore<Vector>::setPosition(AgentId id, Vector position) {
  requirePoint(position, "position");
  const std::size_t d = denseOf(id);
  hostChanged();
  agents.position[d] = position;
}
template <class Vector>
void SimulatorCore<Vector>::setVelocity(AgentId id, Vector velocity) {
  requireVelocity(velocity, "velocity");
  const std::size_t d = denseOf(id);
  hostChanged();
  agents.velocity[d] = velocity;
}
template <class Vector>
void SimulatorCore<Vector>::setGoal(AgentId id, Vector goal) {
  requirePoint(goal, "goal");
  const std::size_t d = denseOf(id);
  hostChanged();
  agents.goal[d] = goal;
  agents.flags[d] = kHasGoal;  // Not arrived at the new goal.
}
template <class Vector>
void SimulatorCore<Vector>::setPrefVelocity(AgentId id, Vector prefVelocity) {
  requireVelocity(prefVelocity, "prefVelocity");
  const std::size_t d = denseOf(id);
  hostChanged();
  agents.prefVelocity[d] = prefVelocity;
  agents.flags[d] = 0;  // No goal, so nothing to arrive at.
}
template <class Vector>
void SimulatorCore<Vector>::setParams(AgentId id, const AgentParams& params) {
  requireParams(params);
  const std::size_t d = denseOf(id);
  hostChanged();
  agents.profile[d] = internProfile(params, behaviors[agents.profile[d]]);
}
template <class Vector>
void SimulatorCore<Vector>::setBehavior(AgentId id, const Behavior& behavior) {
  const std::size_t d = denseOf(id);
  hostChanged();
  agents.profile[d] = internProfile(profiles[agents.profile[d]], behavior);
}

template <class Vector>
std::vector<float> SimulatorCore<Vector>::radii() const {
  std::vector<float> out(agents.size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = profiles[agents.profile[i]].radius;
  return out;
}
template <class Vector>
std::vector<float> SimulatorCore<Vector>::maxSpeeds() const {
  std::vector<float> out(agents.size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = profiles[agents.profile[i]].maxSpeed;
  return out;
}

template <class Vector>
void SimulatorCore<Vector>::syncHost() const {
  if (!hostStale || !backend) return;
  // The host arrays are a cache of the device state here, so refreshing them is not a change
  // of the simulator's observable state.
  backend->download(agents);
  hostStale = false;
}

template <class Vector>
void SimulatorCore<Vector>::hostChanged() {
  // Bring the host copy up to date first: the change applies to the newest state, which is
  // then uploaded again before the next step.
  syncHost();
  if (backend) backend->invalidate();
}

template <class Vector>
void SimulatorCore<Vector>::setConfig(const SimulatorConfig& configuration) {
  checkConfig(configuration);
  if (configuration.backend != config.backend) {
    throw std::invalid_argument("the backend is chosen when the simulator is constructed");
  }
  const bool startRemoving = configuration.removeArrived && !config.removeArrived;
  config = configuration;
  if (!startRemoving) return;
  syncHost();  // Those that arrived before removal was asked for go now, as later ones will.
  const std::vector<std::size_t> arrived = arrivedAgents(agents);
  if (!arrived.empty()) removeDense(arrived);
}

template <class Vector>
StepReportOf<Vector> SimulatorCore<Vector>::runStep(const Request& request) {
  StepReportOf<Vector> report = backend->step(request);
  lastTimes = report.times;
  lastCandidates = report.candidatesPerAgent;
  lastOrcaLines = report.orcaLinesPerAgent;
  lastSpeedClamps = report.speedClamps;
  lastPlanCandidates = report.planCandidates;
  if (report.nonFinite) {
    const NonFiniteAgentOf<Vector>& bad = *report.nonFinite;
    throw SimulationError("step " + std::to_string(stepCount + 1) + ": agent " +
                          std::to_string(agents.id[bad.dense].index) + " would get a non-finite velocity " +
                          describe(bad.velocity) + " or position " + describe(bad.position) +
                          "; the step was not applied");
  }
  hostStale = backend->holdsState();
  return report;
}

template <class Vector>
void SimulatorCore<Vector>::finishStep(const std::vector<std::size_t>& arrivedDense) {
  ++stepCount;
  time += config.timeStep;
  for (std::size_t d : arrivedDense) lastArrivals.push_back(Arrival{agents.id[d], stepCount});
  if (config.removeArrived && !arrivedDense.empty()) removeDense(arrivedDense);
}

template <class Vector>
std::size_t SimulatorCore<Vector>::arrivedCount() const {
  syncHost();
  return countArrived(agents);
}

template <class Vector>
std::uint64_t SimulatorCore<Vector>::stateHash() const {
  syncHost();
  return hashAgents(agents);
}

template <class Vector>
std::size_t SimulatorCore<Vector>::memoryBytes() const {
  return agents.bytes() + handles.bytes() + backend->hostBytes();
}

template struct SimulatorCore<Vec2>;
template struct SimulatorCore<Vec3>;

}  // namespace crowd
