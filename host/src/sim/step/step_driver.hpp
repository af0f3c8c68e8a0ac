// The step, written once for both worlds and both backends: arrange the agents in cell order,
// build the view of what the phases read and write, run the phases, then take up the result or
// refuse it, and collect the arrivals. The executor (executor.hpp) supplies the parts that depend
// on where the agents live; the driver owns the order of things and what is decided from the tally.
#pragma once

#include <memory>

#include "sim/step/cell_size.hpp"
#include "sim/step/executor.hpp"

namespace crowd {

/// The step's view: the request's settings and the working arrays, assembled in one place.
template <class Vector>
StepViewOf<Vector> makeStepView(const StepRequestOf<Vector>& request, const WorkingArraysOf<Vector>& work,
                                float nearThresholdSq);

template <class Vector>
class StepDriverOf {
 public:
  explicit StepDriverOf(std::unique_ptr<ExecutorOf<Vector>> executor) : executor_(std::move(executor)) {}

  /// Computes every agent's new velocity from the current state, then commits it, unless some
  /// agent's result is not finite: then nothing changes (the steering state included) and the
  /// report names the agent. An accepted step flips the host's steering store.
  StepReportOf<Vector> step(const StepRequestOf<Vector>& request);

  ExecutorOf<Vector>& executor() { return *executor_; }
  const ExecutorOf<Vector>& executor() const { return *executor_; }

 private:
  std::unique_ptr<ExecutorOf<Vector>> executor_;
  CellSizeChooser cellSize_;
};

extern template class StepDriverOf<Vec2>;
extern template class StepDriverOf<Vec3>;

}  // namespace crowd
