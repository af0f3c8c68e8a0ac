// The CPU backend: each phase is an OpenMP loop over the per-agent kernels (agent_step.hpp).
// Every loop writes only its own agent's outputs from inputs no loop of the same phase writes,
// so the result is bit-identical for any thread count and schedule.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

#include <omp.h>

#include <crowd/kernels/agent_step.hpp>
#include <crowd/simulator.hpp>

#include "agent_grid.hpp"
#include "backend.hpp"

namespace crowd {
namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point& start) {
  const Clock::time_point now = Clock::now();
  const double ms = std::chrono::duration<double, std::milli>(now - start).count();
  start = now;
  return ms;
}

}  // namespace

ProfileTable makeProfileTable(const std::vector<AgentParams>& profiles) {
  ProfileTable table;
  for (const AgentParams& a : profiles) {
    ProfileTerms t;
    t.radius = a.radius;
    t.maxSpeed = a.maxSpeed;
    t.prefSpeed = a.prefSpeed;
    t.neighborDist = a.neighborDist;
    t.neighborDistSq = sqr(a.neighborDist);
    t.maxNeighbors = a.maxNeighbors;
    t.invTimeHorizon = 1.0f / a.timeHorizon;
    t.invTimeHorizonObst = 1.0f / a.timeHorizonObst;
    t.obstacleRange = a.timeHorizonObst * a.maxSpeed + a.radius;
    t.goalRadiusSq = sqr(a.goalRadius < 0.0f ? a.radius : a.goalRadius);
    table.terms.push_back(t);
    table.maxNeighborDist = std::max(table.maxNeighborDist, a.neighborDist);
    table.maxObstacleRange = std::max(table.maxObstacleRange, t.obstacleRange);
    table.maxNeighbors = std::max(table.maxNeighbors, a.maxNeighbors);
  }
  return table;
}

float agentCellSize(float configured, float maxNeighborDist) {
  // Cells of half the neighbour distance: a query reads at most 5x5 cells, and the ring order
  // skips most of them once the K nearest are known. Quarter-size cells were measured to cut
  // candidates by a third but cost more per cell. A smaller configured size is raised to a
  // quarter, which keeps a query within BucketsSeen's capacity.
  const float automatic = 0.5f * maxNeighborDist;
  return std::max({configured > 0.0f ? configured : automatic, 0.25f * maxNeighborDist, 1e-3f});
}

class CpuBackend final : public Backend {
 public:
  std::string name() const override { return "cpu"; }
  void step(Simulator& sim, PhaseTimes& times, double& candidatesPerAgent) override;

 private:
  ProfileTable table_;
  AgentGrid grid_;  // Rebuilt every step: agents sorted by bucket (stable in dense order).
  std::vector<unsigned> sortedId_;
  std::vector<unsigned> denseId_;
  std::vector<int> neighbours_;  // Row of table_.maxNeighbors per agent (dense order), nearest first.
  std::vector<int> neighbourCount_;
  std::vector<Vec2> newVelocities_;
};

void CpuBackend::step(Simulator& sim, PhaseTimes& times, double& candidatesPerAgent) {
  const int n = static_cast<int>(sim.positions_.size());
  const int threads = sim.config_.threads > 0 ? sim.config_.threads : omp_get_max_threads();
  Clock::time_point clock = Clock::now();

  table_ = makeProfileTable(sim.profiles_);
  if (!sim.obstacles_.empty()) sim.obstacles_.prepareGrid(table_.maxObstacleRange);
  const ObstacleSet& obstacleSet = sim.obstacles_;
  const ObstacleView obstacles{obstacleSet.edges().data(), static_cast<int>(obstacleSet.edges().size()),
                               obstacleSet.grid(), obstacleSet.cellStart().data(), obstacleSet.cellEdges().data()};

  // 1. Grid.
  grid_.build(sim.positions_, agentCellSize(sim.config_.cellSize, table_.maxNeighborDist), threads);
  sortedId_.resize(static_cast<std::size_t>(n));
  denseId_.resize(static_cast<std::size_t>(n));
#pragma omp parallel for schedule(static) num_threads(threads)
  for (int k = 0; k < n; ++k) {
    sortedId_[k] = sim.denseToId_[grid_.sortedAgent()[k]].index;
    denseId_[k] = sim.denseToId_[k].index;
  }
  times[Phase::Grid] = msSince(clock);

  // 2. Neighbours, visiting agents in bucket order so consecutive queries touch the same cells.
  const int stride = table_.maxNeighbors;
  neighbours_.resize(static_cast<std::size_t>(n) * static_cast<std::size_t>(stride));
  neighbourCount_.resize(static_cast<std::size_t>(n));
  const SortedAgents sorted{grid_.bucketStart().data(), grid_.sortedPosition().data(), sortedId_.data(),
                            grid_.sortedAgent().data()};
  std::int64_t candidates = 0;
#pragma omp parallel for schedule(dynamic, 256) num_threads(threads) reduction(+ : candidates)
  for (int k = 0; k < n; ++k) {
    const int self = sorted.agent[k];
    AgentNeighbours nearest;
    candidates += findNearestAgents(grid_.geometry(), sorted, k, sorted.position[k],
                                    table_.terms[sim.profileOf_[self]], nearest);
    int* row = &neighbours_[static_cast<std::size_t>(self) * static_cast<std::size_t>(stride)];
    for (int m = 0; m < nearest.count; ++m) row[m] = nearest.entries[m].index;
    neighbourCount_[self] = nearest.count;
  }
  candidatesPerAgent = n > 0 ? static_cast<double>(candidates) / n : 0.0;
  times[Phase::Neighbours] = msSince(clock);

  // 3. Preferred velocities: RVO2's example rule, goal - position clipped to prefSpeed. Arrived
  // agents keep settling onto the goal by the same rule.
#pragma omp parallel for schedule(static) num_threads(threads)
  for (int i = 0; i < n; ++i) {
    if (sim.hasGoal_[i]) {
      sim.prefVelocities_[i] =
          clipToLength(sim.goals_[i] - sim.positions_[i], table_.terms[sim.profileOf_[i]].prefSpeed);
    }
  }
  times[Phase::PrefVelocity] = msSince(clock);

  // 4. ORCA, in bucket order for coherent reads of neighbours' state.
  newVelocities_.resize(static_cast<std::size_t>(n));
  const AgentView agents{sim.positions_.data(), sim.velocities_.data(), sim.prefVelocities_.data(),
                         sim.profileOf_.data(), denseId_.data(), table_.terms.data(), neighbours_.data(),
                         neighbourCount_.data(), stride, 1.0f / sim.config_.timeStep};
#pragma omp parallel for schedule(dynamic, 256) num_threads(threads)
  for (int k = 0; k < n; ++k) {
    const int self = sorted.agent[k];
    newVelocities_[self] = orcaVelocity(agents, obstacles, self);
  }
  times[Phase::Orca] = msSince(clock);

  // 5. Commit: every velocity was computed from the old state; now move everyone.
  const float dt = sim.config_.timeStep;
#pragma omp parallel for schedule(static) num_threads(threads)
  for (int i = 0; i < n; ++i) {
    sim.velocities_[i] = newVelocities_[i];
    sim.positions_[i] += sim.velocities_[i] * dt;
  }
  sim.recordArrivals(table_.terms);
  times[Phase::Commit] = msSince(clock);
}

std::unique_ptr<Backend> makeCpuBackend() { return std::make_unique<CpuBackend>(); }

}  // namespace crowd
