// The CPU backend: each phase is an OpenMP loop over the per-agent kernels. Every loop writes
// only its own agent's outputs from inputs no loop of the same phase writes, so the result is
// bit-identical for any thread count and schedule.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <vector>

#include <omp.h>

#include <crowd/kernels/k_nearest.hpp>
#include <crowd/kernels/linear_program.hpp>
#include <crowd/kernels/orca_agents.hpp>
#include <crowd/kernels/orca_obstacles.hpp>
#include <crowd/kernels/uniform_grid.hpp>
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

// Values derived once per profile per step, so the hot loops do no divisions RVO2 does not.
struct ProfileTerms {
  float radius;
  float maxSpeed;
  float prefSpeed;
  float neighborDist;
  float neighborDistSq;
  int maxNeighbors;
  float invTimeHorizon;
  float invTimeHorizonObst;
  float obstacleRange;
  float goalRadiusSq;
};

}  // namespace

class CpuBackend final : public Backend {
 public:
  std::string name() const override { return "cpu"; }
  void step(Simulator& sim, PhaseTimes& times, double& candidatesPerAgent) override;

 private:
  void buildGrid(const Simulator& sim, float maxNeighborDist, int threads);
  std::int64_t findNeighbours(const Simulator& sim, int threads);
  void computeVelocities(Simulator& sim, int threads);

  std::vector<ProfileTerms> terms_;
  int neighbourStride_ = 0;  // Largest maxNeighbors in use: the row length of neighbours_.

  // Agent grid, rebuilt every step: agents sorted by bucket (stable in dense order).
  AgentGrid grid_;
  std::vector<unsigned> sortedId_;  // Stable ids in sorted order, for tie-breaking.

  std::vector<int> neighbours_;  // Row per agent (dense order), nearest first.
  std::vector<int> neighbourCount_;
  std::vector<Vec2> newVelocities_;
};

void CpuBackend::buildGrid(const Simulator& sim, float maxNeighborDist, int threads) {
  // Cells of half the neighbour distance: a query reads at most 5x5 cells, and the ring order
  // below skips most of them once the K nearest are known. Quarter-size cells were measured to
  // cut candidates by a third but cost more per cell. A smaller configured size is raised to a
  // quarter, which keeps a query under BucketsSeen's capacity.
  const float automatic = 0.5f * maxNeighborDist;
  const float cellSize = std::max({sim.config_.cellSize > 0.0f ? sim.config_.cellSize : automatic,
                                   0.25f * maxNeighborDist, 1e-3f});
  grid_.build(sim.positions_, cellSize, threads);
  const int n = static_cast<int>(sim.positions_.size());
  sortedId_.resize(static_cast<std::size_t>(n));
#pragma omp parallel for schedule(static) num_threads(threads)
  for (int k = 0; k < n; ++k) sortedId_[k] = sim.denseToId_[grid_.sortedAgent()[k]].index;
}

std::int64_t CpuBackend::findNeighbours(const Simulator& sim, int threads) {
  const int n = static_cast<int>(sim.positions_.size());
  neighbours_.resize(static_cast<std::size_t>(n) * static_cast<std::size_t>(neighbourStride_));
  neighbourCount_.resize(static_cast<std::size_t>(n));
  std::int64_t candidates = 0;

  const HashedGrid& grid = grid_.geometry();
  const std::vector<int>& bucketStart = grid_.bucketStart();
  const std::vector<int>& sortedAgent = grid_.sortedAgent();
  const std::vector<Vec2>& sortedPosition = grid_.sortedPosition();

  // Visit agents in bucket order so consecutive queries touch the same cells.
#pragma omp parallel for schedule(dynamic, 256) num_threads(threads) reduction(+ : candidates)
  for (int k = 0; k < n; ++k) {
    const int self = sortedAgent[k];
    const ProfileTerms& t = terms_[sim.profileOf_[self]];
    const Vec2 p = sortedPosition[k];
    AgentNeighbours nearest;
    nearest.reset(t.maxNeighbors, t.neighborDistSq);
    if (t.maxNeighbors > 0) {
      // Scan rings of cells outwards from the agent's own: near candidates fill the list early,
      // the range shrinks to the K-th distance, and most outer cells are then skipped unread.
      const CellCoord lo = hashedCellOf(grid, Vec2(p.x - t.neighborDist, p.y - t.neighborDist));
      const CellCoord hi = hashedCellOf(grid, Vec2(p.x + t.neighborDist, p.y + t.neighborDist));
      const CellCoord home = hashedCellOf(grid, p);
      const int rings = std::max(std::max(home.x - lo.x, hi.x - home.x), std::max(home.y - lo.y, hi.y - home.y));
      BucketsSeen seen;
      for (int ring = 0; ring <= rings; ++ring) {
        for (int y = std::max(home.y - ring, lo.y); y <= std::min(home.y + ring, hi.y); ++y) {
          const bool edgeRow = y == home.y - ring || y == home.y + ring;
          const int step = edgeRow || ring == 0 ? 1 : 2 * ring;  // Inner rows: only the two ends.
          for (int x = home.x - ring; x <= home.x + ring; x += step) {
            if (x < lo.x || x > hi.x) continue;
            const CellCoord cell{x, y};
            if (!grid.wraps && !insideBox(grid, cell)) continue;
            if (!nearest.mayAccept(hashedCellDistSq(grid, cell, p))) continue;
            const unsigned bucket = bucketOf(grid, cell);
            const int begin = bucketStart[bucket];
            const int end = bucketStart[bucket + 1];
            if (begin == end || (grid.wraps && !seen.firstVisit(bucket))) continue;
            for (int j = begin; j < end; ++j) {
              if (j == k) continue;
              ++candidates;
              // RVO2 measures |self - other|^2; squaring makes the sign irrelevant to the bits.
              nearest.offer(absSq(p - sortedPosition[j]), sortedId_[j], sortedAgent[j]);
            }
          }
        }
      }
    }
    int* row = &neighbours_[static_cast<std::size_t>(self) * static_cast<std::size_t>(neighbourStride_)];
    for (int m = 0; m < nearest.count; ++m) row[m] = nearest.entries[m].index;
    neighbourCount_[self] = nearest.count;
  }
  return candidates;
}

void CpuBackend::computeVelocities(Simulator& sim, int threads) {
  const int n = static_cast<int>(sim.positions_.size());
  const std::vector<Vec2>& pos = sim.positions_;
  const std::vector<Vec2>& vel = sim.velocities_;
  const ObstacleSet& obstacles = sim.obstacles_;
  const ObstacleEdge* edges = obstacles.edges().data();
  const bool haveObstacles = !obstacles.empty();
  const GridGeometry& edgeGrid = obstacles.grid();
  const std::vector<int>& edgeCellStart = obstacles.cellStart();
  const std::vector<int>& cellEdges = obstacles.cellEdges();
  const float invTimeStep = 1.0f / sim.config_.timeStep;
  newVelocities_.resize(static_cast<std::size_t>(n));
  const std::vector<int>& sortedAgent = grid_.sortedAgent();
#pragma omp parallel for schedule(dynamic, 256) num_threads(threads)
  for (int k = 0; k < n; ++k) {
    const int self = sortedAgent[k];
    const ProfileTerms& t = terms_[sim.profileOf_[self]];
    const Vec2 p = pos[self];
    const Vec2 v = vel[self];
    OrcaLine lines[kMaxOrcaLines];
    int lineCount = 0;

    if (haveObstacles) {
      // Obstacle edges in range, nearest first (ties by edge index). An edge spans several
      // cells, so skip ones already offered.
      const float rangeSq = sqr(t.obstacleRange);
      ObstacleNeighbours nearEdges;
      nearEdges.reset(kMaxObstacleNeighbors, rangeSq);
      const CellRange range = cellsTouching(edgeGrid, p, t.obstacleRange);
      for (int y = range.lo.y; y <= range.hi.y; ++y) {
        for (int x = range.lo.x; x <= range.hi.x; ++x) {
          const CellCoord cell{x, y};
          if (!(cellDistSq(edgeGrid, cell, p) < rangeSq)) continue;
          const int c = cellIndex(edgeGrid, cell);
          for (int j = edgeCellStart[c]; j < edgeCellStart[c + 1]; ++j) {
            const int e = cellEdges[j];
            const float distSq = visibleEdgeDistSq(edges, e, p);
            if (distSq < 0.0f || !nearEdges.mayAccept(distSq)) continue;
            bool seen = false;
            for (int m = 0; m < nearEdges.count && !seen; ++m) seen = nearEdges.entries[m].index == e;
            if (!seen) nearEdges.offer(distSq, static_cast<unsigned>(e), e);
          }
        }
      }
      int edgeList[kMaxObstacleNeighbors];
      for (int m = 0; m < nearEdges.count; ++m) edgeList[m] = nearEdges.entries[m].index;
      lineCount = obstacleOrcaLines(edges, edgeList, nearEdges.count, p, v, t.radius,
                                    t.invTimeHorizonObst, lines);
    }
    const int obstacleLineCount = lineCount;

    const int* row = &neighbours_[static_cast<std::size_t>(self) * static_cast<std::size_t>(neighbourStride_)];
    const unsigned selfId = sim.denseToId_[self].index;
    for (int m = 0; m < neighbourCount_[self]; ++m) {
      const int other = row[m];
      const float otherRadius = terms_[sim.profileOf_[other]].radius;
      const unsigned otherId = sim.denseToId_[other].index;
      lines[lineCount++] = agentOrcaLine(p, v, t.radius, pos[other], vel[other], otherRadius,
                                         t.invTimeHorizon, invTimeStep,
                                         coincidentSeparationHint(selfId, otherId));
    }
    newVelocities_[self] = solveOrcaProgram(lines, lineCount, obstacleLineCount, t.maxSpeed,
                                            sim.prefVelocities_[self]);
  }
}

void CpuBackend::step(Simulator& sim, PhaseTimes& times, double& candidatesPerAgent) {
  const int n = static_cast<int>(sim.positions_.size());
  const int threads = sim.config_.threads > 0 ? sim.config_.threads : omp_get_max_threads();
  Clock::time_point clock = Clock::now();

  // Per-profile terms, computed as RVO2 computes them (1/timeHorizon etc. in float).
  terms_.clear();
  float maxNeighborDist = 0.0f;
  float maxObstacleRange = 0.0f;
  neighbourStride_ = 0;
  for (const AgentParams& a : sim.profiles_) {
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
    const float goalRadius = a.goalRadius < 0.0f ? a.radius : a.goalRadius;
    t.goalRadiusSq = sqr(goalRadius);
    terms_.push_back(t);
    maxNeighborDist = std::max(maxNeighborDist, a.neighborDist);
    maxObstacleRange = std::max(maxObstacleRange, t.obstacleRange);
    neighbourStride_ = std::max(neighbourStride_, a.maxNeighbors);
  }
  if (!sim.obstacles_.empty()) sim.obstacles_.prepareGrid(maxObstacleRange);

  // 1. Grid.
  buildGrid(sim, maxNeighborDist, threads);
  times.grid = msSince(clock);

  // 2. Neighbours.
  const std::int64_t candidates = findNeighbours(sim, threads);
  candidatesPerAgent = n > 0 ? static_cast<double>(candidates) / n : 0.0;
  times.neighbours = msSince(clock);

  // 3. Preferred velocities: RVO2's example rule, goal - position clipped to prefSpeed. Arrived
  // agents keep settling onto the goal by the same rule.
#pragma omp parallel for schedule(static) num_threads(threads)
  for (int i = 0; i < n; ++i) {
    if (sim.hasGoal_[i]) {
      sim.prefVelocities_[i] = clipToLength(sim.goals_[i] - sim.positions_[i], terms_[sim.profileOf_[i]].prefSpeed);
    }
  }
  times.prefVelocity = msSince(clock);

  // 4. ORCA.
  computeVelocities(sim, threads);
  times.orca = msSince(clock);

  // 5. Commit: every velocity was computed from the old state; now move everyone.
  const float dt = sim.config_.timeStep;
#pragma omp parallel for schedule(static) num_threads(threads)
  for (int i = 0; i < n; ++i) {
    sim.velocities_[i] = newVelocities_[i];
    sim.positions_[i] += sim.velocities_[i] * dt;
  }
  std::vector<std::size_t> toRemove;
  const std::int64_t stepNumber = sim.stepCount_ + 1;
  for (int i = 0; i < n; ++i) {
    if (!sim.hasGoal_[i] || sim.arrived_[i]) continue;
    if (absSq(sim.positions_[i] - sim.goals_[i]) <= terms_[sim.profileOf_[i]].goalRadiusSq) {
      sim.arrived_[i] = 1;
      sim.lastArrivals_.push_back(Arrival{sim.denseToId_[i], stepNumber});
      if (sim.config_.removeArrived) toRemove.push_back(static_cast<std::size_t>(i));
    }
  }
  sim.removeDense(std::move(toRemove));
  times.commit = msSince(clock);
}

std::unique_ptr<Backend> makeCpuBackend() { return std::make_unique<CpuBackend>(); }

}  // namespace crowd
