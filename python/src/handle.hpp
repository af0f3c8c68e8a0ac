// What the Python module holds for one simulator: the library's simulator plus what Python adds
// around it (the scenario's length of run, the metrics being collected, and how many NumPy views
// of its host arrays are alive). Simulator in Python is SimulatorHandle<crowd::Simulator>,
// Simulator3 is SimulatorHandle<crowd::Simulator3>.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <crowd/metrics.hpp>
#include <crowd/simulator.hpp>
#include <crowd/simulator3.hpp>

namespace crowd::python {

template <class Sim>
struct SimulatorHandle {
  explicit SimulatorHandle(Sim simulator) : sim(std::move(simulator)) {}

  Sim sim;
  /// Steps run() takes when told neither `steps` nor `until`: the scenario's; 0 without one.
  std::int64_t scenarioSteps = 0;
  /// As the scenario says (BasicScenario::endWhenGoalsReached): run() stops once everyone with a
  /// goal arrived.
  bool endWhenGoalsReached = false;
  std::string scenarioName;
  std::uint64_t scenarioSeed = 0;
  std::vector<std::string> warnings;
  /// Observing every step when collecting (start_metrics, or a scenario loaded with metrics=True).
  std::optional<MetricsCollector> metrics;
  /// NumPy arrays viewing sim's host arrays that are still alive (see arrays.hpp). While any is,
  /// a step brings the host copy up to date at once, and adding or removing agents is refused.
  int liveViews = 0;
};

using PlanarHandle = SimulatorHandle<Simulator>;
using Handle3 = SimulatorHandle<Simulator3>;

/// A Python integer for an agent id: the generation in the high 32 bits, the slot in the low
/// ones. This is also the id's bytes read as one little-endian uint64, so the ids view gives the
/// same numbers.
inline std::uint64_t packId(AgentId id) {
  return (static_cast<std::uint64_t>(id.generation) << 32) | id.index;
}
inline AgentId unpackId(std::uint64_t packed) {
  return AgentId{static_cast<std::uint32_t>(packed & 0xffffffffu), static_cast<std::uint32_t>(packed >> 32)};
}

}  // namespace crowd::python
