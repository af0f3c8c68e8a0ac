// The verbs both worlds share (crowd/basic_simulator.hpp), written once over the vector type.
#include <algorithm>
#include <stdexcept>
#include <string>

#include <crowd/basic_simulator.hpp>
#include <crowd/kernels/agent_columns.hpp>
#include <crowd/kernels/static_world.hpp>
#include <crowd/limits.hpp>

#include "sim/simulator_core.hpp"

namespace crowd {

template <class Vector>
BasicSimulator<Vector>::BasicSimulator(const SimulatorConfig& config)
    : core_(std::make_unique<SimulatorCore<Vector>>(config)) {}
template <class Vector>
BasicSimulator<Vector>::~BasicSimulator() = default;
template <class Vector>
BasicSimulator<Vector>::BasicSimulator(BasicSimulator&&) noexcept = default;
template <class Vector>
BasicSimulator<Vector>& BasicSimulator<Vector>::operator=(BasicSimulator&&) noexcept = default;

template <class Vector>
StaticWorldView BasicSimulator<Vector>::staticWorld(float) {
  return {};
}

template <class Vector>
std::size_t BasicSimulator<Vector>::denseOf(AgentId id) const {
  return core_->denseOf(id);
}

template <class Vector>
const SimulatorConfig& BasicSimulator<Vector>::config() const {
  return core_->config;
}

template <class Vector>
void BasicSimulator<Vector>::setConfig(const SimulatorConfig& config) {
  SimulatorCore<Vector>& core = *core_;
  checkConfig(config);
  if (config.backend != core.config.backend) {
    throw std::invalid_argument("the backend is chosen when the simulator is constructed");
  }
  const PeriodicRange &now = core.config.periodicX, &asked = config.periodicX;
  if ((now.from != asked.from || now.to != asked.to) && core.agents.size() > 0) {
    throw std::invalid_argument("periodicX is set before the first agent is added");
  }
  const bool startRemoving = config.removeArrived && !core.config.removeArrived;
  core.config = config;
  if (!startRemoving) return;
  core.syncHost();  // Those that arrived before removal was asked for go now, as later ones will.
  const std::vector<std::size_t> arrived = arrivedAgents(core.agents);
  if (!arrived.empty()) core.removeDense(arrived);
}

// --- agents ---------------------------------------------------------------------------------

template <class Vector>
AgentId BasicSimulator<Vector>::addAgent(const Def& def) {
  requirePoint(def.position, "position");
  core_->requireInsidePeriod(def.position);
  requireVelocity(def.velocity, "velocity");
  requireVelocity(def.prefVelocity, "prefVelocity");
  if (const std::string problem = checkLimit(def.startTime, limits::kStartTime, "startTime");
      !problem.empty()) {
    throw std::invalid_argument(problem);
  }
  if (def.goal) requirePoint(*def.goal, "goal");
  requireParams(def.params);
  requireUsable(def.behavior);
  if (def.target && !contains(*def.target)) throw std::invalid_argument("target is not a live agent");
  SimulatorCore<Vector>& core = *core_;
  if (core.agents.size() >= static_cast<std::size_t>(INT32_MAX)) {
    throw std::length_error("too many agents: at most 2^31 - 1 are supported");
  }
  core.hostChanged();
  AgentRowOf<Vector> row{};
  row.id = core.handles.add(core.agents.size());
  row.position = def.position;
  row.velocity = def.velocity;
  row.prefVelocity = def.goal ? Vector(0.0f) : def.prefVelocity;  // A goal sets it each step.
  row.goal = def.goal.value_or(Vector(0.0f));
  row.profile = core.internProfile(def.params, def.behavior);
  row.flags = def.goal ? kHasGoal : 0;
  row.startTime = def.startTime;
  core.agents.append(row);
  if (core.hasSteering() || def.target || !def.behavior.goalOnly()) {
    SteeringStoreOf<Vector>& store = core.steeringStore();  // Sized for every id, this one included.
    store.reset(row.id.index);
    store.setTarget(row.id.index, def.target.value_or(kNoTarget));
    store.setRoute(row.id.index, -1);
  }
  return row.id;
}

template <class Vector>
bool BasicSimulator<Vector>::removeAgent(AgentId id) {
  if (!contains(id)) return false;
  const std::size_t dense[1] = {denseOf(id)};
  core_->removeDense(dense);
  return true;
}

template <class Vector>
bool BasicSimulator<Vector>::contains(AgentId id) const {
  return core_->handles.contains(id);
}

template <class Vector>
std::size_t BasicSimulator<Vector>::agentCount() const {
  return core_->agents.size();
}

template <class Vector>
Vector BasicSimulator<Vector>::position(AgentId id) const {
  core_->syncHost();
  return core_->agents.position[denseOf(id)];
}

template <class Vector>
Vector BasicSimulator<Vector>::velocity(AgentId id) const {
  core_->syncHost();
  return core_->agents.velocity[denseOf(id)];
}

template <class Vector>
Vector BasicSimulator<Vector>::prefVelocity(AgentId id) const {
  core_->syncHost();
  return core_->agents.prefVelocity[denseOf(id)];
}

template <class Vector>
std::optional<Vector> BasicSimulator<Vector>::goal(AgentId id) const {
  const std::size_t d = denseOf(id);
  if ((core_->agents.flags[d] & kHasGoal) == 0) return std::nullopt;
  return core_->agents.goal[d];
}

template <class Vector>
const AgentParams& BasicSimulator<Vector>::params(AgentId id) const {
  return core_->profiles[core_->agents.profile[denseOf(id)]];
}

template <class Vector>
bool BasicSimulator<Vector>::hasArrived(AgentId id) const {
  core_->syncHost();
  return (core_->agents.flags[denseOf(id)] & kArrived) != 0;
}

template <class Vector>
void BasicSimulator<Vector>::setPosition(AgentId id, Vector position) {
  requirePoint(position, "position");
  core_->requireInsidePeriod(position);
  const std::size_t d = denseOf(id);
  core_->hostChanged();
  core_->agents.position[d] = position;
}

template <class Vector>
void BasicSimulator<Vector>::setVelocity(AgentId id, Vector velocity) {
  requireVelocity(velocity, "velocity");
  const std::size_t d = denseOf(id);
  core_->hostChanged();
  core_->agents.velocity[d] = velocity;
}

template <class Vector>
void BasicSimulator<Vector>::setGoal(AgentId id, Vector goal) {
  requirePoint(goal, "goal");
  const std::size_t d = denseOf(id);
  core_->hostChanged();
  core_->agents.goal[d] = goal;
  core_->agents.flags[d] = kHasGoal;  // Not arrived at the new goal.
}

template <class Vector>
void BasicSimulator<Vector>::setPrefVelocity(AgentId id, Vector prefVelocity) {
  requireVelocity(prefVelocity, "prefVelocity");
  const std::size_t d = denseOf(id);
  core_->hostChanged();
  core_->agents.prefVelocity[d] = prefVelocity;
  core_->agents.flags[d] = 0;  // No goal, so nothing to arrive at.
}

template <class Vector>
void BasicSimulator<Vector>::setPrefVelocities(std::span<const Vector> prefVelocities) {
  SimulatorCore<Vector>& core = *core_;
  const std::size_t n = core.agents.size();
  if (prefVelocities.size() != n) {
    throw std::invalid_argument("prefVelocities: " + std::to_string(prefVelocities.size()) + " vectors for " +
                                std::to_string(n) + " agents");
  }
  // Checked in full first, so that a bad vector changes nothing. The range test inline (a NaN
  // fails it too); checkVelocity, out of line, only to word the refusal: a hundred thousand
  // agents are checked in well under a millisecond.
  const Limit& limit = limits::kVelocity;
  for (std::size_t d = 0; d < n; ++d) {
    const Vector v = prefVelocities[d];
    bool inside = true;
    for (int i = 0; i < Vector::length(); ++i) inside = inside && v[i] >= limit.min && v[i] <= limit.max;
    if (inside) continue;
    const std::string problem = checkVelocity(v, "prefVelocity");
    throw std::invalid_argument("prefVelocities row " + std::to_string(d) + ": " +
                                (problem.empty() ? "outside the velocity limit" : problem));
  }
  core.hostChanged();
  std::copy(prefVelocities.begin(), prefVelocities.end(), core.agents.prefVelocity.begin());
  std::fill(core.agents.flags.begin(), core.agents.flags.end(), std::uint8_t{0});  // No goals now.
}

template <class Vector>
void BasicSimulator<Vector>::setParams(AgentId id, const AgentParams& params) {
  requireParams(params);
  const std::size_t d = denseOf(id);
  SimulatorCore<Vector>& core = *core_;
  core.hostChanged();
  core.agents.profile[d] = core.internProfile(params, core.behaviors[core.agents.profile[d]]);
}

// --- steering -------------------------------------------------------------------------------

template <class Vector>
const Behavior& BasicSimulator<Vector>::behavior(AgentId id) const {
  return core_->behaviors[core_->agents.profile[denseOf(id)]];
}

template <class Vector>
void BasicSimulator<Vector>::setBehavior(AgentId id, const Behavior& behavior) {
  requireUsable(behavior);
  const std::size_t d = denseOf(id);
  SimulatorCore<Vector>& core = *core_;
  core.hostChanged();
  core.agents.profile[d] = core.internProfile(core.profiles[core.agents.profile[d]], behavior);
  if (core.hasSteering() || !behavior.goalOnly()) core.steeringStore().reset(id.index);
  behaviorSet(id, behavior);
}

template <class Vector>
std::optional<AgentId> BasicSimulator<Vector>::target(AgentId id) const {
  denseOf(id);  // Throws for an unknown id.
  if (!core_->hasSteering() || id.index >= core_->steering->size()) return std::nullopt;
  const AgentId t = core_->steering->target(id.index);
  if (t.index == kNoTarget.index || !contains(t)) return std::nullopt;
  return t;
}

template <class Vector>
void BasicSimulator<Vector>::setTarget(AgentId id, std::optional<AgentId> target) {
  denseOf(id);
  if (target && !contains(*target)) throw std::invalid_argument("target is not a live agent");
  if (target && *target == id) throw std::invalid_argument("an agent cannot target itself");
  core_->hostChanged();
  core_->steeringStore().setTarget(id.index, target.value_or(kNoTarget));
}

template <class Vector>
std::size_t BasicSimulator<Vector>::profileCount() const {
  return core_->profiles.size();
}

template <class Vector>
std::uint32_t BasicSimulator<Vector>::profileIndex(AgentId id) const {
  return core_->agents.profile[denseOf(id)];
}

template <class Vector>
std::span<const AgentId> BasicSimulator<Vector>::ids() const {
  return core_->agents.id;
}

template <class Vector>
std::span<const Vector> BasicSimulator<Vector>::positions() const {
  core_->syncHost();
  return core_->agents.position;
}

template <class Vector>
std::span<const Vector> BasicSimulator<Vector>::velocities() const {
  core_->syncHost();
  return core_->agents.velocity;
}

template <class Vector>
std::vector<float> BasicSimulator<Vector>::radii() const {
  std::vector<float> out(core_->agents.size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = core_->profiles[core_->agents.profile[i]].radius;
  return out;
}

template <class Vector>
std::vector<float> BasicSimulator<Vector>::maxSpeeds() const {
  std::vector<float> out(core_->agents.size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = core_->profiles[core_->agents.profile[i]].maxSpeed;
  return out;
}

// --- stepping -------------------------------------------------------------------------------

template <class Vector>
void BasicSimulator<Vector>::prepare() {
  const StaticWorldView world = staticWorld(core_->profileTable().maxObstacleRange);
  core_->driver->executor().prepare(core_->stepRequest(world));
}

template <class Vector>
void BasicSimulator<Vector>::step() {
  core_->lastArrivals.clear();
  beforeStep();
  const StaticWorldView world = staticWorld(core_->profileTable().maxObstacleRange);
  core_->step(core_->stepRequest(world));
}

template <class Vector>
std::int64_t BasicSimulator<Vector>::stepCount() const {
  return core_->stepCount;
}

template <class Vector>
double BasicSimulator<Vector>::time() const {
  return core_->time;
}

template <class Vector>
const std::vector<Arrival>& BasicSimulator<Vector>::lastArrivals() const {
  return core_->lastArrivals;
}

template <class Vector>
std::size_t BasicSimulator<Vector>::arrivedCount() const {
  core_->syncHost();
  return countArrived(core_->agents);
}

template <class Vector>
const PhaseTimes& BasicSimulator<Vector>::lastStepTimes() const {
  return core_->lastTimes;
}

template <class Vector>
double BasicSimulator<Vector>::lastCandidatesPerAgent() const {
  return core_->lastCandidates;
}

template <class Vector>
double BasicSimulator<Vector>::lastOrcaLinesPerAgent() const {
  return core_->lastOrcaLines;
}

template <class Vector>
std::int64_t BasicSimulator<Vector>::lastSpeedClamps() const {
  return core_->lastSpeedClamps;
}

template <class Vector>
std::int64_t BasicSimulator<Vector>::lastPlanCandidates() const {
  return core_->lastPlanCandidates;
}

template <class Vector>
std::string BasicSimulator<Vector>::backendName() const {
  return core_->driver->executor().name();
}

template <class Vector>
int BasicSimulator<Vector>::lastStepThreads() const {
  return core_->driver->executor().threadsUsed();
}

template <class Vector>
std::size_t BasicSimulator<Vector>::deviceMemoryBytes() const {
  return core_->driver->executor().deviceBytes();
}

template <class Vector>
DeviceAgentsOf<Vector> BasicSimulator<Vector>::deviceAgents() const {
  return core_->driver->executor().deviceAgents();
}

template <class Vector>
std::size_t BasicSimulator<Vector>::memoryBytes() const {
  return core_->memoryBytes() + worldBytes();
}

template <class Vector>
std::uint64_t BasicSimulator<Vector>::stateHash() const {
  core_->syncHost();
  return hashAgents(core_->agents);
}

template class BasicSimulator<Vec2>;
template class BasicSimulator<Vec3>;

}  // namespace crowd
