// How a trajectory format encodes a frame (crowd/trajectory.hpp): TrajectoryWriter decides which
// steps are kept and hands each kept one to the format's encoder.
#pragma once

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <span>
#include <string>

#include <glm/vec2.hpp>

#include <crowd/agent_id.hpp>
#include <crowd/trajectory.hpp>

#include "crowd/kernels/vec2.hpp"
#include "crowd/kernels/vec3.hpp"

namespace crowd {

/// One kept step of a planar (positions2) or 3D (positions3) world; the other pair is empty.
struct TrajectoryFrame {
  std::int64_t step = 0;
  std::int64_t frame = 0;  ///< step / everySteps.
  std::span<const AgentId> ids;
  std::span<const Vec2> positions2;
  std::span<const Vec2> velocities2;
  glm::dvec2 origin{0.0, 0.0};  ///< Added back to planar positions (the simulator's frame).
  std::span<const Vec3> positions3;
  std::span<const Vec3> velocities3;
};

/// The shortest decimal that reads back as `value` ("0.8", not "0.80000000000000004").
inline std::string shortestDecimal(double value) {
  char text[32];
  const auto written = std::to_chars(text, text + sizeof text, value);
  return std::string(text, written.ptr);
}

class TrajectoryEncoder {
 public:
  virtual ~TrajectoryEncoder() = default;
  virtual void write(const TrajectoryFrame& frame) = 0;
  /// Completes the file before it is put in place (a database closes here).
  virtual void finish() {}
};

std::unique_ptr<TrajectoryEncoder> makeCsvEncoder(std::FILE* out, const TrajectorySettings& settings);
std::unique_ptr<TrajectoryEncoder> makePetrackEncoder(std::FILE* out, const TrajectorySettings& settings);
/// Writes the database at `path` (an empty file, the output's temporary one). Throws
/// std::runtime_error when SQLite fails, or when this build has no SQLite.
std::unique_ptr<TrajectoryEncoder> makeJupedsimEncoder(const std::string& path,
                                                       const TrajectorySettings& settings);
/// Writes the data archive's HDF5 file at `path` (the output's temporary one). Throws
/// std::runtime_error when HDF5 fails, or when this build has no HDF5.
std::unique_ptr<TrajectoryEncoder> makeArchiveEncoder(const std::string& path,
                                                      const TrajectorySettings& settings);

}  // namespace crowd
