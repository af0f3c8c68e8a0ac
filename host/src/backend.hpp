// The interface every compute backend implements. A backend advances the simulator's agents by
// one step: it may keep its own buffers (grids, neighbour lists, device copies) between steps.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <crowd/agent_params.hpp>
#include <crowd/kernels/agent_step.hpp>
#include <crowd/phase_times.hpp>

namespace crowd {

class Simulator;

/// The per-profile terms of every interned parameter set, with the maxima the grids need.
struct ProfileTable {
  std::vector<ProfileTerms> terms;
  float maxNeighborDist = 0.0f;
  float maxObstacleRange = 0.0f;
  int maxNeighbors = 0;
};
ProfileTable makeProfileTable(const std::vector<AgentParams>& profiles);

/// The agent grid's cell side for a configured size (0: automatic) and the largest neighborDist.
float agentCellSize(float configured, float maxNeighborDist);

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;
  /// Computes new velocities from the current state, then commits them (positions, arrivals,
  /// removals). Fills `times` and the number of neighbour candidates examined.
  virtual void step(Simulator& sim, PhaseTimes& times, double& candidatesPerAgent) = 0;
  /// Copies the agents' state back into the simulator's host arrays (a GPU backend's step
  /// leaves the newest state on the device).
  virtual void download(Simulator&) {}
  /// The host state changed (agents, parameters or obstacles): upload before the next step.
  virtual void invalidate() {}
  /// Gets ready to step (a GPU backend uploads the agents); throws if it cannot.
  virtual void prepare(Simulator&) {}
  /// Device memory the backend holds, in bytes (0 on the CPU).
  virtual std::size_t deviceBytes() const { return 0; }
};

std::unique_ptr<Backend> makeCpuBackend();
#if defined(CROWD_WITH_CUDA)
/// Empty when a CUDA device can run the backend, else the reason it cannot.
std::string cudaDeviceProblem();
std::unique_ptr<Backend> makeCudaBackend();
#endif

}  // namespace crowd
