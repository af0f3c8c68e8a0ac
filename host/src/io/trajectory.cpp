#include <stdexcept>
#include <string>

#include <crowd/output_file.hpp>
#include <crowd/trajectory.hpp>

namespace crowd {
namespace {

// A world coordinate: a frame at the world's origin prints the float exactly (9 significant
// digits round-trip binary32); elsewhere the double sum, to 15 digits, keeps the frame's
// precision in a large number.
void printCoordinate(std::FILE* file, double origin, float frame) {
  if (origin == 0.0) {
    std::fprintf(file, ",%.9g", static_cast<double>(frame));
  } else {
    std::fprintf(file, ",%.15g", origin + static_cast<double>(frame));
  }
}

}  // namespace

TrajectoryWriter::TrajectoryWriter(const std::string& path, int dimensions) : dimensions_(dimensions) {
  if (dimensions != 2 && dimensions != 3) {
    throw std::invalid_argument("trajectory dimensions must be 2 or 3, got " + std::to_string(dimensions));
  }
  file_ = std::make_unique<OutputFile>(path);
  std::fputs(dimensions == 3 ? "step,agent,x,y,z,vx,vy,vz\n" : "step,agent,x,y,vx,vy\n", file_->stream());
}

TrajectoryWriter::~TrajectoryWriter() = default;

void TrajectoryWriter::write(const Simulator& sim) {
  if (!file_) throw std::runtime_error("trajectory file already closed");
  if (dimensions_ != 2) throw std::invalid_argument("a planar simulator written to a 3D trajectory file");
  std::FILE* out = file_->stream();
  const auto ids = sim.ids();
  const auto pos = sim.positions();
  const auto vel = sim.velocities();
  const glm::dvec2 origin = sim.config().origin;
  const long long step = sim.stepCount();
  for (std::size_t i = 0; i < ids.size(); ++i) {
    std::fprintf(out, "%lld,%u", step, ids[i].index);
    printCoordinate(out, origin.x, pos[i].x);
    printCoordinate(out, origin.y, pos[i].y);
    std::fprintf(out, ",%.9g,%.9g\n", static_cast<double>(vel[i].x), static_cast<double>(vel[i].y));
  }
}

void TrajectoryWriter::write(const Simulator3& sim) {
  if (!file_) throw std::runtime_error("trajectory file already closed");
  if (dimensions_ != 3) throw std::invalid_argument("a 3D simulator written to a planar trajectory file");
  std::FILE* out = file_->stream();
  const auto ids = sim.ids();
  const auto pos = sim.positions();
  const auto vel = sim.velocities();
  const long long step = sim.stepCount();
  for (std::size_t i = 0; i < ids.size(); ++i) {
    // 9 significant digits: every float read back to the same bits.
    std::fprintf(out, "%lld,%u,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", step, ids[i].index,
                 static_cast<double>(pos[i].x), static_cast<double>(pos[i].y), static_cast<double>(pos[i].z),
                 static_cast<double>(vel[i].x), static_cast<double>(vel[i].y), static_cast<double>(vel[i].z));
  }
}

void TrajectoryWriter::close() {
  if (!file_) return;
  file_->commit();
  file_.reset();
}

}  // namespace crowd
