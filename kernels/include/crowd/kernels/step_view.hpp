// What every phase of a step reads and writes: the agent columns in cell order, their steering
// state, the static world, plus the step's own arrays, as plain pointers so that one view serves
// host and device memory alike.
#pragma once

#include <cstdint>

#include "agent_columns.hpp"
#include "agent_grid.hpp"
#include "candidate_lists.hpp"
#include "config.hpp"
#include "obstacle_query.hpp"
#include "periodic.hpp"
#include "profile_terms.hpp"
#include "static_world.hpp"
#include "steering_state.hpp"
#include "steering_terms.hpp"
#include "vec2.hpp"
#include "vec3.hpp"

namespace crowd {

/// Each agent's neighbours as sorted slots, nearest first. Neighbour m of agent k lives at
/// slot[k * rowStride + m * columnStride]: rows suit the CPU (one agent's list in one cache
/// line), columns suit the GPU (neighbouring threads read neighbouring words).
struct NeighbourTable {
  int* slot;
  int* count;
  long long rowStride;
  long long columnStride;

  CROWD_HD int& at(int k, int m) const { return slot[k * rowStride + m * columnStride]; }
};

/// The tally's counts (StepTally's integer fields), listed once: the sums on both backends loop
/// over this list.
#define CROWD_TALLY_COUNTS(X) \
  X(candidates)               \
  X(rangeSum) X(arrivals) X(nonFinite) X(orcaLines) X(speedClamps) X(listOverflows) X(planCandidates)

/// What the phases produce besides the agents' state, summed over agents.
struct StepTally {
  long long candidates = 0;      ///< Neighbour candidates examined.
  long long rangeSum = 0;        ///< Final neighbour search ranges, in 1/1024 units (sizes the grid).
  long long arrivals = 0;        ///< Agents that reached their goal in this step.
  long long nonFinite = 0;       ///< Agents whose new velocity or position is not finite.
  long long orcaLines = 0;       ///< Half-planes built (agent and obstacle lines), a cost figure.
  long long speedClamps = 0;     ///< New velocities pulled back into the maxSpeed disc.
  long long listOverflows = 0;   ///< Candidate lists that could not be made complete.
  long long planCandidates = 0;  ///< Local-planner candidates costed (steer_frenet.hpp).
  /// The largest squared displacement in the step, as the positions were rounded (far from the
  /// origin, rounding can move an agent a little further than its velocity takes it).
  float maxMoveSq = 0.0f;

  CROWD_HD StepTally& operator+=(const StepTally& o) {
#define CROWD_ADD_COUNT(field) field += o.field;
    CROWD_TALLY_COUNTS(CROWD_ADD_COUNT)
#undef CROWD_ADD_COUNT
    maxMoveSq = maxMoveSq > o.maxMoveSq ? maxMoveSq : o.maxMoveSq;
    return *this;
  }
};

// A count added to StepTally must be listed in CROWD_TALLY_COUNTS, or the sums would drop it.
#define CROWD_ONE_COUNT(field) +1
static_assert(sizeof(StepTally) == (0 CROWD_TALLY_COUNTS(CROWD_ONE_COUNT) + 1) * sizeof(long long),
              "every integer field of StepTally is listed in CROWD_TALLY_COUNTS");
#undef CROWD_ONE_COUNT

/// What the phases read and write, in either world (Vector Vec2 in the plane, Vec3 in 3D). The
/// phases are the same (step_phases.hpp); what differs per world (the neighbour search, the
/// steering, the ORCA program) is overloaded on the view. A 3D world has no static world yet: its
/// obstacle, path and line views are empty.
template <class Vector>
struct StepViewOf {
  AgentArraysOf<Vector> agents;  ///< The working copy, in cell order: index k is sorted slot k.
  int count;                     ///< Agents.
  GridCells cells;
  const ProfileTerms* terms;      ///< Indexed by agents.profile.
  const SteeringTerms* steering;  ///< Indexed by agents.profile, like terms.
  SteeringStateOf<Vector> state;  ///< Null arrays when every profile is goal-only.
  NeighbourTable neighbours;
  Vector* newVelocity;  ///< ORCA's result per sorted slot, committed by the last phase.
  // The static world (static_world.hpp): every array as listed, and the views the per-agent code
  // queries the obstacles, paths and lines through.
  StaticWorldView world;
  ObstacleView obstacles;
  PathView paths;
  ReferenceLines lines;           ///< One per path, for the local planner.
  const CircleObstacle* circles;  ///< Indexed by ObstacleEdge::circle.
  float time;  ///< Seconds simulated before this step (premovement times are compared with it).
  float timeStep;
  float invTimeStep;
  float nearThresholdSq;  ///< Typical squared distance of the K-th neighbour (see findNearestAgents).
  float jitter;           ///< Deadlock jitter as a fraction of maxSpeed; 0 for RVO2's exact results.
  /// RVO2's flaws repaired: new velocities pulled back within maxSpeed, and an obstacle edge seen
  /// end-on keeping the line of its own leg (orca_obstacles.hpp). Off for RVO2's exact results.
  bool repairRvo2;
  std::uint64_t seed;         ///< Seeds the random draws.
  std::int64_t step;          ///< The step being computed (1 for the first), for the random draws.
  CandidateLists lists;       ///< Whether the neighbour phase builds, uses or ignores candidate lists.
  PeriodicBoundary periodic;  ///< Whether and where the world repeats along x (planar only).
};
using StepView = StepViewOf<Vec2>;
using StepView3 = StepViewOf<Vec3>;

}  // namespace crowd
