// What crowdsim's `view` and `render` share: the scenario they show and how it is run, coloured
// and sized. Their options always exist; the commands themselves need a build with the viewer
// (CROWD_VIEWER) and say how to get one otherwise.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include <crowd/scenario.hpp>
#ifdef CROWD_WITH_VIEWER
#include <crowd/viewer/scene.hpp>
#endif

namespace crowd::cli {

/// The scenario and how to run and colour it.
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
  std::string replayPath;  ///< A trajectory file to play instead of running.
  double quitAfter = 0.0;  ///< Seconds of wall time, then quit (0: stay open).
  bool noVsync = false;    ///< Draw as fast as possible (frame rate measurements).
  bool offscreen = false;  ///< No window: draw offscreen and report the frame rate.
};

struct RenderOptions {
  SceneOptions scene;
  int start = 0;  ///< Steps run before the first frame.
  int frames = 60;
  int every = 1;
  std::string outDir = "frames";
  std::string video = "auto";  ///< auto (MP4 and GIF when ffmpeg is there), none, mp4, gif.
  bool quiet = false;
  bool fitCrowd = false;       ///< Frame the crowd at the first frame rather than its whole journey.
  double fps = 30.0;           ///< Frames a second of the MP4 and the GIF.
  bool noAnnotations = false;  ///< The scene alone: no legend, scale bar, time or marks.
};

/// The built-in scenario shown when none is named: a floor of rooms emptying into corridors and
/// out through its exits, what people run a crowd simulator for.
inline constexpr const char* kShowcase = "evacuation";
/// Simulated seconds before the picture `crowdsim` draws without a display: the rooms half
/// empty, streams in every corridor.
inline constexpr double kShowcaseSeconds = 15.0;

/// Adds the target and the options of SceneOptions to `command`; `defaultSize` is its --size.
void addSceneOptions(CLI::App& command, SceneOptions& o, const char* defaultSize);

/// Loads FILE or "builtin NAME" (empty: the showcase). Throws ScenarioError.
Scenario loadSceneTarget(const SceneOptions& o);

/// Runs `view` (commands/view.cpp) and `render` (commands/render.cpp); return the exit code.
int runView(const ViewOptions& o);
int runRender(const RenderOptions& o);

/// Says that `command` needs the viewer, which this build left out, and how to get it; returns
/// the exit code.
int viewerMissing(const char* command);

/// A picture or window size, pixels.
struct PictureSize {
  int width;
  int height;
};
/// "WIDTHxHEIGHT", each 16 to 16384. Throws std::invalid_argument.
PictureSize parseSize(const std::string& text);

#ifdef CROWD_WITH_VIEWER
/// --color-by's name as the viewer's ColorBy. Throws std::invalid_argument.
viewer::ColorBy colorByNamed(const std::string& name);
#endif

}  // namespace crowd::cli
