// Trajectory output as CSV: one `step,agent,x,y,vx,vy` row per agent per step, step 0 being the
// initial state and agent the agent's id index (its number in the scenario).
#pragma once

#include <cstdio>
#include <string>

#include <crowd/simulator.hpp>

namespace crowd {

class TrajectoryWriter {
 public:
  /// Opens `path` for writing and writes the header. Throws std::runtime_error if it cannot.
  explicit TrajectoryWriter(const std::string& path);
  ~TrajectoryWriter();
  TrajectoryWriter(const TrajectoryWriter&) = delete;
  TrajectoryWriter& operator=(const TrajectoryWriter&) = delete;

  /// Appends the simulator's current state as rows for step sim.stepCount().
  void write(const Simulator& sim);
  /// Flushes and closes; throws std::runtime_error if any write failed (a full disk, say).
  void close();

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
};

}  // namespace crowd
