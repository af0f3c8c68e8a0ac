// The planar simulator: what only a planar world has (obstacles, steering state, paths,
// navigation) around the SimulatorCore it shares with Simulator3.
#include <crowd/simulator.hpp>

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include <crowd/limits.hpp>

#include "sim/agent_store.hpp"
#include "sim/backend.hpp"
#include "nav/navigator.hpp"
#include "sim/number_text.hpp"
#include "sim/simulator_core.hpp"
#include "sim/steering_store.hpp"

namespace crowd {

Simulator::Simulator(const SimulatorConfig& config)
    : core_(std::make_unique<SimulatorCore<Vec2>>(config)) {}
Simulator::~Simulator() = default;
Simulator::Simulator(Simulator&&) noexcept = default;
Simulator& Simulator::operator=(Simulator&&) noexcept = default;

const SimulatorConfig& Simulator::config() const { return core_->config; }
void Simulator::setConfig(const SimulatorConfig& config) { core_->setConfig(config); }
std::size_t Simulator::denseOf(AgentId id) const { return core_->denseOf(id); }

AgentId Simulator::addAgent(const AgentDef& def) {
  SimulatorCore<Vec2>::requireAgentDef(def);
  requireUsable(def.behavior);
  if (def.target && !contains(*def.target)) throw std::invalid_argument("target is not a live agent");
  const AgentId id =
      core_->addAgent(def.position, def.velocity, def.goal, def.prefVelocity, def.params, def.behavior);
  if (steering_ || def.target || !def.behavior.goalOnly()) {
    SteeringStore& store = steeringStore();  // Sized for every id, this one included.
    store.reset(id.index);
    store.setTarget(id.index, def.target.value_or(kNoTarget));
    store.setRoute(id.index, -1);
  }
  return id;
}

bool Simulator::contains(AgentId id) const { return core_->handles.contains(id); }
bool Simulator::removeAgent(AgentId id) { return core_->removeAgent(id); }
std::size_t Simulator::agentCount() const { return core_->agents.size(); }
std::size_t Simulator::profileCount() const { return core_->profiles.size(); }

std::span<const AgentId> Simulator::ids() const { return core_->agents.id; }
std::span<const Vec2> Simulator::positions() const { return core_->positions(); }
std::span<const Vec2> Simulator::velocities() const { return core_->velocities(); }
std::vector<float> Simulator::radii() const { return core_->radii(); }
std::vector<float> Simulator::maxSpeeds() const { return core_->maxSpeeds(); }

Vec2 Simulator::position(AgentId id) const { return core_->position(id); }
Vec2 Simulator::velocity(AgentId id) const { return core_->velocity(id); }
Vec2 Simulator::prefVelocity(AgentId id) const { return core_->prefVelocity(id); }
std::optional<Vec2> Simulator::goal(AgentId id) const { return core_->goal(id); }
const AgentParams& Simulator::params(AgentId id) const { return core_->params(id); }
bool Simulator::hasArrived(AgentId id) const { return core_->hasArrived(id); }
void Simulator::setPosition(AgentId id, Vec2 position) { core_->setPosition(id, position); }
void Simulator::setVelocity(AgentId id, Vec2 velocity) { core_->setVelocity(id, velocity); }
void Simulator::setGoal(AgentId id, Vec2 goal) { core_->setGoal(id, goal); }
void Simulator::setPrefVelocity(AgentId id, Vec2 prefVelocity) { core_->setPrefVelocity(id, prefVelocity); }
void Simulator::setParams(AgentId id, const AgentParams& params) { core_->setParams(id, params); }

int Simulator::addCircle(Vec2 center, float radius) {
  requirePoint(center, "circle centre");
  if (const std::string problem = checkLimit(radius, limits::kRadius, "circle radius"); !problem.empty()) {
    throw std::invalid_argument(problem);
  }
  if (!(radius > 0.0f)) throw std::invalid_argument("circle radius must be > 0, got " + formatFloat(radius));
  // The polygon ORCA sees reaches past the disc; its corners must be within the limits too.
  const float reach = radius / std::cos(std::numbers::pi_v<float> / ObstacleSet::kCircleSides);
  requirePoint(center + Vec2(reach, reach), "circle's outermost point");
  requirePoint(center - Vec2(reach, reach), "circle's outermost point");
  core_->hostChanged();
  return obstacles_.addCircle(center, radius);
}

int Simulator::addObstacle(std::span<const Vec2> vertices) {
  for (const Vec2 v : vertices) requirePoint(v, "obstacle vertex");
  core_->hostChanged();
  return obstacles_.addPolygon(vertices);
}

StepRequest Simulator::stepRequest(const ProfileTable& table) {
  if (!obstacles_.empty()) obstacles_.prepareGrid(table.maxObstacleRange);
  SteeringStore* steering = table.anySteering ? &steeringStore() : nullptr;
  if (table.anyPlanners) steering->keepTracks();
  const SimulatorConfig& config = core_->config;
  return StepRequest{core_->agents,
                     table,
                     obstacles_,
                     config.timeStep,
                     config.cellSize,
                     config.threads,
                     core_->jitter(),
                     !config.exactRvo2,
                     config.seed,
                     core_->stepCount + 1,
                     steering,
                     PathView{pathPoints_.data(), pathStart_.data(), pathLoop_.data(), pathCount()},
                     ReferenceLines{linePoints_.data(), lineBegin_.data(), lineEnd_.data(), pathCount(),
                                    kReferenceSpacing}};
}

void Simulator::prepare() {
  core_->backend->prepare(stepRequest(core_->profileTable()));
}

void Simulator::step() {
  core_->lastArrivals.clear();
  if (navigator_) navigateRoutes();
  const StepRequest request = stepRequest(core_->profileTable());
  const StepReport report = core_->runStep(request);
  if (request.steering != nullptr) request.steering->flip();
  core_->finishStep(report.arrived);
}

std::int64_t Simulator::stepCount() const { return core_->stepCount; }
double Simulator::time() const { return core_->time; }
const std::vector<Arrival>& Simulator::lastArrivals() const { return core_->lastArrivals; }
std::size_t Simulator::arrivedCount() const { return core_->arrivedCount(); }
const PhaseTimes& Simulator::lastStepTimes() const { return core_->lastTimes; }
double Simulator::lastCandidatesPerAgent() const { return core_->lastCandidates; }
double Simulator::lastOrcaLinesPerAgent() const { return core_->lastOrcaLines; }
std::int64_t Simulator::lastSpeedClamps() const { return core_->lastSpeedClamps; }
std::int64_t Simulator::lastPlanCandidates() const { return core_->lastPlanCandidates; }

std::string Simulator::backendName() const { return core_->backend->name(); }
std::size_t Simulator::deviceMemoryBytes() const { return core_->backend->deviceBytes(); }
DeviceAgents Simulator::deviceAgents() const { return core_->backend->deviceAgents(); }

std::size_t Simulator::memoryBytes() const {
  return core_->memoryBytes() + obstacles_.memoryBytes() + (steering_ ? steering_->bytes() : 0) +
         pathPoints_.capacity() * sizeof(Vec2) + linePoints_.capacity() * sizeof(ReferencePoint);
}

std::uint64_t Simulator::stateHash() const { return core_->stateHash(); }

}  // namespace crowd
