#include <crowd/simulator.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <tuple>

#include <crowd/kernels/agent_step.hpp>

#include "backend.hpp"

namespace crowd {
namespace {

constexpr std::uint32_t kFreeSlot = UINT32_MAX;

bool isFinite(Vec2 v) { return std::isfinite(v.x) && std::isfinite(v.y); }

void requireFinite(Vec2 v, const char* what) {
  if (!isFinite(v)) throw std::invalid_argument(std::string(what) + " must be finite");
}

void checkConfig(const SimulatorConfig& c) {
  if (!std::isfinite(c.timeStep) || !(c.timeStep > 0.0f)) {
    throw std::invalid_argument("timeStep must be a finite number > 0, got " + std::to_string(c.timeStep));
  }
  if (c.threads < 0) throw std::invalid_argument("threads must be >= 0, got " + std::to_string(c.threads));
  if (!std::isfinite(c.cellSize) || c.cellSize < 0.0f) {
    throw std::invalid_argument("cellSize must be a finite number >= 0, got " + std::to_string(c.cellSize));
  }
}

auto paramsKey(const AgentParams& p) {
  return std::make_tuple(p.radius, p.maxSpeed, p.prefSpeed, p.neighborDist, p.maxNeighbors,
                         p.timeHorizon, p.timeHorizonObst, p.goalRadius);
}

std::unique_ptr<Backend> makeBackend(BackendKind kind) {
  if (kind == BackendKind::Cpu) return makeCpuBackend();
  std::string why;
  if (cudaBackendAvailable(&why)) {
#if defined(CROWD_WITH_CUDA)
    return makeCudaBackend();
#endif
  }
  if (kind == BackendKind::Cuda) throw std::runtime_error("the CUDA backend cannot run: " + why);
  return makeCpuBackend();
}

}  // namespace

bool cudaBackendAvailable(std::string* why) {
#if defined(CROWD_WITH_CUDA)
  const std::string problem = cudaDeviceProblem();
#else
  const std::string problem = "this build has no CUDA backend (it was configured without nvcc)";
#endif
  if (why != nullptr) *why = problem;
  return problem.empty();
}

Simulator::Simulator(const SimulatorConfig& config) : config_(config) {
  checkConfig(config);
  backend_ = makeBackend(config.backend);
}

void Simulator::syncHost() const {
  if (!hostStale_ || !backend_) return;
  // The host arrays are a cache of the device state here, so refreshing them is not a change
  // of the simulator's observable state.
  backend_->download(const_cast<Simulator&>(*this));
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
  config_ = config;
}

std::uint32_t Simulator::internProfile(const AgentParams& params) {
  // Most agents share a few parameter sets; store each set once. A linear scan of the recent
  // profiles is enough in practice, with a sorted index for scenes with many distinct sets.
  const auto key = paramsKey(params);
  auto it = std::lower_bound(profileIndex_.begin(), profileIndex_.end(), key,
                             [&](std::uint32_t p, const auto& k) { return paramsKey(profiles_[p]) < k; });
  if (it != profileIndex_.end() && paramsKey(profiles_[*it]) == key) return *it;
  const auto id = static_cast<std::uint32_t>(profiles_.size());
  profiles_.push_back(params);
  profileIndex_.insert(it, id);
  return id;
}

AgentId Simulator::addAgent(const AgentDef& def) {
  requireFinite(def.position, "position");
  requireFinite(def.velocity, "velocity");
  requireFinite(def.prefVelocity, "prefVelocity");
  if (def.goal) requireFinite(*def.goal, "goal");
  if (const std::string problem = checkAgentParams(def.params); !problem.empty()) {
    throw std::invalid_argument(problem);
  }
  if (denseToId_.size() >= static_cast<std::size_t>(INT32_MAX)) {
    throw std::length_error("too many agents: at most 2^31 - 1 are supported");
  }

  hostChanged();
  AgentId id;
  if (!freeSlots_.empty()) {
    id.index = freeSlots_.back();
    freeSlots_.pop_back();
    id.generation = slotGeneration_[id.index];
  } else {
    id.index = static_cast<std::uint32_t>(slotGeneration_.size());
    slotGeneration_.push_back(0);
    slotToDense_.push_back(kFreeSlot);
  }
  slotToDense_[id.index] = static_cast<std::uint32_t>(denseToId_.size());

  denseToId_.push_back(id);
  positions_.push_back(def.position);
  velocities_.push_back(def.velocity);
  prefVelocities_.push_back(def.goal ? Vec2(0.0f, 0.0f) : def.prefVelocity);
  goals_.push_back(def.goal.value_or(Vec2(0.0f, 0.0f)));
  hasGoal_.push_back(def.goal.has_value());
  arrived_.push_back(0);
  profileOf_.push_back(internProfile(def.params));
  return id;
}

std::size_t Simulator::denseOf(AgentId id) const {
  if (id.index >= slotToDense_.size() || slotToDense_[id.index] == kFreeSlot ||
      slotGeneration_[id.index] != id.generation) {
    throw std::out_of_range("no live agent with id " + std::to_string(id.index) + "/" +
                            std::to_string(id.generation));
  }
  return slotToDense_[id.index];
}

bool Simulator::contains(AgentId id) const {
  return id.index < slotToDense_.size() && slotToDense_[id.index] != kFreeSlot &&
         slotGeneration_[id.index] == id.generation;
}

bool Simulator::removeAgent(AgentId id) {
  if (!contains(id)) return false;
  hostChanged();
  removeDense({slotToDense_[id.index]});
  return true;
}

void Simulator::removeDense(std::vector<std::size_t> sortedDense) {
  if (sortedDense.empty()) return;
  // Stable compaction keeps the remaining agents in their order, so outputs stay sorted by id.
  for (std::size_t d : sortedDense) {
    const AgentId id = denseToId_[d];
    slotToDense_[id.index] = kFreeSlot;
    ++slotGeneration_[id.index];
    freeSlots_.push_back(id.index);
  }
  std::size_t write = 0;
  std::size_t next = 0;
  for (std::size_t read = 0; read < denseToId_.size(); ++read) {
    if (next < sortedDense.size() && sortedDense[next] == read) {
      ++next;
      continue;
    }
    if (write != read) {
      denseToId_[write] = denseToId_[read];
      positions_[write] = positions_[read];
      velocities_[write] = velocities_[read];
      prefVelocities_[write] = prefVelocities_[read];
      goals_[write] = goals_[read];
      hasGoal_[write] = hasGoal_[read];
      arrived_[write] = arrived_[read];
      profileOf_[write] = profileOf_[read];
      slotToDense_[denseToId_[write].index] = static_cast<std::uint32_t>(write);
    }
    ++write;
  }
  denseToId_.resize(write);
  positions_.resize(write);
  velocities_.resize(write);
  prefVelocities_.resize(write);
  goals_.resize(write);
  hasGoal_.resize(write);
  arrived_.resize(write);
  profileOf_.resize(write);
}

Vec2 Simulator::position(AgentId id) const {
  syncHost();
  return positions_[denseOf(id)];
}
Vec2 Simulator::velocity(AgentId id) const {
  syncHost();
  return velocities_[denseOf(id)];
}
Vec2 Simulator::prefVelocity(AgentId id) const {
  syncHost();
  return prefVelocities_[denseOf(id)];
}
std::optional<Vec2> Simulator::goal(AgentId id) const {
  syncHost();
  const std::size_t d = denseOf(id);
  if (!hasGoal_[d]) return std::nullopt;
  return goals_[d];
}
const AgentParams& Simulator::params(AgentId id) const { return profiles_[profileOf_[denseOf(id)]]; }
bool Simulator::hasArrived(AgentId id) const {
  syncHost();
  return arrived_[denseOf(id)] != 0;
}

void Simulator::setPosition(AgentId id, Vec2 position) {
  hostChanged();
  requireFinite(position, "position");
  positions_[denseOf(id)] = position;
}
void Simulator::setVelocity(AgentId id, Vec2 velocity) {
  hostChanged();
  requireFinite(velocity, "velocity");
  velocities_[denseOf(id)] = velocity;
}
void Simulator::setGoal(AgentId id, Vec2 goal) {
  hostChanged();
  requireFinite(goal, "goal");
  const std::size_t d = denseOf(id);
  goals_[d] = goal;
  hasGoal_[d] = 1;
  arrived_[d] = 0;
}
void Simulator::setPrefVelocity(AgentId id, Vec2 prefVelocity) {
  hostChanged();
  requireFinite(prefVelocity, "prefVelocity");
  const std::size_t d = denseOf(id);
  prefVelocities_[d] = prefVelocity;
  hasGoal_[d] = 0;
  arrived_[d] = 0;
}
void Simulator::setParams(AgentId id, const AgentParams& params) {
  hostChanged();
  const std::size_t d = denseOf(id);
  if (const std::string problem = checkAgentParams(params); !problem.empty()) {
    throw std::invalid_argument(problem);
  }
  profileOf_[d] = internProfile(params);
}

std::vector<float> Simulator::radii() const {
  syncHost();
  std::vector<float> out(profileOf_.size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = profiles_[profileOf_[i]].radius;
  return out;
}

int Simulator::addObstacle(std::span<const Vec2> vertices) {
  hostChanged();
  return obstacles_.addPolygon(vertices);
}

void Simulator::prepare() { backend_->prepare(*this); }

void Simulator::step() {
  lastArrivals_.clear();
  lastTimes_ = PhaseTimes{};
  backend_->step(*this, lastTimes_, lastCandidates_);
  ++stepCount_;
}

void Simulator::recordArrivals(const std::vector<ProfileTerms>& terms) {
  std::vector<std::size_t> toRemove;
  const std::int64_t stepNumber = stepCount_ + 1;
  for (std::size_t i = 0; i < positions_.size(); ++i) {
    if (!hasGoal_[i] || arrived_[i]) continue;
    if (absSq(positions_[i] - goals_[i]) <= terms[profileOf_[i]].goalRadiusSq) {
      arrived_[i] = 1;
      lastArrivals_.push_back(Arrival{denseToId_[i], stepNumber});
      if (config_.removeArrived) toRemove.push_back(i);
    }
  }
  removeDense(std::move(toRemove));
}

std::size_t Simulator::arrivedCount() const {
  syncHost();
  return static_cast<std::size_t>(std::count(arrived_.begin(), arrived_.end(), std::uint8_t{1}));
}

std::string Simulator::backendName() const { return backend_->name(); }

std::size_t Simulator::deviceMemoryBytes() const { return backend_->deviceBytes(); }

std::uint64_t Simulator::stateHash() const {
  syncHost();
  // FNV-1a over the raw bits: any difference in any float shows.
  std::uint64_t hash = 1469598103934665603ull;
  auto mix = [&hash](const void* bytes, std::size_t size) {
    const auto* p = static_cast<const unsigned char*>(bytes);
    for (std::size_t i = 0; i < size; ++i) {
      hash ^= p[i];
      hash *= 1099511628211ull;
    }
  };
  for (std::size_t i = 0; i < denseToId_.size(); ++i) {
    mix(&denseToId_[i], sizeof(AgentId));
    mix(&positions_[i], sizeof(Vec2));
    mix(&velocities_[i], sizeof(Vec2));
  }
  return hash;
}

}  // namespace crowd
