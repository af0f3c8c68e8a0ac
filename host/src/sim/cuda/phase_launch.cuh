// How the CUDA executor launches the per-agent phases of a step (step_phases.hpp): one kernel
// each, timed by an event after it, with lighter kernels swapped in where a world allows them.
#pragma once

#include <cuda_runtime.h>

#include <type_traits>

#include <crowd/kernels/phase.hpp>
#include <crowd/kernels/step_phases.hpp>

#include "sim/cuda/device_buffer.cuh"
#include "sim/cuda/step_kernels.cuh"
#include "sim/step/profile_table.hpp"

namespace crowd {
namespace {

template <class P, class View>
void launchPhase(const View& view, StepTally* tally, cudaEvent_t* events) {
  phaseKernel<P, View><<<blocksFor(view.count), kBlock>>>(view, tally);
  // A failed launch must not reach the commit, which would write its garbage into the state.
  cudaCheck(cudaGetLastError(), kPhaseNames[static_cast<int>(P::kPhase)]);
  cudaEventRecord(events[static_cast<int>(P::kPhase) + 1]);
}

/// Most neighbours the search keeps in registers (NearestInRegisters): RVO2's usual 10 and
/// some room, while leaving the search registers enough for a useful occupancy.
constexpr int kRegisterNeighbours = 16;

/// Whether the neighbour search keeps its list in registers. That list pays kRegisterNeighbours
/// compare-and-moves per candidate offered; the other, in local memory, a short insertion but
/// memory traffic that grows with the crowd's density. On an H200 at a million agents (K = 10)
/// registers won where the last step examined 31 and 58 candidates per agent (random, swarm:
/// 1.30 to 0.61 ms, 1.76 to 1.44 ms) and lost at 10 and 17 (circle, sphere: 0.24 to 0.39 ms,
/// 0.63 to 0.94 ms), so the crossover is taken at twice the neighbours kept.
bool neighboursInRegisters(int maxNeighbors, double lastCandidatesPerAgent) {
  return maxNeighbors <= kRegisterNeighbours && lastCandidatesPerAgent > 2.0 * maxNeighbors;
}

/// Runs the phases of a step. Three have lighter kernels for common worlds: the neighbour search
/// (neighboursInRegisters), the steering where every profile is goal-only, and the model phase
/// where no profile uses a pedestrian model.
template <class... P, class View>
void launchPhases(PhaseList<P...>, const View& view, const ProfileTable& profiles, bool registerNeighbours,
                  StepTally* tally, cudaEvent_t* events) {
  (
      [&] {
        if constexpr (std::is_same_v<P, NeighboursPhase>) {
          if (registerNeighbours) {
            launchPhase<NeighboursPhaseWith<NearestInRegisters<kRegisterNeighbours>>>(view, tally, events);
            return;
          }
        }
        if constexpr (std::is_same_v<P, SteeringPhase>) {
          if (!profiles.anySteering) {
            launchPhase<GoalOnlySteeringPhase>(view, tally, events);
            return;
          }
        }
        if constexpr (std::is_same_v<P, ModelPhase>) {
          if (!profiles.anyPedestrianModels) {
            launchPhase<OrcaOnlyModelPhase>(view, tally, events);
            return;
          }
        }
        launchPhase<P>(view, tally, events);
      }(),
      ...);
}

}  // namespace
}  // namespace crowd
