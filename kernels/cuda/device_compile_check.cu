// Instantiates each per-agent kernel in device code: one thread computes one agent's ORCA
// velocity from given neighbours and obstacle edges, exactly as the CPU backend does per agent.
#include <crowd/kernels/k_nearest.hpp>
#include <crowd/kernels/linear_program.hpp>
#include <crowd/kernels/orca_agents.hpp>
#include <crowd/kernels/orca_obstacles.hpp>
#include <crowd/kernels/uniform_grid.hpp>

namespace crowd {

__global__ void orcaVelocityKernel(int agentCount, const Vec2* positions, const Vec2* velocities,
                                   const Vec2* prefVelocities, float radius, float maxSpeed,
                                   float invTimeHorizon, float invTimeHorizonObst, float invTimeStep,
                                   const int* neighbours, const int* neighbourCounts,
                                   const ObstacleEdge* edges, const int* edgeLists,
                                   const int* edgeCounts, GridGeometry grid, int* cells,
                                   Vec2* newVelocities) {
  const int self = blockIdx.x * blockDim.x + threadIdx.x;
  if (self >= agentCount) return;
  cells[self] = cellIndexOf(grid, positions[self]);

  AgentNeighbours nearest;
  nearest.reset(neighbourCounts[self], 1e30f);
  for (int m = 0; m < neighbourCounts[self]; ++m) {
    const int other = neighbours[self * kMaxNeighbors + m];
    nearest.offer(absSq(positions[self] - positions[other]), static_cast<unsigned>(other), other);
  }

  OrcaLine lines[kMaxOrcaLines];
  int lineCount = obstacleOrcaLines(edges, edgeLists + self * kMaxObstacleNeighbors, edgeCounts[self],
                                    positions[self], velocities[self], radius, invTimeHorizonObst, lines);
  const int obstacleLineCount = lineCount;
  for (int m = 0; m < nearest.count; ++m) {
    const int other = nearest.entries[m].index;
    lines[lineCount++] = agentOrcaLine(positions[self], velocities[self], radius, positions[other],
                                       velocities[other], radius, invTimeHorizon, invTimeStep,
                                       coincidentSeparationHint(static_cast<unsigned>(self),
                                                                static_cast<unsigned>(other)));
  }
  newVelocities[self] = solveOrcaProgram(lines, lineCount, obstacleLineCount, maxSpeed, prefVelocities[self]);
}

}  // namespace crowd
