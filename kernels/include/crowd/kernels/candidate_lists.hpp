// Candidate lists (Verlet lists): each agent's list of the agents that were within its
// neighbour distance plus a skin when the grid was last built. Until some pair could have closed
// the skin (twice the farthest any agent has moved since), everyone within the neighbour distance
// is still on the list, so the K nearest found from it are exactly those a grid search finds,
// at a fraction of the cost: no grid to build, no cells to look up. Worth it where agents have
// few neighbours (sparse crowds, rings); a crowded agent's list overflows, and then the grid is
// searched every step as usual.
#pragma once

#include "config.hpp"

namespace crowd {

enum class ListMode : int {
  None,   ///< Search the grid; keep no lists.
  Build,  ///< Search the grid and record each agent's list.
  Use,    ///< Find the K nearest from the lists (the grid is not rebuilt).
};

struct CandidateLists {
  int* slot;     ///< Agent k's list: row(k)[0 .. count[k]).
  int* count;    ///< Per agent; -1 when its list did not fit (or could not be made).
  int capacity;  ///< Entries per agent. Each row has one more place, where writes past the end land.
  float skin;    ///< Lists hold everyone within neighborDist + skin when built.
  ListMode mode;

  CROWD_HD int* row(int k) const { return slot + static_cast<long long>(k) * (capacity + 1); }
};

}  // namespace crowd
