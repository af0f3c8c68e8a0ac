// The agent grid's cell side, chosen step by step from what the last step's neighbour searches
// found. Results never depend on it, only speed does.
#pragma once

namespace crowd {

/// Chooses the agent grid's cell side step by step: the configured size, or, when that is 0
/// (automatic), half the largest neighbour distance at first and then what each step's search
/// ranges suggest (adaptedCellSize). Never below 1/2.5 of the largest neighbour distance,
/// which keeps every query within CellNeighbourhood::kMaxReach rings.
class CellSizeChooser {
 public:
  /// The cell side for this step. `farthest`: the largest |x| + |y| (+ |z|) an agent may have,
  /// for the binning's rounding far from the origin (cellSideReaching); 0 where no lists are kept.
  float choose(float configured, float maxNeighborDist, float farthest = 0.0f);
  /// What the step's queries found: agents and StepTally::rangeSum.
  void observe(long long agents, long long rangeSum);
  /// A little more than the last step's mean search range, squared: most agents' K-th
  /// neighbour lies within it (infinite before the first step).
  float nearThresholdSq() const;
  /// Whether the crowd is sparse (most agents' search range is their whole neighbour distance:
  /// they have fewer than K neighbours), so candidate lists pay: the cells are then made wide
  /// enough to hold each list (neighbour distance plus listSkin()).
  bool sparse() const { return sparse_; }
  /// How much further than the neighbour distance candidate lists reach.
  float listSkin() const { return kListSkinFraction * maxNeighborDist_; }

  static constexpr float kListSkinFraction = 0.2f;

 private:
  float current_ = 0.0f;
  float meanRange_ = 0.0f;
  float maxNeighborDist_ = 0.0f;
  bool sparse_ = false;
  float smallest_ = 0.0f;
  float largest_ = 0.0f;
  bool automatic_ = false;
};

}  // namespace crowd
