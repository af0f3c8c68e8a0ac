#include <crowd/simulator3.hpp>

#include <stdexcept>
#include <string>

#include <crowd/behavior.hpp>
#include <crowd/limits.hpp>

#include "agent_store.hpp"
#include "backend.hpp"

namespace crowd {
namespace {

void requirePoint(Vec3 v, const char* what) {
  if (const std::string problem = checkCoordinate(v, what); !problem.empty()) throw std::invalid_argument(problem);
}

void requireVelocity(Vec3 v, const char* what) {
  if (const std::string problem = checkVelocity(v, what); !problem.empty()) throw std::invalid_argument(problem);
}

void requireParams(const AgentParams& params) {
  if (const std::string problem = checkAgentParams(params); !problem.empty()) throw std::invalid_argument(problem);
}

void requireBehavior(const Behavior& behavior) {
  if (const std::string problem = checkBehavior3(behavior); !problem.empty()) throw std::invalid_argument(problem);
}

std::string describe(Vec3 v) {
  return "(" + std::to_string(v.x) + ", " + std::to_string(v.y) + ", " + std::to_string(v.z) + ")";
}

}  // namespace

Simulator3::Simulator3(const SimulatorConfig& config) : config_(config), agents_(std::make_unique<AgentStore3>()) {
  checkConfig(config);
  backend_ = makeBackend<Vec3>(config.backend);
}

void Simulator3::setConfig(const SimulatorConfig& config) {
  checkConfig(config);
  if (config.backend != config_.backend) {
    throw std::invalid_argument("the backend is chosen when the simulator is constructed");
  }
  const bool startRemoving = config.removeArrived && !config_.removeArrived;
  config_ = config;
  if (!startRemoving) return;
  syncHost();  // Those that arrived before removal was asked for go now, as later ones will.
  const std::vector<std::size_t> arrived = arrivedAgents(*agents_);
  if (arrived.empty()) return;
  hostChanged();
  removeAgents(*agents_, handles_, arrived);
}

Simulator3::~Simulator3() = default;
Simulator3::Simulator3(Simulator3&&) noexcept = default;
Simulator3& Simulator3::operator=(Simulator3&&) noexcept = default;

void Simulator3::syncHost() const {
  if (!hostStale_ || !backend_) return;
  backend_->download(*agents_);
  hostStale_ = false;
}

void Simulator3::hostChanged() {
  syncHost();
  if (backend_) backend_->invalidate();
}

std::uint32_t Simulator3::internProfile(const AgentParams& params, const Behavior& behavior) {
  const auto [it, added] = profileIndex_.try_emplace({params, behavior}, static_cast<std::uint32_t>(profiles_.size()));
  if (added) {
    profiles_.push_back(params);
    behaviors_.push_back(behavior);
  }
  return it->second;
}

AgentId Simulator3::addAgent(const AgentDef3& def) {
  requirePoint(def.position, "position");
  requireVelocity(def.velocity, "velocity");
  requireVelocity(def.prefVelocity, "prefVelocity");
  if (def.goal) requirePoint(*def.goal, "goal");
  requireParams(def.params);
  requireBehavior(def.behavior);
  if (agents_->size() >= static_cast<std::size_t>(INT32_MAX)) {
    throw std::length_error("too many agents: at most 2^31 - 1 are supported");
  }
  hostChanged();
  AgentRow3 row{};
  row.id = handles_.add(agents_->size());
  row.position = def.position;
  row.velocity = def.velocity;
  row.prefVelocity = def.goal ? Vec3(0.0f) : def.prefVelocity;
  row.goal = def.goal.value_or(Vec3(0.0f));
  row.profile = internProfile(def.params, def.behavior);
  startSteering(row.id, def.behavior);
  row.flags = def.goal ? kHasGoal : 0;
  agents_->append(row);
  if (def.target) {
    try {
      setTarget(row.id, def.target);
    } catch (...) {
      removeAgent(row.id);  // Nothing half-added.
      throw;
    }
  } else if (!targets_.empty()) {
    targets_.resize(handles_.slotCount(), kNoTarget);
    targets_[row.id.index] = kNoTarget;  // A reused slot forgets its last agent's target.
  }
  return row.id;
}

std::optional<AgentId> Simulator3::target(AgentId id) const {
  denseOf(id);  // Throws for an unknown id.
  if (id.index >= targets_.size() || !contains(targets_[id.index])) return std::nullopt;
  return targets_[id.index];
}

void Simulator3::setTarget(AgentId id, std::optional<AgentId> target) {
  denseOf(id);
  if (target && !contains(*target)) throw std::invalid_argument("target is not a live agent");
  if (target && *target == id) throw std::invalid_argument("an agent cannot target itself");
  targets_.resize(handles_.slotCount(), kNoTarget);
  targets_[id.index] = target.value_or(kNoTarget);
}

bool Simulator3::removeAgent(AgentId id) {
  if (!contains(id)) return false;
  hostChanged();
  const std::size_t dense[1] = {denseOf(id)};
  removeAgents(*agents_, handles_, dense);
  return true;
}

std::size_t Simulator3::agentCount() const { return agents_->size(); }
std::span<const AgentId> Simulator3::ids() const { return agents_->id; }
std::span<const Vec3> Simulator3::positions() const {
  syncHost();
  return agents_->position;
}
std::span<const Vec3> Simulator3::velocities() const {
  syncHost();
  return agents_->velocity;
}

Vec3 Simulator3::position(AgentId id) const {
  syncHost();
  return agents_->position[denseOf(id)];
}
Vec3 Simulator3::velocity(AgentId id) const {
  syncHost();
  return agents_->velocity[denseOf(id)];
}
Vec3 Simulator3::prefVelocity(AgentId id) const {
  syncHost();
  return agents_->prefVelocity[denseOf(id)];
}
std::optional<Vec3> Simulator3::goal(AgentId id) const {
  const std::size_t d = denseOf(id);
  if ((agents_->flags[d] & kHasGoal) == 0) return std::nullopt;
  return agents_->goal[d];
}
const AgentParams& Simulator3::params(AgentId id) const { return profiles_[agents_->profile[denseOf(id)]]; }
bool Simulator3::hasArrived(AgentId id) const {
  syncHost();
  return (agents_->flags[denseOf(id)] & kArrived) != 0;
}

void Simulator3::setPosition(AgentId id, Vec3 position) {
  requirePoint(position, "position");
  const std::size_t d = denseOf(id);
  hostChanged();
  agents_->position[d] = position;
}
void Simulator3::setVelocity(AgentId id, Vec3 velocity) {
  requireVelocity(velocity, "velocity");
  const std::size_t d = denseOf(id);
  hostChanged();
  agents_->velocity[d] = velocity;
}
void Simulator3::setGoal(AgentId id, Vec3 goal) {
  requirePoint(goal, "goal");
  const std::size_t d = denseOf(id);
  hostChanged();
  agents_->goal[d] = goal;
  agents_->flags[d] = kHasGoal;  // Not arrived at the new goal.
}
void Simulator3::setPrefVelocity(AgentId id, Vec3 prefVelocity) {
  requireVelocity(prefVelocity, "prefVelocity");
  const std::size_t d = denseOf(id);
  hostChanged();
  agents_->prefVelocity[d] = prefVelocity;
  agents_->flags[d] = 0;  // No goal, so nothing to arrive at.
}
void Simulator3::setParams(AgentId id, const AgentParams& params) {
  requireParams(params);
  const std::size_t d = denseOf(id);
  hostChanged();
  agents_->profile[d] = internProfile(params, behaviors_[agents_->profile[d]]);
}

const Behavior& Simulator3::behavior(AgentId id) const { return behaviors_[agents_->profile[denseOf(id)]]; }

void Simulator3::setBehavior(AgentId id, const Behavior& behavior) {
  requireBehavior(behavior);
  const std::size_t d = denseOf(id);
  hostChanged();
  agents_->profile[d] = internProfile(profiles_[agents_->profile[d]], behavior);
  startSteering(id, behavior);
}

void Simulator3::startSteering(AgentId id, const Behavior& behavior) {
  wandering_ = wandering_ || behavior.has(BehaviorKind::Wander);
  if (!wandering_) return;
  wanderIn_.resize(handles_.slotCount(), Vec3(0.0f));
  wanderOut_.resize(handles_.slotCount(), Vec3(0.0f));
  wanderIn_[id.index] = Vec3(0.0f);  // Straight ahead at first, as any new wanderer.
}

std::vector<float> Simulator3::radii() const {
  std::vector<float> out(agents_->size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = profiles_[agents_->profile[i]].radius;
  return out;
}

std::vector<float> Simulator3::maxSpeeds() const {
  std::vector<float> out(agents_->size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = profiles_[agents_->profile[i]].maxSpeed;
  return out;
}

const ProfileTable& Simulator3::profileTable() {
  if (!table_ || table_->terms.size() != profiles_.size()) {
    table_ = std::make_unique<ProfileTable>(makeProfileTable(profiles_, behaviors_));
  }
  return *table_;
}

StepRequest3 Simulator3::stepRequest() {
  StepRequest3 request{*agents_, profileTable(), config_.timeStep, config_.cellSize, config_.threads, !config_.exactRvo2};
  request.idCount = static_cast<int>(handles_.slotCount());
  request.jitter = config_.exactRvo2 ? 0.0f : kDeadlockJitter;
  request.seed = config_.seed;
  request.step = stepCount_ + 1;
  if (!targets_.empty()) {
    targets_.resize(handles_.slotCount(), kNoTarget);
    request.targets = targets_.data();
  }
  if (wandering_) {
    // New agents' entries start at zero: straight ahead (jitterWander3).
    wanderIn_.resize(handles_.slotCount(), Vec3(0.0f));
    wanderOut_.resize(handles_.slotCount(), Vec3(0.0f));
    request.wanderIn = wanderIn_.data();
    request.wanderOut = wanderOut_.data();
  }
  return request;
}

void Simulator3::prepare() { backend_->prepare(stepRequest()); }

void Simulator3::step() {
  lastArrivals_.clear();
  const StepRequest3 request = stepRequest();
  StepReport3 report = backend_->step(request);
  lastTimes_ = report.times;
  lastCandidates_ = report.candidatesPerAgent;
  lastOrcaLines_ = report.orcaLinesPerAgent;
  lastSpeedClamps_ = report.speedClamps;
  if (report.nonFinite) {
    const NonFiniteAgentOf<Vec3>& bad = *report.nonFinite;
    throw SimulationError("step " + std::to_string(stepCount_ + 1) + ": agent " +
                          std::to_string(agents_->id[bad.dense].index) + " would get a non-finite velocity " +
                          describe(bad.velocity) + " or position " + describe(bad.position) +
                          "; the step was not applied");
  }
  hostStale_ = backend_->holdsState();
  std::swap(wanderIn_, wanderOut_);  // The step was accepted: its wander state is the current one.
  ++stepCount_;
  time_ += config_.timeStep;
  for (std::size_t d : report.arrived) lastArrivals_.push_back(Arrival{agents_->id[d], stepCount_});
  if (!config_.removeArrived || report.arrived.empty()) return;
  hostChanged();
  removeAgents(*agents_, handles_, report.arrived);
}

std::size_t Simulator3::arrivedCount() const {
  syncHost();
  return countArrived(*agents_);
}

std::string Simulator3::backendName() const { return backend_->name(); }

std::size_t Simulator3::deviceMemoryBytes() const { return backend_->deviceBytes(); }

std::size_t Simulator3::memoryBytes() const {
  return agents_->bytes() + handles_.bytes() + backend_->hostBytes();
}

std::uint64_t Simulator3::stateHash() const {
  syncHost();
  return hashAgents(*agents_);
}

}  // namespace crowd
