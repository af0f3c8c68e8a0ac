// step() and run() for either world: a step, the metrics' observation and, while NumPy views are
// alive, the host copy brought up to date (arrays.hpp); run() repeats it with a callback, Ctrl-C
// and a progress line on a terminal.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

#include <pybind11/pybind11.h>

#include "handle.hpp"

namespace crowd::python {

namespace py = pybind11;

template <class Sim>
void stepOnce(SimulatorHandle<Sim>& handle) {
  handle.sim.step();
  if (handle.metrics) handle.metrics->observe(handle.sim);
  // positions() refreshes every column a step writes: the views see this step at once.
  if (handle.liveViews > 0) static_cast<void>(handle.sim.positions());
}

/// Agents with a goal now: a run of the scenario's length ends once they have all arrived.
template <class Sim>
std::size_t agentsWithGoal(const Sim& sim) {
  std::size_t count = 0;
  for (const AgentId id : sim.ids()) count += sim.goal(id).has_value() ? 1 : 0;
  return count;
}

/// One line on stderr, rewritten in place at most ten times a second.
class ProgressLine {
 public:
  explicit ProgressLine(bool on) : on_(on) {}
  void update(std::int64_t step, std::int64_t total, double time, std::size_t arrived) {
    if (!on_) return;
    const auto now = std::chrono::steady_clock::now();
    if (shown_ && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    shown_ = true;
    char text[160];
    if (total > 0) {
      std::snprintf(text, sizeof text, "\rstep %lld/%lld  %.2f s  arrived %zu   ",
                    static_cast<long long>(step), static_cast<long long>(total), time, arrived);
    } else {
      std::snprintf(text, sizeof text, "\rstep %lld  %.2f s  arrived %zu   ", static_cast<long long>(step),
                    time, arrived);
    }
    write(text);
  }
  ~ProgressLine() {
    if (shown_) write("\r\033[K");
  }

 private:
  static void write(const char* text) {
    const py::object err = py::module_::import("sys").attr("stderr");
    err.attr("write")(text);
    err.attr("flush")();
  }
  bool on_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_{};
};

/// run(): `steps` steps, or until `until` seconds of simulated time, or (neither) the scenario's
/// steps, ending early once everyone with a goal arrived. `callback(sim)` after each step; it
/// ends the run by returning False. Returns the steps run.
template <class Sim>
std::int64_t runSteps(py::object self, std::optional<double> until, std::optional<std::int64_t> steps,
                      py::object callback, std::optional<bool> progress) {
  auto& handle = self.cast<SimulatorHandle<Sim>&>();
  if (until && steps) throw std::invalid_argument("run: give steps or until, not both");
  if (steps && *steps < 0)
    throw std::invalid_argument("run: steps must be >= 0, got " + std::to_string(*steps));
  const bool scenarioLength = !until && !steps;
  if (scenarioLength && handle.scenarioSteps <= 0) {
    throw std::invalid_argument("run: this simulator has no scenario length; give steps= or until=");
  }
  const std::int64_t total = steps ? *steps : scenarioLength ? handle.scenarioSteps : 0;
  const bool show =
      progress.value_or(py::module_::import("sys").attr("stderr").attr("isatty")().cast<bool>());
  Sim& sim = handle.sim;
  const std::size_t withGoal = scenarioLength ? agentsWithGoal(sim) : 0;
  const bool endsOnArrivals = withGoal > 0 && (withGoal == sim.agentCount() || handle.endWhenGoalsReached);
  ProgressLine line(show);
  std::int64_t done = 0;
  // Those there already, then each arrival as reported (once, removed ones included).
  std::size_t arrived = sim.arrivedCount();
  // Half a step's slack: time() sums float steps in double and may land a hair below `until`.
  const auto more = [&] {
    if (until) return sim.time() + 0.5 * sim.config().timeStep <= *until;
    return done < total;
  };
  while (more()) {
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
    stepOnce(handle);
    ++done;
    arrived += sim.lastArrivals().size();
    line.update(done, total, sim.time(), arrived);
    if (!callback.is_none() && callback(self).is(py::bool_(false))) break;
    if (endsOnArrivals && arrived >= withGoal) break;
  }
  return done;
}

}  // namespace crowd::python
