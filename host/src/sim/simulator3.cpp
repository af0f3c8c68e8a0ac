// The 3D simulator: targets and wander state, what a 3D world steers with, around the
// SimulatorCore it shares with the planar Simulator.
#include <crowd/simulator3.hpp>

#include <stdexcept>
#include <string>
#include <utility>

#include <crowd/behavior.hpp>

#include "sim/agent_store.hpp"
#include "sim/backend.hpp"
#include "sim/simulator_core.hpp"

namespace crowd {
namespace {

void requireBehavior(const Behavior& behavior) {
  if (const std::string problem = checkBehavior3(behavior); !problem.empty()) throw std::invalid_argument(problem);
}

}  // namespace

Simulator3::Simulator3(const SimulatorConfig& config)
    : core_(std::make_unique<SimulatorCore<Vec3>>(config)) {}
Simulator3::~Simulator3() = default;
Simulator3::Simulator3(Simulator3&&) noexcept = default;
Simulator3& Simulator3::operator=(Simulator3&&) noexcept = default;

const SimulatorConfig& Simulator3::config() const { return core_->config; }
void Simulator3::setConfig(const SimulatorConfig& config) { core_->setConfig(config); }
std::size_t Simulator3::denseOf(AgentId id) const { return core_->denseOf(id); }

AgentId Simulator3::addAgent(const AgentDef3& def) {
  SimulatorCore<Vec3>::requireAgentDef(def);
  requireBehavior(def.behavior);
  const AgentId id =
      core_->addAgent(def.position, def.velocity, def.goal, def.prefVelocity, def.params, def.behavior);
  startSteering(id, def.behavior);
  if (def.target) {
    try {
      setTarget(id, def.target);
    } catch (...) {
      removeAgent(id);  // Nothing half-added.
      throw;
    }
  } else if (!targets_.empty()) {
    targets_.resize(core_->handles.slotCount(), kNoTarget);
    targets_[id.index] = kNoTarget;  // A reused slot forgets its last agent's target.
  }
  return id;
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
  targets_.resize(core_->handles.slotCount(), kNoTarget);
  targets_[id.index] = target.value_or(kNoTarget);
}

bool Simulator3::contains(AgentId id) const { return core_->handles.contains(id); }
bool Simulator3::removeAgent(AgentId id) { return core_->removeAgent(id); }
std::size_t Simulator3::agentCount() const { return core_->agents.size(); }

std::span<const AgentId> Simulator3::ids() const { return core_->agents.id; }
std::span<const Vec3> Simulator3::positions() const { return core_->positions(); }
std::span<const Vec3> Simulator3::velocities() const { return core_->velocities(); }
std::vector<float> Simulator3::radii() const { return core_->radii(); }
std::vector<float> Simulator3::maxSpeeds() const { return core_->maxSpeeds(); }

Vec3 Simulator3::position(AgentId id) const { return core_->position(id); }
Vec3 Simulator3::velocity(AgentId id) const { return core_->velocity(id); }
Vec3 Simulator3::prefVelocity(AgentId id) const { return core_->prefVelocity(id); }
std::optional<Vec3> Simulator3::goal(AgentId id) const { return core_->goal(id); }
const AgentParams& Simulator3::params(AgentId id) const { return core_->params(id); }
bool Simulator3::hasArrived(AgentId id) const { return core_->hasArrived(id); }
void Simulator3::setPosition(AgentId id, Vec3 position) { core_->setPosition(id, position); }
void Simulator3::setVelocity(AgentId id, Vec3 velocity) { core_->setVelocity(id, velocity); }
void Simulator3::setGoal(AgentId id, Vec3 goal) { core_->setGoal(id, goal); }
void Simulator3::setPrefVelocity(AgentId id, Vec3 prefVelocity) { core_->setPrefVelocity(id, prefVelocity); }
void Simulator3::setParams(AgentId id, const AgentParams& params) { core_->setParams(id, params); }

const Behavior& Simulator3::behavior(AgentId id) const { return core_->behavior(id); }

void Simulator3::setBehavior(AgentId id, const Behavior& behavior) {
  requireBehavior(behavior);
  core_->setBehavior(id, behavior);
  startSteering(id, behavior);
}

void Simulator3::startSteering(AgentId id, const Behavior& behavior) {
  wandering_ = wandering_ || behavior.has(BehaviorKind::Wander);
  if (!wandering_) return;
  const std::size_t slots = core_->handles.slotCount();
  wanderIn_.resize(slots, Vec3(0.0f));
  wanderOut_.resize(slots, Vec3(0.0f));
  wanderIn_[id.index] = Vec3(0.0f);  // Straight ahead at first, as any new wanderer.
}

StepRequest3 Simulator3::stepRequest() {
  const SimulatorConfig& config = core_->config;
  StepRequest3 request{core_->agents,   core_->profileTable(), config.timeStep,
                       config.cellSize, config.threads,        !config.exactRvo2};
  const std::size_t slots = core_->handles.slotCount();
  request.idCount = static_cast<int>(slots);
  request.jitter = core_->jitter();
  request.seed = config.seed;
  request.step = core_->stepCount + 1;
  if (!targets_.empty()) {
    targets_.resize(slots, kNoTarget);
    request.targets = targets_.data();
  }
  if (wandering_) {
    // New agents' entries start at zero: straight ahead (jitterWander3).
    wanderIn_.resize(slots, Vec3(0.0f));
    wanderOut_.resize(slots, Vec3(0.0f));
    request.wanderIn = wanderIn_.data();
    request.wanderOut = wanderOut_.data();
  }
  return request;
}

void Simulator3::prepare() { core_->backend->prepare(stepRequest()); }

void Simulator3::step() {
  core_->lastArrivals.clear();
  const StepRequest3 request = stepRequest();
  const StepReport3 report = core_->runStep(request);
  std::swap(wanderIn_, wanderOut_);  // The step was accepted: its wander state is the current one.
  core_->finishStep(report.arrived);
}

std::int64_t Simulator3::stepCount() const { return core_->stepCount; }
double Simulator3::time() const { return core_->time; }
const std::vector<Arrival>& Simulator3::lastArrivals() const { return core_->lastArrivals; }
std::size_t Simulator3::arrivedCount() const { return core_->arrivedCount(); }
const PhaseTimes& Simulator3::lastStepTimes() const { return core_->lastTimes; }
double Simulator3::lastCandidatesPerAgent() const { return core_->lastCandidates; }
double Simulator3::lastOrcaLinesPerAgent() const { return core_->lastOrcaLines; }
std::int64_t Simulator3::lastSpeedClamps() const { return core_->lastSpeedClamps; }

std::string Simulator3::backendName() const { return core_->backend->name(); }
std::size_t Simulator3::deviceMemoryBytes() const { return core_->backend->deviceBytes(); }
std::size_t Simulator3::memoryBytes() const { return core_->memoryBytes(); }
std::uint64_t Simulator3::stateHash() const { return core_->stateHash(); }

}  // namespace crowd
