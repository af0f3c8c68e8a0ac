// TrajectoryWriter: which steps are kept and which format writes them (crowd/trajectory.hpp);
// the CSV and PeTrack text encoders. The JuPedSim database is in trajectory_sqlite.cpp.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <crowd/output_file.hpp>
#include <crowd/trajectory.hpp>
#include <crowd/version.hpp>

#include "io/background_encoder.hpp"
#include "io/trajectory_encoder.hpp"

namespace crowd {
namespace {

// A world coordinate: a frame at the world's origin prints the float exactly (9 significant
// digits round-trip binary32); elsewhere the double sum, to 15 digits, keeps the frame's
// precision in a large number.
void printCoordinate(std::FILE* file, const char* separator, double origin, float frame) {
  if (origin == 0.0) {
    std::fprintf(file, "%s%.9g", separator, static_cast<double>(frame));
  } else {
    std::fprintf(file, "%s%.15g", separator, origin + static_cast<double>(frame));
  }
}

// With a known time step each row ends in the step's time in seconds: a CSV has no header
// lines for a frame rate, so the time is a column.
class CsvEncoder final : public TrajectoryEncoder {
 public:
  CsvEncoder(std::FILE* out, const TrajectorySettings& s) : out_(out), timeStep_(s.timeStep) {
    std::fputs(s.dimensions == 3 ? "step,agent,x,y,z,vx,vy,vz" : "step,agent,x,y,vx,vy", out_);
    std::fputs(timeStep_ > 0.0 ? ",time\n" : "\n", out_);
  }

  void write(const TrajectoryFrame& f) override {
    const long long step = f.step;
    // 12 significant digits: step x 0.1 s prints 0.3, not 0.30000000000000004.
    char time[40] = "\n";
    if (timeStep_ > 0.0) std::snprintf(time, sizeof time, ",%.12g\n", static_cast<double>(step) * timeStep_);
    for (std::size_t i = 0; i < f.ids.size(); ++i) {
      if (f.positions3.empty()) {
        std::fprintf(out_, "%lld,%u", step, f.ids[i].index);
        printCoordinate(out_, ",", f.origin.x, f.positions2[i].x);
        printCoordinate(out_, ",", f.origin.y, f.positions2[i].y);
        std::fprintf(out_, ",%.9g,%.9g", static_cast<double>(f.velocities2[i].x),
                     static_cast<double>(f.velocities2[i].y));
      } else {
        const Vec3 p = f.positions3[i];
        const Vec3 v = f.velocities3[i];
        // 9 significant digits: every float read back to the same bits.
        std::fprintf(out_, "%lld,%u,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g", step, f.ids[i].index,
                     static_cast<double>(p.x), static_cast<double>(p.y), static_cast<double>(p.z),
                     static_cast<double>(v.x), static_cast<double>(v.y), static_cast<double>(v.z));
      }
      std::fputs(time, out_);
    }
  }

 private:
  std::FILE* out_;
  double timeStep_;
};

// PeTrack's text form: PedPy takes the frame rate from the first number on a header line that
// holds "framerate", and the unit from "x/m" (metres) on one.
class PetrackEncoder final : public TrajectoryEncoder {
 public:
  PetrackEncoder(std::FILE* out, const TrajectorySettings& s) : out_(out) {
    std::fprintf(out_, "# trajectories written by crowdsim %s (git %s)%s, every %lld step%s of %.9g s\n",
                 version(), gitRevision(), s.seed ? (", seed " + std::to_string(*s.seed)).c_str() : "",
                 static_cast<long long>(s.everySteps), s.everySteps == 1 ? "" : "s", s.timeStep);
    std::fprintf(out_, "# framerate: %s fps\n", shortestDecimal(trajectoryFrameRate(s)).c_str());
    std::fputs("# id: agent number; frame: step / kept-every (frame 0 is the initial state)\n", out_);
    std::fputs("# id frame x/m y/m z/m\n", out_);
  }

  void write(const TrajectoryFrame& f) override {
    const long long frame = f.frame;
    for (std::size_t i = 0; i < f.ids.size(); ++i) {
      std::fprintf(out_, "%u %lld", f.ids[i].index, frame);
      if (f.positions3.empty()) {
        printCoordinate(out_, " ", f.origin.x, f.positions2[i].x);
        printCoordinate(out_, " ", f.origin.y, f.positions2[i].y);
        std::fputs(" 0\n", out_);
      } else {
        const Vec3 p = f.positions3[i];
        std::fprintf(out_, " %.9g %.9g %.9g\n", static_cast<double>(p.x), static_cast<double>(p.y),
                     static_cast<double>(p.z));
      }
    }
  }

 private:
  std::FILE* out_;
};

std::string lowerExtension(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  const std::size_t dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return {};
  std::string extension = path.substr(dot);
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extension;
}

}  // namespace

std::unique_ptr<TrajectoryEncoder> makeCsvEncoder(std::FILE* out, const TrajectorySettings& settings) {
  return std::make_unique<CsvEncoder>(out, settings);
}

std::unique_ptr<TrajectoryEncoder> makePetrackEncoder(std::FILE* out, const TrajectorySettings& settings) {
  return std::make_unique<PetrackEncoder>(out, settings);
}

TrajectoryFormat trajectoryFormatFor(const std::string& path) {
  const std::string extension = lowerExtension(path);
  if (extension == ".txt") return TrajectoryFormat::PetrackText;
  if (extension == ".sqlite" || extension == ".db") return TrajectoryFormat::JupedsimSqlite;
  if (extension == ".h5" || extension == ".hdf5") return TrajectoryFormat::ArchiveHdf5;
  return TrajectoryFormat::Csv;
}

const char* trajectoryFormatName(TrajectoryFormat format) {
  switch (format) {
    case TrajectoryFormat::PetrackText:
      return "PeTrack text";
    case TrajectoryFormat::JupedsimSqlite:
      return "JuPedSim SQLite";
    case TrajectoryFormat::ArchiveHdf5:
      return "HDF5";
    case TrajectoryFormat::Csv:
      break;
  }
  return "CSV";
}

double writtenTimeStep(float timeStep) {
  char text[32];
  const auto written = std::to_chars(text, text + sizeof text - 1, timeStep);  // Shortest round trip.
  *written.ptr = '\0';
  return std::strtod(text, nullptr);
}

bool trajectoryHoldsWalkableArea(TrajectoryFormat format) {
  return format == TrajectoryFormat::JupedsimSqlite || format == TrajectoryFormat::ArchiveHdf5;
}

TrajectorySettings trajectorySettingsFor(const std::string& path, const Simulator& sim, bool* overlapping) {
  TrajectorySettings settings;
  settings.timeStep = writtenTimeStep(sim.config().timeStep);
  if (overlapping != nullptr) *overlapping = false;
  if (trajectoryHoldsWalkableArea(trajectoryFormatFor(path)))
    settings.walkableArea = walkableAreaWkt(sim, 1.0, overlapping);
  return settings;
}

TrajectorySettings trajectorySettingsFor(const std::string&, const Simulator3& sim) {
  TrajectorySettings settings;
  settings.dimensions = 3;
  settings.timeStep = writtenTimeStep(sim.config().timeStep);
  return settings;
}

double trajectoryFrameRate(const TrajectorySettings& settings) {
  return 1.0 / (static_cast<double>(settings.everySteps) * settings.timeStep);
}

namespace {
TrajectorySettings settingsOf(int dimensions) {
  TrajectorySettings settings;
  settings.dimensions = dimensions;
  return settings;
}
}  // namespace

TrajectoryWriter::TrajectoryWriter(const std::string& path, int dimensions)
    : TrajectoryWriter(path, settingsOf(dimensions)) {}

TrajectoryWriter::TrajectoryWriter(const std::string& path, const TrajectorySettings& settings)
    : settings_(settings), format_(trajectoryFormatFor(path)) {
  if (settings.dimensions != 2 && settings.dimensions != 3) {
    throw std::invalid_argument("trajectory dimensions must be 2 or 3, got " +
                                std::to_string(settings.dimensions));
  }
  if (settings.everySteps < 1) {
    throw std::invalid_argument("trajectory steps kept every " + std::to_string(settings.everySteps) +
                                ": must be 1 or more");
  }
  if (settings.firstStep < 0 || settings.firstStep > settings.lastStep) {
    throw std::invalid_argument("trajectory steps kept from " + std::to_string(settings.firstStep) + " to " +
                                std::to_string(settings.lastStep) + ": an empty window");
  }
  const std::string name = std::string(trajectoryFormatName(format_)) + " trajectories (" + path + ")";
  if (format_ != TrajectoryFormat::Csv) {
    const double rate = settings.timeStep > 0.0 ? trajectoryFrameRate(settings) : 0.0;
    if (!(std::isfinite(rate) && rate > 0.0)) {
      throw std::invalid_argument(name + " state a frame rate: the time step must be finite and positive");
    }
  }
  if (format_ == TrajectoryFormat::JupedsimSqlite && settings.dimensions == 3) {
    throw std::invalid_argument(name + " hold planar worlds only; write a 3D world as .csv or .txt");
  }
  const bool binary = format_ == TrajectoryFormat::JupedsimSqlite || format_ == TrajectoryFormat::ArchiveHdf5;
  if (binary && ownDescriptor(path) >= 0) {
    throw std::invalid_argument(name + " must be a file, not one of the process's streams");
  }
  file_ = std::make_unique<OutputFile>(path);
  switch (format_) {
    case TrajectoryFormat::Csv:
      encoder_ = makeCsvEncoder(file_->stream(), settings);
      break;
    case TrajectoryFormat::PetrackText:
      encoder_ = makePetrackEncoder(file_->stream(), settings);
      break;
    case TrajectoryFormat::JupedsimSqlite:
      encoder_ = makeJupedsimEncoder(file_->writtenPath(), settings);
      break;
    case TrajectoryFormat::ArchiveHdf5:
      encoder_ = makeArchiveEncoder(file_->writtenPath(), settings);
      break;
  }
  if (settings.background) {
    auto background = std::make_unique<BackgroundEncoder>(std::move(encoder_));
    background_ = background.get();
    encoder_ = std::move(background);
  }
}

TrajectoryWriter::~TrajectoryWriter() = default;

template <class Sim>
void TrajectoryWriter::writeKept(const Sim& sim, int dimensions) {
  if (!file_ || finished_) throw std::runtime_error("trajectory file already complete");
  if (settings_.dimensions != dimensions) {
    throw std::invalid_argument(dimensions == 3 ? "a 3D simulator written to a planar trajectory file"
                                                : "a planar simulator written to a 3D trajectory file");
  }
  const std::int64_t step = sim.stepCount();
  if (step % settings_.everySteps != 0 || step < settings_.firstStep || step > settings_.lastStep) return;
  TrajectoryFrame frame;
  frame.step = sim.stepCount();
  frame.frame = frame.step / settings_.everySteps;
  frame.ids = sim.ids();
  if constexpr (std::is_same_v<Sim, Simulator3>) {
    frame.positions3 = sim.positions();
    frame.velocities3 = sim.velocities();
  } else {
    frame.positions2 = sim.positions();
    frame.velocities2 = sim.velocities();
    frame.origin = sim.config().origin;
  }
  encoder_->write(frame);
  ++frames_;
  rows_ += static_cast<std::int64_t>(frame.ids.size());
}

void TrajectoryWriter::write(const Simulator& sim) {
  writeKept(sim, 2);
}

void TrajectoryWriter::write(const Simulator3& sim) {
  writeKept(sim, 3);
}

std::int64_t TrajectoryWriter::stalls() const {
  return background_ != nullptr ? background_->stalls() : closedStalls_;
}

double TrajectoryWriter::stallSeconds() const {
  return background_ != nullptr ? background_->stallSeconds() : closedStallSeconds_;
}

OutputFile* TrajectoryWriter::file() {
  if (encoder_ && !finished_) encoder_->finish();
  finished_ = true;
  return file_.get();
}

void TrajectoryWriter::close() {
  if (!file_) return;
  if (encoder_ && !finished_) encoder_->finish();
  finished_ = true;
  file_->commit();
  file_.reset();
  if (background_ != nullptr) {
    closedStalls_ = background_->stalls();
    closedStallSeconds_ = background_->stallSeconds();
    background_ = nullptr;
  }
  encoder_.reset();
}

}  // namespace crowd
