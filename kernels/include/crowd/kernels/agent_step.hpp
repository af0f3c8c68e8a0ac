// One agent's part of each phase of a step, written once for both backends: the CPU backend
// calls these from OpenMP loops, the CUDA backend from one thread per agent. Inputs are plain
// arrays so that the same code reads host vectors or device buffers.
#pragma once

#include "hashed_grid.hpp"
#include "k_nearest.hpp"
#include "linear_program.hpp"
#include "obstacle_edge.hpp"
#include "orca_agents.hpp"
#include "orca_obstacles.hpp"
#include "uniform_grid.hpp"
#include "vec2.hpp"

namespace crowd {

/// Per-profile values derived once per step, computed as RVO2 computes them (1/timeHorizon in
/// float and so on), so the per-agent code does no division RVO2 does not. 40 bytes.
struct ProfileTerms {
  float radius;
  float maxSpeed;
  float prefSpeed;
  float neighborDist;
  float neighborDistSq;
  int maxNeighbors;
  float invTimeHorizon;
  float invTimeHorizonObst;
  float obstacleRange;  ///< timeHorizonObst * maxSpeed + radius: RVO2's obstacle query range.
  float goalRadiusSq;
};

/// Remembers the buckets a query has read when the grid wraps: two cells that hash to the same
/// bucket must not offer its agents twice. Only non-empty buckets are recorded, a handful per
/// query, so a linear check is cheapest. A query touches at most 10 x 10 cells (cells are at
/// least a quarter of the neighbour distance), well under the capacity.
struct BucketsSeen {
  static constexpr int kCapacity = 128;
  unsigned buckets[kCapacity];
  int count = 0;

  CROWD_HD bool firstVisit(unsigned bucket) {
    for (int i = 0; i < count; ++i) {
      if (buckets[i] == bucket) return false;
    }
    if (count < kCapacity) buckets[count++] = bucket;
    return true;
  }
};

/// Agents sorted by grid bucket: bucket b holds sorted slots [bucketStart[b], bucketStart[b+1]).
struct SortedAgents {
  const int* bucketStart;
  const Vec2* position;  ///< Per sorted slot.
  const unsigned* id;    ///< Stable id per sorted slot, for tie-breaking.
  const int* agent;      ///< Dense index per sorted slot.
};

/// The K nearest agents of the one in sorted slot `self` at `p`, RVO2's rule (see k_nearest.hpp).
/// Scans rings of cells outwards from the agent's own: near candidates fill the list early, the
/// range shrinks to the K-th distance, and most outer cells are then skipped unread. Returns the
/// number of candidates examined.
CROWD_HD inline int findNearestAgents(const HashedGrid& grid, const SortedAgents& sorted, int self, Vec2 p,
                                      const ProfileTerms& t, AgentNeighbours& nearest) {
  nearest.reset(t.maxNeighbors, t.neighborDistSq);
  if (t.maxNeighbors == 0) return 0;
  int candidates = 0;
  const CellCoord lo = hashedCellOf(grid, Vec2(p.x - t.neighborDist, p.y - t.neighborDist));
  const CellCoord hi = hashedCellOf(grid, Vec2(p.x + t.neighborDist, p.y + t.neighborDist));
  const CellCoord home = hashedCellOf(grid, p);
  const int toLo = home.x - lo.x > home.y - lo.y ? home.x - lo.x : home.y - lo.y;
  const int toHi = hi.x - home.x > hi.y - home.y ? hi.x - home.x : hi.y - home.y;
  const int rings = toLo > toHi ? toLo : toHi;
  BucketsSeen seen;
  for (int ring = 0; ring <= rings; ++ring) {
    const int yBegin = home.y - ring > lo.y ? home.y - ring : lo.y;
    const int yEnd = home.y + ring < hi.y ? home.y + ring : hi.y;
    for (int y = yBegin; y <= yEnd; ++y) {
      const bool edgeRow = y == home.y - ring || y == home.y + ring;
      const int step = edgeRow || ring == 0 ? 1 : 2 * ring;  // Inner rows: only the two ends.
      for (int x = home.x - ring; x <= home.x + ring; x += step) {
        if (x < lo.x || x > hi.x) continue;
        const CellCoord cell{x, y};
        if (!grid.wraps && !insideBox(grid, cell)) continue;
        if (!nearest.mayAccept(hashedCellDistSq(grid, cell, p))) continue;
        const unsigned bucket = bucketOf(grid, cell);
        const int begin = sorted.bucketStart[bucket];
        const int end = sorted.bucketStart[bucket + 1];
        if (begin == end || (grid.wraps && !seen.firstVisit(bucket))) continue;
        for (int j = begin; j < end; ++j) {
          if (j == self) continue;
          ++candidates;
          // RVO2 measures |self - other|^2; squaring makes the sign irrelevant to the bits.
          nearest.offer(absSq(p - sorted.position[j]), sorted.id[j], sorted.agent[j]);
        }
      }
    }
  }
  return candidates;
}

/// Static obstacle edges and their grid (CSR: cell c lists cellEdges[cellStart[c]..cellStart[c+1])).
struct ObstacleView {
  const ObstacleEdge* edges;
  int edgeCount;
  GridGeometry grid;
  const int* cellStart;
  const int* cellEdges;
};

/// The obstacle edges an agent at `p` sees within `range`, nearest first (ties by edge index),
/// at most kMaxObstacleNeighbors. An edge spans several cells, so ones already offered are skipped.
CROWD_HD inline void findNearestEdges(const ObstacleView& obstacles, Vec2 p, float range,
                                      ObstacleNeighbours& nearEdges) {
  const float rangeSq = sqr(range);
  nearEdges.reset(kMaxObstacleNeighbors, rangeSq);
  if (obstacles.edgeCount == 0) return;
  const CellRange cells = cellsTouching(obstacles.grid, p, range);
  for (int y = cells.lo.y; y <= cells.hi.y; ++y) {
    for (int x = cells.lo.x; x <= cells.hi.x; ++x) {
      const CellCoord cell{x, y};
      if (!(cellDistSq(obstacles.grid, cell, p) < rangeSq)) continue;
      const int c = cellIndex(obstacles.grid, cell);
      for (int j = obstacles.cellStart[c]; j < obstacles.cellStart[c + 1]; ++j) {
        const int e = obstacles.cellEdges[j];
        const float distSq = visibleEdgeDistSq(obstacles.edges, e, p);
        if (distSq < 0.0f || !nearEdges.mayAccept(distSq)) continue;
        bool seen = false;
        for (int m = 0; m < nearEdges.count && !seen; ++m) seen = nearEdges.entries[m].index == e;
        if (!seen) nearEdges.offer(distSq, static_cast<unsigned>(e), e);
      }
    }
  }
}

/// The agents' state as the ORCA phase reads it, in dense order.
struct AgentView {
  const Vec2* position;
  const Vec2* velocity;
  const Vec2* prefVelocity;
  const unsigned* profile;     ///< Index into the ProfileTerms table.
  const unsigned* id;          ///< Stable id, for the coincident-pair tie-break.
  const ProfileTerms* terms;
  const int* neighbours;       ///< Row of `neighbourStride` per agent, nearest first.
  const int* neighbourCount;
  int neighbourStride;
  float invTimeStep;
};

/// RVO2's computeNewVelocity for agent `self`: obstacle lines first, then one line per agent
/// neighbour in neighbour order, then the LP (lp2, falling back to lp3).
CROWD_HD inline Vec2 orcaVelocity(const AgentView& agents, const ObstacleView& obstacles, int self) {
  const ProfileTerms& t = agents.terms[agents.profile[self]];
  const Vec2 p = agents.position[self];
  const Vec2 v = agents.velocity[self];
  OrcaLine lines[kMaxOrcaLines];
  int lineCount = 0;
  if (obstacles.edgeCount > 0) {
    ObstacleNeighbours nearEdges;
    findNearestEdges(obstacles, p, t.obstacleRange, nearEdges);
    int edgeList[kMaxObstacleNeighbors];
    for (int m = 0; m < nearEdges.count; ++m) edgeList[m] = nearEdges.entries[m].index;
    lineCount = obstacleOrcaLines(obstacles.edges, edgeList, nearEdges.count, p, v, t.radius,
                                  t.invTimeHorizonObst, lines);
  }
  const int obstacleLineCount = lineCount;
  const int* row = agents.neighbours + static_cast<long long>(self) * agents.neighbourStride;
  for (int m = 0; m < agents.neighbourCount[self]; ++m) {
    const int other = row[m];
    lines[lineCount++] = agentOrcaLine(p, v, t.radius, agents.position[other], agents.velocity[other],
                                       agents.terms[agents.profile[other]].radius, t.invTimeHorizon,
                                       agents.invTimeStep,
                                       coincidentSeparationHint(agents.id[self], agents.id[other]));
  }
  return solveOrcaProgram(lines, lineCount, obstacleLineCount, t.maxSpeed, agents.prefVelocity[self]);
}

}  // namespace crowd
