// Trajectory output as CSV: one `step,agent,x,y,vx,vy` row per agent per step (in a 3D world
// `step,agent,x,y,z,vx,vy,vz`), step 0 being the initial state and agent the agent's id index
// (its number in the scenario). Positions are in
// world coordinates (the simulator's origin added back, in double).
#pragma once

#include <memory>
#include <string>

#include <crowd/simulator.hpp>
#include <crowd/simulator3.hpp>

namespace crowd {

class OutputFile;

class TrajectoryWriter {
 public:
  /// Opens `path` for writing and writes the header. Throws std::runtime_error if it cannot.
  /// The file appears at `path` only when close() succeeds (crowd/output_file.hpp).
  /// `dimensions` 3 writes the 3D columns (write(const Simulator3&)); 2 the planar ones. Throws
  /// std::invalid_argument for another number.
  explicit TrajectoryWriter(const std::string& path, int dimensions = 2);
  ~TrajectoryWriter();
  TrajectoryWriter(const TrajectoryWriter&) = delete;
  TrajectoryWriter& operator=(const TrajectoryWriter&) = delete;

  /// Appends the simulator's current state as rows for step sim.stepCount(). Throws
  /// std::invalid_argument for a simulator of the other kind than the file's dimensions.
  void write(const Simulator& sim);
  void write(const Simulator3& sim);
  /// Flushes, closes and puts the file in place; throws std::runtime_error if any write failed
  /// (a full disk, say).
  void close();
  /// The file being written, for putting it in place with a run's other outputs
  /// (OutputFile::commitTogether) instead of by close(); null once closed.
  OutputFile* file() { return file_.get(); }

 private:
  int dimensions_;
  std::unique_ptr<OutputFile> file_;
};

}  // namespace crowd
