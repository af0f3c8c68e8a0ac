// Measuring a planar run as it goes: a measurement plan (crowd/measurement.hpp; a scenario's
// Scenario::measure) observed at the start and then each time the simulated time reaches the next
// multiple of the plan's interval, from the simulator's ids, positions and velocities, so that it
// follows either backend. `crowdsim run` and `crowdsim measure` measure through it.
#pragma once

#include <cstdint>

#include <crowd/measurement.hpp>
#include <crowd/simulator.hpp>

namespace crowd {

class MeasurementSampler {
 public:
  /// `plan` is in world coordinates, as a scenario gives it; the sampler moves its areas and
  /// lines into `sim`'s frame (SimulatorConfig::origin), where the simulator's positions are,
  /// and observes the state `sim` is in now. Throws InputError when the plan cannot be measured.
  MeasurementSampler(MeasurementPlan plan, const Simulator& sim);

  /// Call after each step: observes when the step took the simulated time to or past the next
  /// multiple of the interval, at the time reached, and says whether it did. Steps that do not
  /// divide the interval observe at the first step past each multiple; a time within a hundredth
  /// of a step of a multiple counts as on it, so that float time steps (0.1f is not 0.1) do not
  /// put every sample one step late.
  bool afterStep(const Simulator& sim);

  const Measurements& measurements() const { return measurements_; }

 private:
  void observe(const Simulator& sim);

  Measurements measurements_;
  double interval_;
  double lastTime_ = 0;            // Of the last step seen, to know each step's length.
  std::int64_t lastMultiple_ = 0;  // Multiples of the interval passed at the last observation.
};

}  // namespace crowd
