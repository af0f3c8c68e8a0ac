#include <crowd/trajectory.hpp>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace crowd {

TrajectoryWriter::TrajectoryWriter(const std::string& path) : path_(path) {
  file_ = std::fopen(path.c_str(), "w");
  if (file_ == nullptr) throw std::runtime_error(path + ": cannot open for writing: " + std::strerror(errno));
  std::fputs("step,agent,x,y,vx,vy\n", file_);
}

TrajectoryWriter::~TrajectoryWriter() {
  if (file_ != nullptr) std::fclose(file_);
}

void TrajectoryWriter::write(const Simulator& sim) {
  if (file_ == nullptr) throw std::runtime_error(path_ + ": already closed");
  const auto ids = sim.ids();
  const auto pos = sim.positions();
  const auto vel = sim.velocities();
  const long long step = sim.stepCount();
  // %.9g prints every float exactly (9 significant digits round-trip binary32).
  for (std::size_t i = 0; i < ids.size(); ++i) {
    std::fprintf(file_, "%lld,%u,%.9g,%.9g,%.9g,%.9g\n", step, ids[i].index, static_cast<double>(pos[i].x),
                 static_cast<double>(pos[i].y), static_cast<double>(vel[i].x), static_cast<double>(vel[i].y));
  }
}

void TrajectoryWriter::close() {
  if (file_ == nullptr) return;
  const bool failed = std::ferror(file_) != 0;
  const bool closeFailed = std::fclose(file_) != 0;
  file_ = nullptr;
  if (failed || closeFailed) throw std::runtime_error(path_ + ": writing failed (disk full?)");
}

}  // namespace crowd
