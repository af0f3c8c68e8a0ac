// The agent grid's cell size, step by step (cell_size.hpp).
#include "sim/step/cell_size.hpp"

#include <algorithm>
#include <cmath>

#include <crowd/kernels/agent_grid.hpp>
#include <crowd/kernels/vec2.hpp>

namespace crowd {

float CellSizeChooser::choose(float configured, float maxNeighborDist, float farthest) {
  smallest_ = std::max(maxNeighborDist / 2.5f, 1e-3f);
  largest_ = std::max(maxNeighborDist, smallest_);
  maxNeighborDist_ = maxNeighborDist;
  automatic_ = !(configured > 0.0f);
  if (!automatic_) return std::max(configured, smallest_);
  // A hundredth wider than the narrowest cells whose blocks hold a whole list anywhere in the
  // crowd: a list that a block cannot hold is not made, and then the grid is built every step.
  if (sparse_) return std::max(1.01f * cellSideReaching(maxNeighborDist + listSkin(), farthest), smallest_);
  // Half the neighbour distance first (a query then reads at most 5 x 5 cells).
  if (!(current_ > 0.0f)) current_ = 0.5f * maxNeighborDist;
  current_ = std::clamp(current_, smallest_, largest_);
  return current_;
}

void CellSizeChooser::observe(long long agents, long long rangeSum) {
  if (agents == 0) return;
  meanRange_ = static_cast<float>(static_cast<double>(rangeSum) / 1024.0 / static_cast<double>(agents));
  sparse_ = meanRange_ >= 0.95f * maxNeighborDist_ && maxNeighborDist_ > 0.0f;
  if (automatic_) current_ = adaptedCellSize(current_, meanRange_, smallest_, largest_);
}

float CellSizeChooser::nearThresholdSq() const {
  // A twentieth more than the mean: in a uniform crowd about 1.1 K candidates fall below it,
  // so few are sorted in one by one, and most agents find their K within it. Measured over
  // factors 0.8 to 1.4 (random, 100,000 agents), 1.05 was fastest.
  return meanRange_ > 0.0f ? sqr(1.05f * meanRange_) : INFINITY;
}

}  // namespace crowd
