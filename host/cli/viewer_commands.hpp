// crowdsim's `view` and `render` commands. Their options always exist; the commands themselves
// need a build with the viewer (CROWD_VIEWER), and say how to get one otherwise.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include <crowd/scenario.hpp>

namespace crowd::cli {

/// What `view` and `render` share: the scenario and how to run and colour it.
struct SceneOptions {
  std::vector<std::string> target;  ///< FILE, or "builtin" NAME; empty: the showcase.
  std::optional<std::size_t> agents;
  std::optional<std::uint64_t> seed;
  int threads = 0;
  std::string backend = "auto";
  std::string colorBy = "speed";
  std::string size = "1280x720";  ///< WxH.
};

struct ViewOptions {
  SceneOptions scene;
  std::string replayPath;    ///< A trajectory file to play instead of running.
  double quitAfter = 0.0;    ///< Seconds of wall time, then quit (0: stay open).
  bool noVsync = false;      ///< Draw as fast as possible (frame rate measurements).
  bool offscreen = false;    ///< No window: draw offscreen and report the frame rate.
};

struct RenderOptions {
  SceneOptions scene;
  int start = 0;  ///< Steps run before the first frame.
  int frames = 60;
  int every = 1;
  std::string outDir = "frames";
  std::string video = "auto";  ///< auto (MP4 and GIF when ffmpeg is there), none, mp4, gif.
  bool quiet = false;
  bool fitCrowd = false;  ///< Frame the crowd at the first frame rather than its whole journey.
};

/// The built-in scenario shown when none is named: streams crossing without contact.
inline constexpr const char* kShowcase = "crossing";
/// Simulated seconds before the picture `crowdsim` draws without a display.
inline constexpr double kShowcaseSeconds = 120.0;

/// Loads FILE or "builtin NAME" (empty: the showcase). Throws ScenarioError.
Scenario loadSceneTarget(const SceneOptions& o);

CLI::App* addViewCommand(CLI::App& app, ViewOptions& o);
CLI::App* addRenderCommand(CLI::App& app, RenderOptions& o);
int runView(const ViewOptions& o);
/// `view` of a 3D world (isTarget3d): spheres and an orbit camera (view3.cpp).
int runView3(const ViewOptions& o);
int runRender(const RenderOptions& o);
/// Whether a display is there for a window (DISPLAY or WAYLAND_DISPLAY set).
bool displayPresent();
/// Whether this build has the viewer.
bool viewerBuilt();

}  // namespace crowd::cli
