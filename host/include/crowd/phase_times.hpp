// Wall-clock time spent in each phase of a step.
#pragma once

namespace crowd {

/// Milliseconds per phase. `orca` includes the obstacle-edge range query, which runs per agent
/// just before its half-planes are built.
struct PhaseTimes {
  double grid = 0;          ///< Cell keys, sort by (cell, id), cell ranges.
  double neighbours = 0;    ///< K nearest agents per agent.
  double prefVelocity = 0;  ///< Preferred velocities from goals; arrival tests.
  double orca = 0;          ///< Obstacle query, ORCA half-planes and the LP.
  double commit = 0;        ///< Velocities and positions updated; arrived agents removed.

  double total() const { return grid + neighbours + prefVelocity + orca + commit; }
  PhaseTimes& operator+=(const PhaseTimes& o) {
    grid += o.grid;
    neighbours += o.neighbours;
    prefVelocity += o.prefVelocity;
    orca += o.orca;
    commit += o.commit;
    return *this;
  }
};

}  // namespace crowd
