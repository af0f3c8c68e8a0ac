// The seam between the step and the hardware. The step driver (step_driver.hpp) owns the step's
// skeleton; an executor (the CPU's OpenMP loops, the CUDA kernels) supplies the parts that depend
// on where the agents live: arranging them in cell order, running the per-agent phases
// (kernels/step_phases.hpp) over them, and taking up or rolling back the result. One interface
// serves both worlds (Vector Vec2 or Vec3).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <crowd/device_agents.hpp>
#include <crowd/kernels/step_view.hpp>
#include <crowd/phase_times.hpp>
#include <crowd/simulator_config.hpp>

#include "sim/agent_store.hpp"
#include "sim/steering_store.hpp"
#include "sim/step/cell_size.hpp"
#include "sim/step/profile_table.hpp"

namespace crowd {

/// Everything one step needs, in host memory.
template <class Vector>
struct StepRequestOf {
  AgentStoreOf<Vector>&
      agents;  ///< Dense order. An executor that keeps the state elsewhere reads it only to upload.
  SteeringStoreOf<Vector>* steering;  ///< Per-agent steering state; null when every profile is goal-only.
  const ProfileTable& profiles;
  StaticWorldView world;  ///< Obstacles, paths and lines in host memory (empty in 3D); the edge grid ready.
  double time;            ///< Seconds simulated before this step.
  float timeStep;
  float cellSize;   ///< Configured agent grid cell side; 0 picks it automatically.
  int threads;      ///< CPU threads; 0: OpenMP's default.
  float jitter;     ///< Deadlock jitter (fraction of maxSpeed); 0 for RVO2's exact results.
  bool repairRvo2;  ///< Speed clamp and end-on obstacle lines (StepView::repairRvo2).
  std::uint64_t seed;
  std::int64_t step;            ///< The step being computed, 1 for the first.
  PeriodicBoundary periodic{};  ///< Where a planar world repeats along x (off by default).
};

/// An agent whose new velocity or position was not finite; the step was then not applied.
template <class Vector>
struct NonFiniteAgentOf {
  std::size_t dense;  ///< Its dense index.
  Vector velocity;    ///< What the step computed for it.
  Vector position;
};

/// The agent a refused step names, from the working copy in cell order (`denseOf` maps a slot to
/// its dense index): the lowest-id one whose new velocity or position is not finite.
template <class Vector, class DenseOf>
NonFiniteAgentOf<Vector> firstNonFinite(std::span<const Vector> velocity, const AgentStoreOf<Vector>& working,
                                        DenseOf&& denseOf) {
  std::size_t first = velocity.size();
  for (std::size_t k = 0; k < velocity.size(); ++k) {
    if (isFinite(velocity[k]) && isFinite(working.position[k])) continue;
    if (first == velocity.size() || working.id[k].index < working.id[first].index) first = k;
  }
  return NonFiniteAgentOf<Vector>{static_cast<std::size_t>(denseOf(first)), velocity[first],
                                  working.position[first]};
}

/// What a step produced besides the agents' new state.
template <class Vector>
struct StepReportOf {
  PhaseTimes times;
  double candidatesPerAgent = 0;
  double orcaLinesPerAgent = 0;
  std::int64_t speedClamps = 0;                       ///< New velocities pulled back into the maxSpeed disc.
  std::int64_t planCandidates = 0;                    ///< Local-planner candidates costed.
  std::vector<std::size_t> arrived;                   ///< Dense indices of agents that arrived, ascending.
  std::optional<NonFiniteAgentOf<Vector>> nonFinite;  ///< Set when the step was refused (lowest id first).
};

/// Where this step's phases read and write, in the executor's memory: the working copy of the
/// agents in cell order and the step's own arrays, the profile tables, the steering state (with
/// each id's slot filled in when some agent has a target) and the static world.
template <class Vector>
struct WorkingArraysOf {
  AgentArraysOf<Vector> agents;
  int count = 0;
  GridCells cells{};
  NeighbourTable neighbours{};
  Vector* newVelocity = nullptr;
  CandidateLists lists{nullptr, nullptr, 0, 0.0f, ListMode::None};
  const ProfileTerms* terms = nullptr;
  const SteeringTerms* steering = nullptr;
  SteeringStateOf<Vector> state{};
  StaticWorldView world{};
};

template <class Vector>
class ExecutorOf {
 public:
  using Request = StepRequestOf<Vector>;

  virtual ~ExecutorOf() = default;
  virtual std::string name() const = 0;

  // --- the step's parts, in the order the step driver calls them ----------------------------
  /// Readies this step (uploads what the host changed); returns the number of agents.
  virtual int begin(const Request& request) = 0;
  /// The grid phase: the agents in cell order, under a cell side from `cellSize` (or the
  /// candidate lists kept from an earlier step), timed into `times`.
  virtual WorkingArraysOf<Vector> arrange(const Request& request, CellSizeChooser& cellSize,
                                          PhaseTimes& times) = 0;
  /// Runs every per-agent phase over the view, timing each.
  virtual StepTally runPhases(const StepViewOf<Vector>& view, const ProfileTable& profiles,
                              PhaseTimes& times) = 0;
  /// The first agent (lowest id) whose result is not finite, for a refused step.
  virtual NonFiniteAgentOf<Vector> firstNonFinite() = 0;
  /// A refused step: the state is what the step started from.
  virtual void rollBack() = 0;
  /// An accepted step: the new state is the current one.
  virtual void accept(const StepTally& tally) = 0;
  /// The dense indices of the agents that arrived in the accepted step, in any order.
  virtual std::vector<std::size_t> arrivals() = 0;
  /// Adds what the step cost outside the timed parts (host work around a device) to `times`.
  virtual void finishTimes(PhaseTimes&) {}
  /// The step threw: whatever the executor holds of it is suspect.
  virtual void stepFailed() {}

  // --- where the state lives ---------------------------------------------------------------
  /// Whether a step leaves the newest state in the executor (a working copy, the device) rather
  /// than in the host store; the simulator then calls download() before anyone reads the host store.
  virtual bool holdsState() const { return false; }
  /// Copies the agents' state (and the steering state, when there is a store) into the host stores.
  virtual void download(AgentStoreOf<Vector>&, SteeringStoreOf<Vector>*) {}
  /// The host state changed (agents, parameters, steering state or the static world).
  virtual void invalidate() {}
  /// Gets ready to step (a GPU executor uploads the agents); throws if it cannot.
  virtual void prepare(const Request&) {}
  /// Device memory held, in bytes (0 on the CPU).
  virtual std::size_t deviceBytes() const { return 0; }
  /// The agents in device memory, when the device's copy is the current state.
  virtual DeviceAgentsOf<Vector> deviceAgents() const { return {}; }
  /// Host memory held for working copies and grids, in bytes.
  virtual std::size_t hostBytes() const { return 0; }
  /// CPU threads the last step ran on; 0 where the executor does not use CPU threads.
  virtual int threadsUsed() const { return 0; }
};

/// The executor `kind` asks for: Auto is the GPU when a usable CUDA device is present, else the
/// CPU. Throws std::runtime_error when Cuda is asked for and cannot run.
template <class Vector>
std::unique_ptr<ExecutorOf<Vector>> makeExecutor(BackendKind kind);

template <class Vector>
std::unique_ptr<ExecutorOf<Vector>> makeCpuExecutor();
#if defined(CROWD_WITH_CUDA)
/// Empty when a CUDA device can run the executor, else the reason it cannot.
std::string cudaDeviceProblem();
template <class Vector>
std::unique_ptr<ExecutorOf<Vector>> makeCudaExecutor();
#endif

}  // namespace crowd
