// Keeping the K nearest neighbours: a sorted insertion into a fixed array, RVO2's rule made
// independent of discovery order. A candidate counts when its squared distance is strictly
// below the search range; once K are kept the range shrinks to the farthest kept one. Ties in
// distance are broken by id, so any scan order (grid, tree, threads) gives the same list.
#pragma once

#include <cstdint>
#include <cstring>

#include "config.hpp"

namespace crowd {

/// The bits of a float. For non-negative floats (squared distances) their order as unsigned
/// integers is their order as numbers.
CROWD_HD inline std::uint32_t floatBits(float f) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(f);
#else
  std::uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
#endif
}

CROWD_HD inline float floatFromBits(std::uint32_t bits) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(bits);
#else
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
#endif
}

/// (distance, id) as one integer that orders as the pair does: distance first, ties by id.
/// Adding +0 turns a -0 distance into +0, whose bits sort first.
CROWD_HD inline std::uint64_t nearnessKey(float distSq, unsigned id) {
  return (static_cast<std::uint64_t>(floatBits(distSq + 0.0f)) << 32) | id;
}

/// A bounded sorted list of the nearest candidates seen so far. Used for agent neighbours
/// (Capacity kMaxNeighbors) and for obstacle edges (kMaxObstacleNeighbors, ids = edge indices).
/// Keys and indices are separate arrays so that the insertion compares one integer per step.
template <int Capacity>
struct NearestList {
  std::uint64_t keys[Capacity];  ///< nearnessKey of each kept candidate, ascending.
  int indices[Capacity];         ///< Where each kept candidate's data lives (dense or sorted index).
  int count;
  int capacity;   ///< How many to keep, e.g. the agent's maxNeighbors. [Limit: 0..Capacity]
  float rangeSq;  ///< Current search range: the initial range, then the farthest kept distance.

  CROWD_HD void reset(int keep, float initialRangeSq) {
    count = 0;
    capacity = keep < Capacity ? keep : Capacity;
    rangeSq = initialRangeSq;
  }

  CROWD_HD float distSq(int m) const { return floatFromBits(static_cast<std::uint32_t>(keys[m] >> 32)); }
  CROWD_HD unsigned id(int m) const { return static_cast<unsigned>(keys[m]); }
  CROWD_HD int index(int m) const { return indices[m]; }

  /// Whether a cell at squared distance `distSq` could still hold a kept candidate.
  CROWD_HD bool mayAccept(float d) const { return d < rangeSq || (count == capacity && d == rangeSq); }

  CROWD_HD void offer(float d, unsigned candidateId, int index) {
    if (capacity == 0 || !(d <= rangeSq)) return;  // Beyond the range (or NaN).
    const std::uint64_t key = nearnessKey(d, candidateId);
    int i;
    if (count == capacity) {
      // Full: the candidate must beat the farthest kept entry, ties going to the smaller id.
      if (key >= keys[count - 1]) return;
      i = count - 1;
    } else {
      if (!(d < rangeSq)) return;
      i = count++;
    }
    for (; i > 0 && keys[i - 1] > key; --i) {
      keys[i] = keys[i - 1];
      indices[i] = indices[i - 1];
    }
    keys[i] = key;
    indices[i] = index;
    if (count == capacity) rangeSq = distSq(count - 1);
  }

  /// Calls f(m, index(m)) for each kept entry, nearest first.
  template <class F>
  CROWD_HD void forEachKept(F&& f) const {
    for (int m = 0; m < count; ++m) f(m, indices[m]);
  }
};

/// NearestList's rule with every entry in a register, for the GPU: there an array indexed at
/// run time lives in local memory, whose traffic, a million threads' worth, swamps the caches.
/// Every loop runs over the whole capacity and is unrolled, so that each index is a constant;
/// an offer costs Capacity compare-and-moves instead of a search. Places past `count` hold an
/// all-ones key, above any candidate's, and places past `capacity` whatever was pushed out.
template <int Capacity>
struct NearestInRegisters {
  std::uint64_t keys[Capacity];
  int indices[Capacity];
  int count;
  int capacity;
  float rangeSq;
  std::uint64_t farthest;  ///< keys[capacity - 1], kept apart so that no run-time index reads it.

  CROWD_HD void reset(int keep, float initialRangeSq) {
    count = 0;
    capacity = keep < Capacity ? keep : Capacity;
    rangeSq = initialRangeSq;
    farthest = ~std::uint64_t{0};
    CROWD_UNROLL
    for (int m = 0; m < Capacity; ++m) {
      keys[m] = ~std::uint64_t{0};
      indices[m] = -1;
    }
  }

  CROWD_HD bool mayAccept(float d) const { return d < rangeSq || (count == capacity && d == rangeSq); }

  CROWD_HD void offer(float d, unsigned candidateId, int index) {
    if (capacity == 0 || !(d <= rangeSq)) return;  // Beyond the range (or NaN).
    const std::uint64_t key = nearnessKey(d, candidateId);
    if (count == capacity) {
      if (key >= farthest) return;  // Must beat the farthest kept entry, ties to the smaller id.
    } else {
      if (!(d < rangeSq)) return;
      ++count;
    }
    // From the far end down, every place holding a larger key takes its lower neighbour's entry,
    // or the candidate where the lower neighbour is not larger.
    CROWD_UNROLL
    for (int m = Capacity - 1; m >= 0; --m) {
      if (keys[m] > key) {
        const bool shift = m > 0 && keys[m > 0 ? m - 1 : 0] > key;
        keys[m] = shift ? keys[m > 0 ? m - 1 : 0] : key;
        indices[m] = shift ? indices[m > 0 ? m - 1 : 0] : index;
      }
    }
    if (count == capacity) {
      CROWD_UNROLL
      for (int m = 0; m < Capacity; ++m) farthest = m == capacity - 1 ? keys[m] : farthest;
      rangeSq = floatFromBits(static_cast<std::uint32_t>(farthest >> 32));
    }
  }

  /// Calls f(m, index) for each kept entry, nearest first.
  template <class F>
  CROWD_HD void forEachKept(F&& f) const {
    CROWD_UNROLL
    for (int m = 0; m < Capacity; ++m) {
      if (m < count) f(m, indices[m]);
    }
  }
};

using AgentNeighbours = NearestList<kMaxNeighbors>;
using ObstacleNeighbours = NearestList<kMaxObstacleNeighbors>;

}  // namespace crowd
