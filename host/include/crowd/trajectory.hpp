// Trajectory files, in the format the file's extension names:
//  - .csv (and any other name, /dev/stdout included): one `step,agent,x,y,vx,vy,time` row per
//    agent per kept step (in a 3D world `step,agent,x,y,z,vx,vy,vz,time`), step 0 being the
//    initial state and time in seconds (no time column when the time step is not given);
//  - .txt: the PeTrack text form PedPy reads (load_trajectory): `id frame x y z` rows in metres,
//    the frame rate and unit in `#` header lines;
//  - .sqlite / .db: JuPedSim's trajectory database, version 2, which PedPy reads as it is
//    (load_trajectory_from_jupedsim_sqlite, load_walkable_area_from_jupedsim_sqlite): frames,
//    positions and orientations, the frame rate, the bounds and the walkable area as WKT;
//  - .h5 / .hdf5: the pedestrian-dynamics data archive's HDF5 layout, which PedPy reads as it is
//    (load_trajectory_from_ped_data_archive_hdf5): a chunked, compressed `trajectory` dataset of
//    {id, frame, x, y, z} records with an `fps` attribute, the walkable area as WKT.
// Agents are numbered by their id index (their number in the scenario). Positions are in world
// coordinates (the simulator's origin added back, in double). With `everySteps` K only every
// K-th step is kept; a frame is then step / K and the frame rate 1 / (K timeStep).
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>

#include <crowd/simulator.hpp>
#include <crowd/simulator3.hpp>

namespace crowd {

class OutputFile;

enum class TrajectoryFormat { Csv, PetrackText, JupedsimSqlite, ArchiveHdf5 };

/// The format for `path`, by its extension (case ignored): .txt, .sqlite or .db, .h5 or .hdf5,
/// else CSV.
TrajectoryFormat trajectoryFormatFor(const std::string& path);
/// "CSV", "PeTrack text", "JuPedSim SQLite", "HDF5".
const char* trajectoryFormatName(TrajectoryFormat format);

struct TrajectorySettings {
  int dimensions = 2;           ///< 2 or 3; a JuPedSim database holds planar worlds only.
  double timeStep = 0.0;        ///< s; the frame rate of .txt and .sqlite files (needed there).
  std::int64_t everySteps = 1;  ///< Keep steps 0, K, 2K, ...
  /// Keep only the steps from firstStep to lastStep, both included (of those a multiple of
  /// everySteps). Frames keep their numbers (step / everySteps), so a window starts past 0.
  std::int64_t firstStep = 0;
  std::int64_t lastStep = std::numeric_limits<std::int64_t>::max();
  /// The scenario's seed, stated in the file's metadata with crowd's version and revision
  /// (crowd/version.hpp) where the format has metadata; none when not given.
  std::optional<std::uint64_t> seed;
  /// The walkable area as a WKT POLYGON, for a JuPedSim database or an HDF5 file (walkableAreaWkt).
  std::string walkableArea;
  /// Encode on a writer thread: write() copies the kept step into one of two buffers and
  /// returns, waiting only when the writer is a whole buffer behind (TrajectoryWriter::stalls).
  bool background = true;
};

/// Whether files of `format` carry the walkable area (TrajectorySettings::walkableArea).
bool trajectoryHoldsWalkableArea(TrajectoryFormat format);

/// The settings a trajectory file at `path` takes from the simulator it records: its dimensions,
/// its time step as written (writtenTimeStep) and, where the format holds one, the walkable area
/// (walkableAreaWkt, 1 m margin; `overlapping` set as that sets it, false when no area is made).
/// Sampling and window stay the defaults, every step.
TrajectorySettings trajectorySettingsFor(const std::string& path, const Simulator& sim,
                                         bool* overlapping = nullptr);
TrajectorySettings trajectorySettingsFor(const std::string& path, const Simulator3& sim);

/// The frames per second a file with `settings` states: 1 / (everySteps timeStep).
double trajectoryFrameRate(const TrajectorySettings& settings);

/// A float time step as the decimal it was written as (0.1f as 0.1, not 0.100000001), for
/// TrajectorySettings::timeStep: 10 steps a second then make a frame rate of 10, not 9.99999985.
double writtenTimeStep(float timeStep);

class TrajectoryEncoder;
class BackgroundEncoder;

class TrajectoryWriter {
 public:
  /// Opens `path` for writing and writes the header. Throws std::runtime_error if it cannot,
  /// std::invalid_argument for settings the format cannot take (dimensions other than 2 or 3,
  /// everySteps below 1, a window with firstStep past lastStep or below 0, a frame rate that is not finite
  /// and positive where the format states one, a 3D world or a device for a database). The file appears at
  /// `path` only when close() succeeds (crowd/output_file.hpp).
  TrajectoryWriter(const std::string& path, const TrajectorySettings& settings);
  /// A CSV-style writer of every step (the settings' defaults but `dimensions`).
  explicit TrajectoryWriter(const std::string& path, int dimensions = 2);
  ~TrajectoryWriter();
  TrajectoryWriter(const TrajectoryWriter&) = delete;
  TrajectoryWriter& operator=(const TrajectoryWriter&) = delete;

  /// Appends the simulator's current state as frame sim.stepCount() / everySteps when that step
  /// is kept (a multiple of everySteps within the window); otherwise does nothing. Throws
  /// std::invalid_argument for a simulator of the other kind than the file's dimensions.
  void write(const Simulator& sim);
  void write(const Simulator3& sim);
  /// Flushes, closes and puts the file in place; throws std::runtime_error if any write failed
  /// (a full disk, say).
  void close();
  /// The file being written, for putting it in place with a run's other outputs
  /// (OutputFile::commitTogether) instead of by close(); null once closed. A database is
  /// complete on disk once this is asked for: nothing more may be written.
  OutputFile* file();

  TrajectoryFormat format() const { return format_; }
  const TrajectorySettings& settings() const { return settings_; }
  std::int64_t framesWritten() const { return frames_; }
  /// Agent rows in the kept frames (an agent in a frame is one row, whatever the format).
  std::int64_t rowsWritten() const { return rows_; }
  /// How many kept steps waited for the writer thread to free a buffer, and for how long.
  std::int64_t stalls() const;
  double stallSeconds() const;

 private:
  template <class Sim>
  void writeKept(const Sim& sim, int dimensions);

  TrajectorySettings settings_;
  TrajectoryFormat format_ = TrajectoryFormat::Csv;
  std::unique_ptr<OutputFile> file_;
  std::unique_ptr<TrajectoryEncoder> encoder_;
  const BackgroundEncoder* background_ = nullptr;  ///< encoder_, when it is one (null once closed).
  std::int64_t closedStalls_ = 0;                  ///< Its figures, kept when it is closed.
  double closedStallSeconds_ = 0.0;
  bool finished_ = false;
  std::int64_t frames_ = 0;
  std::int64_t rows_ = 0;
};

/// The walkable area of a planar simulator's world as a WKT POLYGON: the box round its agents
/// and obstacles, `margin` metres wider on every side, with each solid obstacle polygon (and
/// the polygon drawn round each circle) as a hole. Wall segments and clockwise boundaries
/// enclose no area and are not holes. Obstacles that overlap each other are merged into one
/// hole only by a polygon library; `overlapping` (when given) is set to whether any do, since
/// holes that overlap make the polygon invalid for such a library.
std::string walkableAreaWkt(const Simulator& sim, double margin = 1.0, bool* overlapping = nullptr);

}  // namespace crowd
