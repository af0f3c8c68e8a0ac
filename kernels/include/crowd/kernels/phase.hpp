// The phases of one step, in the order they run. Timings, printers, metrics and benchmarks loop
// over this list, so a new phase is one enumerator and one name here (plus its per-agent
// function, listed in step_phases.hpp).
#pragma once

namespace crowd {

enum class Phase : int {
  Grid,        ///< Cell key per agent, sort by cell, agent columns gathered into cell order.
  Neighbours,  ///< The K nearest agents of each agent.
  Steering,    ///< Each agent's preferred velocity: RVO2's goal rule, or its steering behaviours.
  Orca,        ///< Obstacle query, ORCA half-planes and the linear program: the new velocity.
  Commit,      ///< Velocities and positions updated, arrivals marked, results written back.
};

inline constexpr int kPhaseCount = 5;

/// Names as printed in tables and written as JSON keys.
inline constexpr const char* kPhaseNames[kPhaseCount] = {"grid", "neighbours", "steering", "orca", "commit"};

}  // namespace crowd
