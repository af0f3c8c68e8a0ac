// The viewer application as a program embeds it (session.hpp, frames.hpp): frames of a planar
// and a 3D world written as PNG files with the steps they show, a session drawn offscreen while
// its simulation runs (live, and a replay alone), and a window refused without a display. The
// drawing tests skip where no OpenGL 3.3 context can be made, saying why.
// Each session makes and closes its own context; a first context, made to see whether one can be
// made, is kept for the whole program, as the Render tests keep theirs: closing the last one would
// unload the GL driver, whose own allocations a leak checker could then no longer name.
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <crowd/scenario.hpp>
#include <crowd/scenario3.hpp>
#include <crowd/trajectory.hpp>
#include <crowd/viewer/frames.hpp>
#include <crowd/viewer/offscreen.hpp>
#include <crowd/viewer/session.hpp>

namespace crowd::viewer {
namespace {

// Whether an offscreen context can be made here: the first one, kept for the whole program (see
// above), or why none can.
struct ContextProbe {
  OffscreenContext* kept = nullptr;
  std::string why;
};
const ContextProbe& probe() {
  static const ContextProbe result = [] {
    ContextProbe p;
    try {
      p.kept = OffscreenContext::create().release();
    } catch (const std::exception& e) {
      p.why = e.what();
    }
    return p;
  }();
  return result;
}

#define SKIP_WITHOUT_GL() \
  if (probe().kept == nullptr) GTEST_SKIP() << "skipped: " << probe().why

// A fresh, empty folder under the system's temporary one.
std::filesystem::path freshFolder(const std::string& name) {
  const std::filesystem::path folder = std::filesystem::temp_directory_path() / name;
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  return folder;
}

// Small frames into a fresh folder, for either world.
FrameSettings smallFrames(const std::string& folder, int frames, int every) {
  FrameSettings settings;
  settings.folder = freshFolder(folder);
  settings.width = 160;
  settings.height = 120;
  settings.frames = frames;
  settings.every = every;
  return settings;
}

TEST(Frames, OnePictureFileAFrameAtTheStepsAskedFor) {
  SKIP_WITHOUT_GL();
  Simulator sim = makeSimulator(builtinScenario("bottleneck", 40, 1), 1);
  sim.prepare();
  FrameSettings settings = smallFrames("crowd_frames_test", 3, 4);
  settings.start = 5;
  std::vector<std::int64_t> steps;
  settings.onFrame = [&steps](int frame, std::int64_t step) {
    EXPECT_EQ(frame, static_cast<int>(steps.size()));
    steps.push_back(step);
  };
  const RenderedFrames rendered = renderFrames(sim, settings);
  EXPECT_EQ(rendered.frames, 3);
  EXPECT_EQ(rendered.lastStep, 13);
  EXPECT_EQ(steps, (std::vector<std::int64_t>{5, 9, 13}));
  EXPECT_FALSE(rendered.drawnBy.empty());
  for (int f = 0; f < 3; ++f) {
    EXPECT_GT(std::filesystem::file_size(framePath(settings.folder, f)), 100u) << f;
  }
  EXPECT_EQ(framePath(settings.folder, 12).filename(), "frame-00012.png");
  EXPECT_FALSE(std::filesystem::exists(framePath(settings.folder, 3)));
  std::filesystem::remove_all(settings.folder);
}

TEST(Frames, A3dWorldTurnsFrameByFrame) {
  SKIP_WITHOUT_GL();
  Simulator3 sim = makeSimulator3(builtinScenario3("sphere", 50, 1), 1);
  sim.prepare();
  const FrameSettings settings = smallFrames("crowd_frames3_test", 2, 3);
  const RenderedFrames rendered = renderFrames(sim, settings);
  EXPECT_EQ(rendered.lastStep, 3);
  EXPECT_TRUE(std::filesystem::exists(framePath(settings.folder, 1)));
  std::filesystem::remove_all(settings.folder);
}

TEST(Frames, VideosAreNamedByTheirFormat) {
  EXPECT_EQ(videoPath("out", VideoFormat::Mp4), std::filesystem::path("out/crowd.mp4"));
  EXPECT_EQ(videoPath("out", VideoFormat::Gif), std::filesystem::path("out/crowd.gif"));
}

DisplaySettings smallOffscreen() {
  DisplaySettings display;
  display.width = 160;
  display.height = 120;
  display.quitAfter = 0.3;
  display.program = "test";
  return display;
}

TEST(Session, OffscreenDrawsWhileTheSimulationRuns) {
  SKIP_WITHOUT_GL();
  Session session({builtinScenario("crossing", 60, 1), std::nullopt}, SimulationSettings{1, BackendKind::Cpu},
                  smallOffscreen());
  const SessionReport report = session.drawOffscreen();
  EXPECT_GT(report.frames, 0);
  EXPECT_GT(report.seconds, 0.25);
  EXPECT_EQ(report.agents, 60u);
  EXPECT_GT(report.step, 0) << "the simulation ran while the frames were drawn";
}

TEST(Session, ReplayAlonePlaysTheFilesAgents) {
  SKIP_WITHOUT_GL();
  const std::filesystem::path file = std::filesystem::temp_directory_path() / "crowd_session_replay.csv";
  {
    Simulator sim = makeSimulator(builtinScenario("circle", 30, 1), 1);
    TrajectoryWriter writer(file.string());
    writer.write(sim);
    for (int s = 0; s < 10; ++s) {
      sim.step();
      writer.write(sim);
    }
    writer.close();
  }
  Session session({std::nullopt, Replay::load(file.string())}, SimulationSettings{}, smallOffscreen());
  std::filesystem::remove(file);
  const SessionReport report = session.drawOffscreen();
  EXPECT_GT(report.frames, 0);
  EXPECT_EQ(report.agents, 30u);
}

TEST(Session, A3dWorldOffscreen) {
  SKIP_WITHOUT_GL();
  Session3 session({builtinScenario3("swarm", 80, 1)}, SimulationSettings{1, BackendKind::Cpu},
                   smallOffscreen());
  const SessionReport report = session.drawOffscreen();
  EXPECT_GT(report.frames, 0);
  EXPECT_EQ(report.agents, 80u);
}

// Unsets an environment variable for its lifetime.
class Unset {
 public:
  explicit Unset(const char* name) : name_(name) {
    if (const char* value = std::getenv(name)) old_ = value;
    unsetenv(name);
  }
  ~Unset() {
    if (!old_.empty()) setenv(name_, old_.c_str(), 1);
  }
  Unset(const Unset&) = delete;
  Unset& operator=(const Unset&) = delete;

 private:
  const char* name_;
  std::string old_;
};

TEST(Session, NoWindowWithoutADisplay) {
  const Unset x("DISPLAY"), wayland("WAYLAND_DISPLAY");
  EXPECT_FALSE(displayPresent());
  Session session({builtinScenario("circle", 10, 1), std::nullopt}, SimulationSettings{1, BackendKind::Cpu},
                  smallOffscreen());
  EXPECT_THROW(session.showWindow(), std::runtime_error);
}

}  // namespace
}  // namespace crowd::viewer
