#include <crowd/simulator.hpp>

#include <crowd/limits.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numbers>
#include <stdexcept>
#include <type_traits>

#include <crowd/kernels/agent_columns.hpp>

#include "agent_store.hpp"
#include "backend.hpp"
#include "navigator.hpp"
#include "number_text.hpp"
#include "steering_store.hpp"

namespace crowd {
namespace {

// Positions and goals within the coordinate limit, velocities within the velocity limit
// (crowd/limits.hpp): what keeps a step's maths finite.
void requirePoint(Vec2 v, const char* what) {
  if (const std::string problem = checkCoordinate(v, what); !problem.empty()) throw std::invalid_argument(problem);
}

void requireVelocity(Vec2 v, const char* what) {
  if (const std::string problem = checkVelocity(v, what); !problem.empty()) throw std::invalid_argument(problem);
}

}  // namespace

void checkConfig(const SimulatorConfig& c) {
  if (const std::string problem = checkLimit(c.timeStep, limits::kTimeStep, "timeStep"); !problem.empty()) {
    throw std::invalid_argument(problem);
  }
  if (c.threads < 0 || c.threads > kMaxThreads) {
    throw std::invalid_argument("threads must be 0 to " + std::to_string(kMaxThreads) + ", got " +
                                std::to_string(c.threads));
  }
  if (!std::isfinite(c.origin.x) || !std::isfinite(c.origin.y)) {
    throw std::invalid_argument("origin must be finite, got (" + std::to_string(c.origin.x) + ", " +
                                std::to_string(c.origin.y) + ")");
  }
  if (!std::isfinite(c.cellSize) || c.cellSize < 0.0f) {
    throw std::invalid_argument("cellSize must be a finite number >= 0, got " + std::to_string(c.cellSize));
  }
}

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

bool cudaBackendAvailable(std::string* why) {
#if defined(CROWD_WITH_CUDA)
  const std::string problem = cudaDeviceProblem();
#else
  const std::string problem = "this build has no CUDA backend (it was configured without nvcc)";
#endif
  if (why != nullptr) *why = problem;
  return problem.empty();
}

Simulator::Simulator(const SimulatorConfig& config) : config_(config), agents_(std::make_unique<AgentStore>()) {
  checkConfig(config);
  backend_ = makeBackend<Vec2>(config.backend);
}

void Simulator::syncHost() const {
  if (!hostStale_ || !backend_) return;
  // The host arrays are a cache of the device state here, so refreshing them is not a change
  // of the simulator's observable state.
  backend_->download(*agents_);
  hostStale_ = false;
}

void Simulator::hostChanged() {
  // Bring the host copy up to date first: the change applies to the newest state, which is
  // then uploaded again before the next step.
  syncHost();
  if (backend_) backend_->invalidate();
}
Simulator::~Simulator() = default;
Simulator::Simulator(Simulator&&) noexcept = default;
Simulator& Simulator::operator=(Simulator&&) noexcept = default;

void Simulator::setConfig(const SimulatorConfig& config) {
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
  removeDense(arrived);
}

std::uint32_t Simulator::internProfile(const AgentParams& params, const Behavior& behavior) {
  // Most agents share a few parameter sets and behaviours; each pair is stored once.
  const auto [it, added] = profileIndex_.try_emplace({params, behavior}, static_cast<std::uint32_t>(profiles_.size()));
  if (added) {
    profiles_.push_back(params);
    behaviors_.push_back(behavior);
  }
  return it->second;
}

const ProfileTable& Simulator::profileTable() {
  if (!table_ || table_->terms.size() != profiles_.size()) {
    table_ = std::make_unique<ProfileTable>(makeProfileTable(profiles_, behaviors_));
  }
  return *table_;
}

AgentId Simulator::addAgent(const AgentDef& def) {
  requirePoint(def.position, "position");
  requireVelocity(def.velocity, "velocity");
  requireVelocity(def.prefVelocity, "prefVelocity");
  if (def.goal) requirePoint(*def.goal, "goal");
  if (const std::string problem = checkAgentParams(def.params); !problem.empty()) {
    throw std::invalid_argument(problem);
  }
  requireUsable(def.behavior);
  if (def.target && !contains(*def.target)) throw std::invalid_argument("target is not a live agent");
  if (agents_->size() >= static_cast<std::size_t>(INT32_MAX)) {
    throw std::length_error("too many agents: at most 2^31 - 1 are supported");
  }

  hostChanged();
  const AgentId id = handles_.add(agents_->size());

  AgentRow row{};
  row.id = id;
  row.position = def.position;
  row.velocity = def.velocity;
  row.prefVelocity = def.goal ? Vec2(0.0f, 0.0f) : def.prefVelocity;
  row.goal = def.goal.value_or(Vec2(0.0f, 0.0f));
  row.profile = internProfile(def.params, def.behavior);
  row.flags = def.goal ? kHasGoal : 0;
  agents_->append(row);
  if (steering_ || def.target || !def.behavior.goalOnly()) {
    SteeringStore& store = steeringStore();  // Sized for every id, this one included.
    store.reset(id.index);
    store.setTarget(id.index, def.target.value_or(kNoTarget));
    store.setRoute(id.index, -1);
  }
  return id;
}

bool Simulator::contains(AgentId id) const { return handles_.contains(id); }

bool Simulator::removeAgent(AgentId id) {
  if (!contains(id)) return false;
  hostChanged();
  removeDense({denseOf(id)});
  return true;
}

void Simulator::removeDense(const std::vector<std::size_t>& sortedDense) { removeAgents(*agents_, handles_, sortedDense); }

std::size_t Simulator::agentCount() const { return agents_->size(); }
std::span<const AgentId> Simulator::ids() const { return agents_->id; }
std::span<const Vec2> Simulator::positions() const {
  syncHost();
  return agents_->position;
}
std::span<const Vec2> Simulator::velocities() const {
  syncHost();
  return agents_->velocity;
}

Vec2 Simulator::position(AgentId id) const {
  syncHost();
  return agents_->position[denseOf(id)];
}
Vec2 Simulator::velocity(AgentId id) const {
  syncHost();
  return agents_->velocity[denseOf(id)];
}
Vec2 Simulator::prefVelocity(AgentId id) const {
  syncHost();
  return agents_->prefVelocity[denseOf(id)];
}
std::optional<Vec2> Simulator::goal(AgentId id) const {
  const std::size_t d = denseOf(id);
  if ((agents_->flags[d] & kHasGoal) == 0) return std::nullopt;
  return agents_->goal[d];
}
const AgentParams& Simulator::params(AgentId id) const { return profiles_[agents_->profile[denseOf(id)]]; }
bool Simulator::hasArrived(AgentId id) const {
  syncHost();
  return (agents_->flags[denseOf(id)] & kArrived) != 0;
}

void Simulator::setPosition(AgentId id, Vec2 position) {
  requirePoint(position, "position");
  const std::size_t d = denseOf(id);
  hostChanged();
  agents_->position[d] = position;
}
void Simulator::setVelocity(AgentId id, Vec2 velocity) {
  requireVelocity(velocity, "velocity");
  const std::size_t d = denseOf(id);
  hostChanged();
  agents_->velocity[d] = velocity;
}
void Simulator::setGoal(AgentId id, Vec2 goal) {
  requirePoint(goal, "goal");
  const std::size_t d = denseOf(id);
  hostChanged();
  agents_->goal[d] = goal;
  agents_->flags[d] = kHasGoal;  // Not arrived at the new goal.
}
void Simulator::setPrefVelocity(AgentId id, Vec2 prefVelocity) {
  requireVelocity(prefVelocity, "prefVelocity");
  const std::size_t d = denseOf(id);
  hostChanged();
  agents_->prefVelocity[d] = prefVelocity;
  agents_->flags[d] = 0;  // No goal, so nothing to arrive at.
}
void Simulator::setParams(AgentId id, const AgentParams& params) {
  if (const std::string problem = checkAgentParams(params); !problem.empty()) {
    throw std::invalid_argument(problem);
  }
  const std::size_t d = denseOf(id);
  hostChanged();
  agents_->profile[d] = internProfile(params, behaviors_[agents_->profile[d]]);
}

std::vector<float> Simulator::radii() const {
  std::vector<float> out(agents_->size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = profiles_[agents_->profile[i]].radius;
  return out;
}

std::vector<float> Simulator::maxSpeeds() const {
  std::vector<float> out(agents_->size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = profiles_[agents_->profile[i]].maxSpeed;
  return out;
}

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
  hostChanged();
  return obstacles_.addCircle(center, radius);
}

int Simulator::addObstacle(std::span<const Vec2> vertices) {
  for (const Vec2 v : vertices) requirePoint(v, "obstacle vertex");
  hostChanged();
  return obstacles_.addPolygon(vertices);
}

namespace {

std::string describe(Vec2 v) {
  return "(" + std::to_string(v.x) + ", " + std::to_string(v.y) + ")";
}

}  // namespace

StepRequest Simulator::stepRequest(const ProfileTable& table) {
  if (!obstacles_.empty()) obstacles_.prepareGrid(table.maxObstacleRange);
  SteeringStore* steering = table.anySteering ? &steeringStore() : nullptr;
  if (table.anyPlanners) steering->keepTracks();
  return StepRequest{*agents_,
                     table,
                     obstacles_,
                     config_.timeStep,
                     config_.cellSize,
                     config_.threads,
                     config_.exactRvo2 ? 0.0f : kDeadlockJitter,
                     !config_.exactRvo2,
                     config_.seed,
                     stepCount_ + 1,
                     steering,
                     PathView{pathPoints_.data(), pathStart_.data(), pathLoop_.data(), pathCount()},
                     ReferenceLines{linePoints_.data(), lineBegin_.data(), lineEnd_.data(), pathCount(),
                                    kReferenceSpacing}};
}

void Simulator::prepare() {
  backend_->prepare(stepRequest(profileTable()));
}

void Simulator::step() {
  lastArrivals_.clear();
  if (navigator_) navigateRoutes();
  const StepRequest request = stepRequest(profileTable());
  StepReport report = backend_->step(request);
  lastTimes_ = report.times;
  lastSpeedClamps_ = report.speedClamps;
  lastPlanCandidates_ = report.planCandidates;
  lastCandidates_ = report.candidatesPerAgent;
  lastOrcaLines_ = report.orcaLinesPerAgent;
  if (report.nonFinite) {
    const NonFiniteAgent& bad = *report.nonFinite;
    throw SimulationError("step " + std::to_string(stepCount_ + 1) + ": agent " +
                          std::to_string(agents_->id[bad.dense].index) +
                          " would get a non-finite velocity " + describe(bad.velocity) + " or position " +
                          describe(bad.position) + "; the step was not applied");
  }
  hostStale_ = backend_->holdsState();
  if (request.steering != nullptr) request.steering->flip();
  ++stepCount_;
  time_ += config_.timeStep;
  applyArrivals(report.arrived);
}

void Simulator::applyArrivals(const std::vector<std::size_t>& arrivedDense) {
  for (std::size_t d : arrivedDense) lastArrivals_.push_back(Arrival{agents_->id[d], stepCount_});
  if (!config_.removeArrived || arrivedDense.empty()) return;
  hostChanged();
  removeDense(arrivedDense);
}

std::size_t Simulator::arrivedCount() const {
  syncHost();
  return countArrived(*agents_);
}

std::string Simulator::backendName() const { return backend_->name(); }

std::size_t Simulator::deviceMemoryBytes() const { return backend_->deviceBytes(); }

DeviceAgents Simulator::deviceAgents() const { return backend_->deviceAgents(); }

std::size_t Simulator::memoryBytes() const {
  return agents_->bytes() + handles_.bytes() + obstacles_.memoryBytes() + backend_->hostBytes() +
         (steering_ ? steering_->bytes() : 0) + pathPoints_.capacity() * sizeof(Vec2) +
         linePoints_.capacity() * sizeof(ReferencePoint);
}

std::uint64_t Simulator::stateHash() const {
  syncHost();
  return hashAgents(*agents_);
}

}  // namespace crowd
