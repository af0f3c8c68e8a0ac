// Sampling a run's measurement plan (crowd/measurement_sampler.hpp).
#include <cmath>
#include <span>
#include <utility>

#include <glm/vec2.hpp>

#include <crowd/measurement_sampler.hpp>

namespace crowd {
namespace {

// A point of the world in the simulator's frame, as makeSimulator moves the scenario there.
Vec2 inFrame(Vec2 p, glm::dvec2 origin) {
  return Vec2(glm::dvec2(p) - origin);
}

MeasurementPlan inFrame(MeasurementPlan plan, glm::dvec2 origin, const PeriodicRange& period) {
  if (period.on()) plan.periodic = PeriodicBoundary{period.from, period.to - period.from};
  for (MeasurementArea& area : plan.areas) {
    for (Vec2& vertex : area.polygon) vertex = inFrame(vertex, origin);
  }
  for (MeasurementLine& line : plan.lines) {
    line.from = inFrame(line.from, origin);
    line.to = inFrame(line.to, origin);
  }
  return plan;
}

// Multiples of `interval` that `time` has reached, a time within `slack` intervals short of one
// counting as on it.
std::int64_t multiplesReached(double time, double interval, double slack) {
  return static_cast<std::int64_t>(std::floor(time / interval + 1e-9 + slack));
}

}  // namespace

MeasurementSampler::MeasurementSampler(MeasurementPlan plan, const Simulator& sim)
    : measurements_(inFrame(std::move(plan), sim.config().origin, sim.config().periodicX)),
      interval_(measurements_.plan().interval),
      lastTime_(sim.time()),
      lastMultiple_(multiplesReached(sim.time(), interval_, 0.0)) {
  observe(sim);
}

bool MeasurementSampler::afterStep(const Simulator& sim) {
  const double time = sim.time();
  const double step = time - lastTime_;
  lastTime_ = time;
  if (!(step > 0.0)) return false;  // No step since the last call: nothing new to see.
  const std::int64_t reached = multiplesReached(time, interval_, 0.01 * step / interval_);
  if (reached <= lastMultiple_) return false;
  lastMultiple_ = reached;
  observe(sim);
  return true;
}

void MeasurementSampler::observe(const Simulator& sim) {
  // The positions first: reading them brings the host's copy up to date (from the device, or
  // from the CPU executor's cell order), ids included.
  const std::span<const Vec2> positions = sim.positions();
  const std::span<const Vec2> velocities = sim.velocities();
  measurements_.observe(sim.time(), sim.ids(), positions, velocities);
}

}  // namespace crowd
