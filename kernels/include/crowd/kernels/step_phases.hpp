// The per-agent phases of a step, each written once and run by both backends: the CPU backend
// calls run() from an OpenMP loop, the CUDA backend from one generic kernel, one thread per
// agent. A phase reads the state the earlier phases left and writes only its own agent's
// outputs, so results never depend on agent order, thread count or schedule.
//
// A phase is a struct with
//   static constexpr Phase kPhase;   // its entry in the phase list (phase.hpp)
//   using Scratch = ...;             // per-thread working memory, reused across agents
//   static void run(const View&, int k, Scratch&, StepTally&);  // agent in sorted slot k
// and appears in AgentPhases below, in the order the step runs them. The grid phase comes
// first and is the executors' own (a sort), since it reorders everyone.
//
// The same phases step a planar world (StepView) and a 3D one (StepView3): run() is a template
// on the view, and the few things that differ between the worlds (the neighbour search, the
// steering, the ORCA program) are functions overloaded on the view; the pedestrian models are
// planar only.
#pragma once

#include <cmath>
#include <type_traits>

#include "agent_columns.hpp"
#include "collision_free_speed.hpp"
#include "config.hpp"
#include "density_speed.hpp"
#include "k_nearest.hpp"
#include "neighbour_search.hpp"
#include "neighbour_search_3d.hpp"
#include "orca_velocity.hpp"
#include "orca_velocity_3d.hpp"
#include "phase.hpp"
#include "social_force.hpp"
#include "steering.hpp"
#include "steering_3d.hpp"
#include "step_view.hpp"
#include "vec2.hpp"
#include "vec3.hpp"

namespace crowd {

/// For phases that need no working memory between agents.
struct NoScratch {};

/// The neighbour phase's working memory: what the last agent's search read around its home
/// cell, for the next agent of the same cell (on the CPU; the GPU reads the grid directly).
struct NeighbourScratch {
  CellNeighbourhood planar;
  BlockTile3 block;
};

/// The cache a CPU search keeps in the scratch: a planar world's cell neighbourhood, a 3D world's
/// block tile.
CROWD_HD inline CellNeighbourhood& searchCache(NeighbourScratch& scratch, const StepView&) {
  return scratch.planar;
}
CROWD_HD inline BlockTile3& searchCache(NeighbourScratch& scratch, const StepView3&) {
  return scratch.block;
}

/// The K nearest of the agent in sorted slot k in a world that repeats along x: those around it,
/// then those around its image beyond the nearer end, if that end is within its neighbour range
/// (the list does not depend on the order they are offered in). No candidate lists are kept (the
/// CPU executor makes none for such a world): they would miss the image's neighbours.
template <class Nearest>
CROWD_HD inline int findNeighboursAcrossEnds(const StepView& view, int k, NeighbourScratch& scratch,
                                             Nearest& nearest) {
  const AgentArrays& a = view.agents;
  const ProfileTerms& t = view.terms[a.profile[k]];
  const Vec2 p = a.position[k];
  int candidates = kOnDevice
                       ? findNearestAgentsDirect(view.cells, a.position, a.id, k, p, t.maxNeighbors,
                                                 t.neighborDistSq, nearest)
                       : findNearestAgents(view.cells, scratch.planar, a.position, a.id, k, p, t.maxNeighbors,
                                           t.neighborDistSq, view.nearThresholdSq, nearest);
  const float shift = view.periodic.shiftToImage(p, t.neighborDist);
  if (shift != 0.0f && t.maxNeighbors > 0)
    candidates += offerAgentsNear(view.cells, a.position, a.id, k, Vec2(p.x + shift, p.y), nearest);
  return candidates;
}

/// The K nearest of the agent in sorted slot k: from its candidate list, from the grid
/// (recording the list in a sparse crowd), or, on the GPU, from the grid every step. Returns the
/// candidates examined. The searches are overloaded on the world (neighbour_search.hpp,
/// neighbour_search_3d.hpp).
template <class View, class Nearest>
CROWD_HD inline int findNeighbours(const View& view, int k, NeighbourScratch& scratch, StepTally& tally,
                                   Nearest& nearest) {
  const auto& a = view.agents;
  const ProfileTerms& t = view.terms[a.profile[k]];
  if constexpr (std::is_same_v<View, StepView>) {
    if (view.periodic.on()) return findNeighboursAcrossEnds(view, k, scratch, nearest);
  }
  if (kOnDevice) {  // The GPU keeps no candidate lists: it searches the grid every step.
    return findNearestAgentsDirect(view.cells, a.position, a.id, k, a.position[k], t.maxNeighbors,
                                   t.neighborDistSq, nearest);
  }
  const CandidateLists& lists = view.lists;
  if (lists.mode == ListMode::Use) {
    return nearestFromList(lists.row(k), lists.count[k], a.position, a.id, k, a.position[k], t.maxNeighbors,
                           t.neighborDistSq, view.nearThresholdSq, nearest);
  }
  ListRecord record{lists.mode == ListMode::Build ? lists.row(k) : nullptr, lists.capacity,
                    sqr(t.neighborDist + lists.skin), 0};
  const int candidates = findNearestAgents(
      view.cells, searchCache(scratch, view), a.position, a.id, k, a.position[k], t.maxNeighbors,
      t.neighborDistSq, view.nearThresholdSq, nearest, lists.mode == ListMode::Build ? &record : nullptr);
  if (lists.mode == ListMode::Build) {
    lists.count[k] = record.count;
    tally.listOverflows += record.count < 0 ? 1 : 0;
  }
  return candidates;
}

/// The K nearest agents within neighborDist (k_nearest.hpp's rule) as sorted slots, kept in a
/// Nearest list while searching: AgentNeighbours, or on the GPU, where every profile keeps few
/// enough, NearestInRegisters (the CUDA backend picks).
template <class Nearest>
struct NeighboursPhaseWith {
  static constexpr Phase kPhase = Phase::Neighbours;
  using Scratch = NeighbourScratch;

  template <class View>
  CROWD_HD static void run(const View& view, int k, Scratch& scratch, StepTally& tally) {
    Nearest nearest;
    tally.candidates += findNeighbours(view, k, scratch, tally, nearest);
    nearest.forEachKept([&](int m, int slot) { view.neighbours.at(k, m) = slot; });
    view.neighbours.count[k] = nearest.count;
    // Integer units keep the sum, and so the next step's cell size, independent of thread count.
    tally.rangeSum += static_cast<long long>(std::sqrt(nearest.rangeSq) * 1024.0f);
  }
};

using NeighboursPhase = NeighboursPhaseWith<AgentNeighbours>;

/// A goal-only profile's preferred velocity, RVO2's example rule exactly: head for the goal, no
/// faster than prefSpeed (agents without a goal keep their fixed preferred velocity; arrived
/// ones keep settling onto the goal).
template <class View>
CROWD_HD inline void seekGoal(const View& view, int k) {
  const auto& a = view.agents;
  if ((a.flags[k] & kHasGoal) == 0) return;
  a.prefVelocity[k] = clipToLength(a.goal[k] - a.position[k], view.terms[a.profile[k]].prefSpeed);
}

/// Each agent's preferred velocity: seekGoal for a goal-only profile; any other steers
/// (steering.hpp).
struct SteeringPhase {
  static constexpr Phase kPhase = Phase::Steering;
  using Scratch = NoScratch;

  template <class View>
  CROWD_HD static void run(const View& view, int k, Scratch&, StepTally& tally) {
    if (view.steering[view.agents.profile[k]].goalOnly) {
      seekGoal(view, k);
      return;
    }
    view.agents.prefVelocity[k] = steeredVelocity(view, k, tally);
  }
};

/// The steering phase of a world whose profiles are all goal-only. The GPU runs it instead of
/// SteeringPhase: without the behaviours compiled in, its kernel needs a tenth of the registers.
struct GoalOnlySteeringPhase {
  static constexpr Phase kPhase = Phase::Steering;
  using Scratch = NoScratch;

  template <class View>
  CROWD_HD static void run(const View& view, int k, Scratch&, StepTally&) {
    seekGoal(view, k);
  }
};

/// Each agent's new velocity from its preferred one, by its profile's motion model: ORCA
/// (half-planes from obstacles and neighbours, then the linear program), the collision-free speed
/// model or the social force model (planar worlds only), or none. kPedestrianModels false leaves
/// the pedestrian models out: the GPU runs that variant where no profile uses them, since their
/// code would cost the ORCA kernel registers.
template <bool kPedestrianModels>
struct ModelPhaseWith {
  static constexpr Phase kPhase = Phase::Orca;
  using Scratch = NoScratch;

  template <class View>
  CROWD_HD static void run(const View& view, int k, Scratch&, StepTally& tally) {
    const std::uint32_t p = view.agents.profile[k];
    const SteeringTerms& s = view.steering[p];
    auto desired = view.agents.prefVelocity[k];
    // Slowed here rather than stored: a fixed preferred velocity would be slowed again each step.
    if (s.model.densitySpeed) desired = densitySlowedVelocity(view, k, s.model.densityRadius, desired);
    if constexpr (std::is_same_v<View, StepView>) {
      if (view.world.zoneFactorCount > 0)
        desired = desired * speedFactorAt(view.world.speedZones(), view.agents.position[k]);
    }
    // Before its premovement time is up an agent wants to stand (others still avoid it).
    if (view.time < view.agents.startTime[k]) desired = decltype(desired)(0.0f);
    auto v = desired;  // Without a model the desired velocity is final.
    if (s.avoidance == AvoidanceMode::Orca) {
      const auto orca = orcaVelocity(view, k, desired);
      v = orca.velocity;
      tally.orcaLines += orca.lines;
    }
    if constexpr (kPedestrianModels && std::is_same_v<View, StepView>) {
      if (s.avoidance == AvoidanceMode::Csm) v = collisionFreeSpeedVelocity(view, k, desired);
      if (s.avoidance == AvoidanceMode::SocialForce) v = socialForceVelocity(view, k, desired);
    }
    if (view.repairRvo2 && clampToSpeed(v, view.terms[p].maxSpeed)) ++tally.speedClamps;
    view.newVelocity[k] = v;
    if (!isFinite(v)) ++tally.nonFinite;
  }
};

using ModelPhase = ModelPhaseWith<true>;
/// The model phase of a world where every profile uses ORCA or no model.
using OrcaOnlyModelPhase = ModelPhaseWith<false>;

/// Every velocity was computed from the old state; now move everyone and test arrival.
struct CommitPhase {
  static constexpr Phase kPhase = Phase::Commit;
  using Scratch = NoScratch;

  template <class View>
  CROWD_HD static void run(const View& view, int k, Scratch&, StepTally& tally) {
    const auto& a = view.agents;
    const auto v = view.newVelocity[k];
    const auto moved = a.position[k] + v * view.timeStep;
    const float moveSq = absSq(moved - a.position[k]);
    const auto p = view.periodic.wrap(moved);  // Out at one end of a repeating world, in at the other.
    tally.maxMoveSq = moveSq > tally.maxMoveSq ? moveSq : tally.maxMoveSq;
    a.velocity[k] = v;
    a.position[k] = p;
    if (!isFinite(p)) ++tally.nonFinite;
    std::uint8_t flags = static_cast<std::uint8_t>(a.flags[k] & ~kArrivedNow);
    if ((flags & (kHasGoal | kArrived)) == kHasGoal &&
        absSq(p - a.goal[k]) <= view.terms[a.profile[k]].goalRadiusSq) {
      flags = static_cast<std::uint8_t>(flags | kArrived | kArrivedNow);
      ++tally.arrivals;
    }
    a.flags[k] = flags;
  }
};

template <class... Phases>
struct PhaseList {};

/// The per-agent phases of a step, in order.
using AgentPhases = PhaseList<NeighboursPhase, SteeringPhase, ModelPhase, CommitPhase>;

}  // namespace crowd
