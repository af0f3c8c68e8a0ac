// Trajectory output as CSV: one `step,agent,x,y,vx,vy` row per agent per step, step 0 being the
// initial state and agent the agent's id index (its number in the scenario). Positions are in
// world coordinates (the simulator's origin added back, in double).
#pragma once

#include <memory>
#include <string>

#include <crowd/output_file.hpp>
#include <crowd/simulator.hpp>

namespace crowd {

class TrajectoryWriter {
 public:
  /// Opens `path` for writing and writes the header. Throws std::runtime_error if it cannot.
  /// The file appears at `path` only when close() succeeds (see OutputFile).
  explicit TrajectoryWriter(const std::string& path);
  ~TrajectoryWriter();
  TrajectoryWriter(const TrajectoryWriter&) = delete;
  TrajectoryWriter& operator=(const TrajectoryWriter&) = delete;

  /// Appends the simulator's current state as rows for step sim.stepCount().
  void write(const Simulator& sim);
  /// Flushes, closes and puts the file in place; throws std::runtime_error if any write failed
  /// (a full disk, say).
  void close();

 private:
  std::unique_ptr<OutputFile> file_;
};

}  // namespace crowd
