// The interface every compute backend implements. A backend advances the simulator's agents by
// one step: it may keep its own buffers (grids, neighbour lists, device copies) between steps.
#pragma once

#include <memory>
#include <string>

#include <crowd/phase_times.hpp>

namespace crowd {

class Simulator;

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;
  /// Computes new velocities from the current state, then commits them (positions, arrivals,
  /// removals). Fills `times` and the number of neighbour candidates examined.
  virtual void step(Simulator& sim, PhaseTimes& times, double& candidatesPerAgent) = 0;
};

std::unique_ptr<Backend> makeCpuBackend();

}  // namespace crowd
