// The interface every compute backend implements. A backend is an executor: it runs the step's
// phases (kernels/step_phases.hpp) over the agents and reports what the step produced; the
// Simulator applies arrivals and removals. A backend may keep its own buffers (grids,
// neighbour lists, device copies) between steps.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <crowd/agent_params.hpp>
#include <crowd/behavior.hpp>
#include <crowd/simulator.hpp>
#include <crowd/kernels/profile_terms.hpp>
#include <crowd/kernels/step_view.hpp>
#include <crowd/obstacles.hpp>
#include <crowd/phase_times.hpp>

#include "sim/agent_store.hpp"
#include "sim/steering_store.hpp"

namespace crowd {

/// The per-profile terms of every interned parameter set, with the maxima the grids need.
struct ProfileTable {
  std::vector<ProfileTerms> terms;
  std::vector<SteeringTerms> steering;  ///< Indexed like terms.
  bool anySteering = false;             ///< Some profile is not goal-only.
  bool anyPlanners = false;             ///< Some profile has a local planner (agents keep tracks).
  float maxNeighborDist = 0.0f;
  float maxObstacleRange = 0.0f;
  int maxNeighbors = 0;
};
ProfileTable makeProfileTable(const std::vector<AgentParams>& profiles, const std::vector<Behavior>& behaviors);

/// Chooses the agent grid's cell side step by step: the configured size, or, when that is 0
/// (automatic), half the largest neighbour distance at first and then what each step's search
/// ranges suggest (adaptedCellSize). Never below 1/2.5 of the largest neighbour distance,
/// which keeps every query within CellNeighbourhood::kMaxReach rings.
class CellSizeChooser {
 public:
  /// The cell side for this step.
  float choose(float configured, float maxNeighborDist);
  /// What the step's queries found: agents and StepTally::rangeSum.
  void observe(long long agents, long long rangeSum);
  /// A little more than the last step's mean search range, squared: most agents' K-th
  /// neighbour lies within it (infinite before the first step).
  float nearThresholdSq() const;
  /// Whether the crowd is sparse (most agents' search range is their whole neighbour distance:
  /// they have fewer than K neighbours), so candidate lists pay: the cells are then made wide
  /// enough to hold each list (neighbour distance plus listSkin()).
  bool sparse() const { return sparse_; }
  /// How much further than the neighbour distance candidate lists reach.
  float listSkin() const { return kListSkinFraction * maxNeighborDist_; }

  static constexpr float kListSkinFraction = 0.2f;

 private:
  float current_ = 0.0f;
  float meanRange_ = 0.0f;
  float maxNeighborDist_ = 0.0f;
  bool sparse_ = false;
  float smallest_ = 0.0f;
  float largest_ = 0.0f;
  bool automatic_ = false;
};

/// Everything one step needs. The obstacles' grid is prepared for profiles.maxObstacleRange.
struct StepRequest {
  AgentStore& agents;  ///< Dense order. A backend that keeps the state elsewhere reads it only to upload.
  const ProfileTable& profiles;
  const ObstacleSet& obstacles;
  float timeStep;
  float cellSize;  ///< Configured agent grid cell side; 0 picks it automatically.
  int threads;     ///< CPU threads.
  float jitter;    ///< Deadlock jitter (fraction of maxSpeed); 0 for RVO2's exact results.
  bool clampSpeed; ///< Keep velocities within maxSpeed.
  std::uint64_t seed;
  std::int64_t step;  ///< The step being computed, 1 for the first.
  SteeringStore* steering;  ///< Per-agent steering state; null when every profile is goal-only.
  PathView paths;
  ReferenceLines lines;     ///< The paths' reference lines, for the local planner.
};

/// An agent whose new velocity or position was not finite; the step was then not applied.
template <class Vector>
struct NonFiniteAgentOf {
  std::size_t dense;  ///< Its dense index.
  Vector velocity;    ///< What the step computed for it.
  Vector position;
};
using NonFiniteAgent = NonFiniteAgentOf<Vec2>;

/// What a step produced besides the agents' new state.
template <class Vector>
struct StepReportOf {
  PhaseTimes times;
  double candidatesPerAgent = 0;
  double orcaLinesPerAgent = 0;
  std::int64_t speedClamps = 0;  ///< New velocities pulled back into the maxSpeed disc.
  std::int64_t planCandidates = 0;  ///< Local-planner candidates costed.
  std::vector<std::size_t> arrived;         ///< Dense indices of agents that arrived, ascending.
  std::optional<NonFiniteAgentOf<Vector>> nonFinite;  ///< Set when the step was refused (lowest id first).
};
using StepReport = StepReportOf<Vec2>;
using StepReport3 = StepReportOf<Vec3>;

/// Everything one step of a 3D world needs (3D worlds have no obstacles or paths; the steering
/// state they have, targets and wander directions, comes in by id).
struct StepRequest3 {
  AgentStore3& agents;  ///< Dense order.
  const ProfileTable& profiles;
  float timeStep;
  float cellSize;   ///< Configured agent grid cell side; 0 picks it automatically.
  int threads;      ///< CPU threads.
  bool clampSpeed;  ///< Keep velocities within maxSpeed.
  float jitter = 0.0f;  ///< Deadlock jitter (fraction of maxSpeed); 0 for RVO2-3D's exact results.
  /// Each agent id's target (kNoTarget for none), `idCount` entries; null when no agent has one.
  const AgentId* targets = nullptr;
  /// Each agent id's wander direction before and after the step, `idCount` entries; null when
  /// no profile wanders.
  const Vec3* wanderIn = nullptr;
  Vec3* wanderOut = nullptr;
  int idCount = 0;
  std::uint64_t seed = 1;  ///< Seeds the random draws (wander).
  std::int64_t step = 1;   ///< The step being computed, 1 for the first.
};

/// A StepView with the request's per-step settings (time step, deadlock breaking, seed, step)
/// and the near threshold; the backend fills in the arrays it keeps.
StepView stepSettings(const StepRequest& request, float nearThresholdSq);
/// A StepView3 with the request's per-step settings; the backend fills in the arrays it keeps.
StepView3 stepSettings3(const StepRequest3& request, float nearThresholdSq);
/// The report's cost figures from a step's tally.
template <class Vector>
void reportTally(const StepTally& tally, int agents, StepReportOf<Vector>& report) {
  const double n = agents > 0 ? static_cast<double>(agents) : 1.0;
  report.candidatesPerAgent = static_cast<double>(tally.candidates) / n;
  report.orcaLinesPerAgent = static_cast<double>(tally.orcaLines) / n;
  report.speedClamps = tally.speedClamps;
  report.planCandidates = tally.planCandidates;
}

/// What a step of each world is asked with.
template <class Vector>
struct StepRequestFor;
template <>
struct StepRequestFor<Vec2> {
  using Type = StepRequest;
};
template <>
struct StepRequestFor<Vec3> {
  using Type = StepRequest3;
};

/// A backend for a planar world (Backend) or a 3D one (Backend3): the same executor over the
/// same phases, stepping a StepView or a StepView3.
template <class Vector>
class BackendOf {
 public:
  using Request = typename StepRequestFor<Vector>::Type;

  virtual ~BackendOf() = default;
  virtual std::string name() const = 0;
  /// Computes new velocities from the current state, then commits them, unless some agent's
  /// result is not finite: then nothing changes and the report names the agent.
  virtual StepReportOf<Vector> step(const Request& request) = 0;
  /// Whether a step leaves the newest state in the backend (on the device) rather than in the
  /// host store; the Simulator then calls download() before anyone reads the host store.
  virtual bool holdsState() const { return false; }
  /// Copies the agents' state into the host store.
  virtual void download(AgentStoreOf<Vector>&) {}
  /// The host state changed (agents, parameters or obstacles): upload before the next step.
  virtual void invalidate() {}
  /// Gets ready to step (a GPU backend uploads the agents); throws if it cannot.
  virtual void prepare(const Request&) {}
  /// Device memory the backend holds, in bytes (0 on the CPU).
  virtual std::size_t deviceBytes() const { return 0; }
  /// A planar world's agents in device memory, when the device's copy is the current state.
  virtual DeviceAgents deviceAgents() const { return {}; }
  /// Host memory the backend holds for its working copies and grids, in bytes.
  virtual std::size_t hostBytes() const { return 0; }
};
using Backend = BackendOf<Vec2>;
using Backend3 = BackendOf<Vec3>;

/// The backend `kind` asks for: Auto is the GPU when a usable CUDA device is present, else the
/// CPU. Throws std::runtime_error when Cuda is asked for and cannot run.
template <class Vector>
std::unique_ptr<BackendOf<Vector>> makeBackend(BackendKind kind);

std::unique_ptr<Backend> makeCpuBackend();
std::unique_ptr<Backend3> makeCpuBackend3();
#if defined(CROWD_WITH_CUDA)
/// Empty when a CUDA device can run the backend, else the reason it cannot.
std::string cudaDeviceProblem();
std::unique_ptr<Backend> makeCudaBackend();
std::unique_ptr<Backend3> makeCudaBackend3();
#endif

}  // namespace crowd
