// Keeping the K nearest neighbours: a sorted insertion into a fixed array, RVO2's rule made
// independent of discovery order. A candidate counts when its squared distance is strictly
// below the search range; once K are kept the range shrinks to the farthest kept one. Ties in
// distance are broken by id, so any scan order (grid, tree, threads) gives the same list.
#pragma once

#include "config.hpp"

namespace crowd {

struct Neighbour {
  float distSq;
  unsigned id;     ///< Tie-breaker: the agent's stable id.
  int index;       ///< Where the neighbour's data lives (dense or sorted index).
};

CROWD_HD inline bool nearerThan(float distSqA, unsigned idA, float distSqB, unsigned idB) {
  return distSqA < distSqB || (distSqA == distSqB && idA < idB);
}

/// A bounded sorted list of the nearest candidates seen so far. Used for agent neighbours
/// (Capacity kMaxNeighbors) and for obstacle edges (kMaxObstacleNeighbors, ids = edge indices).
template <int Capacity>
struct NearestList {
  Neighbour entries[Capacity];
  int count;
  int capacity;   ///< How many to keep, e.g. the agent's maxNeighbors. [Limit: 0..Capacity]
  float rangeSq;  ///< Current search range: the initial range, then the farthest kept distance.

  CROWD_HD void reset(int keep, float initialRangeSq) {
    count = 0;
    capacity = keep < Capacity ? keep : Capacity;
    rangeSq = initialRangeSq;
  }

  /// Whether a cell at squared distance `distSq` could still hold a kept candidate.
  CROWD_HD bool mayAccept(float distSq) const { return distSq < rangeSq || (count == capacity && distSq == rangeSq); }

  CROWD_HD void offer(float distSq, unsigned id, int index) {
    if (capacity == 0) return;
    if (count == capacity) {
      // Full: the candidate must beat the farthest kept entry, ties going to the smaller id.
      const Neighbour& last = entries[count - 1];
      if (!nearerThan(distSq, id, last.distSq, last.id)) return;
    } else if (!(distSq < rangeSq)) {
      return;
    }
    int i = count < capacity ? count++ : count - 1;
    while (i > 0 && nearerThan(distSq, id, entries[i - 1].distSq, entries[i - 1].id)) {
      entries[i] = entries[i - 1];
      --i;
    }
    entries[i] = Neighbour{distSq, id, index};
    if (count == capacity) rangeSq = entries[count - 1].distSq;
  }
};

using AgentNeighbours = NearestList<kMaxNeighbors>;
using ObstacleNeighbours = NearestList<kMaxObstacleNeighbors>;

}  // namespace crowd
