// The options of `view` and `render` (viewer_commands.hpp), and what they do in a build without
// the viewer.
#include <cstdlib>
#include <iostream>

#include "output_paths.hpp"
#include "run_options.hpp"
#include "strict_integer.hpp"
#include "viewer_commands.hpp"

namespace crowd::cli {
namespace {

void addSceneOptions(CLI::App& command, SceneOptions& o, const char* defaultSize) {
  command.add_option("target", o.target, std::string("A scenario file, or 'builtin NAME' (default: builtin ") + kShowcase + ")")
      ->expected(0, 2);
  command.add_option("--agents", o.agents, "Agent count for a built-in scenario")
      ->check(kWholeNumber)
      ->check(CLI::Range(std::size_t{1}, static_cast<std::size_t>(limits::kMaxScenarioAgents)));
  command.add_option("--seed", o.seed, "Seed for random placement and goals")->check(kWholeNumber);
  command.add_option("--threads", o.threads, "CPU threads (0: all cores)")
      ->check(kWholeNumber)
      ->check(CLI::Range(0, kMaxThreads));
  command.add_option("--backend", o.backend, "Compute backend")->check(CLI::IsMember({"auto", "cpu", "cuda"}))->capture_default_str();
  command.add_option("--color-by", o.colorBy, "What agent colours show")
      ->check(CLI::IsMember({"speed", "group", "behavior", "density"}))
      ->capture_default_str();
  o.size = defaultSize;
  command.add_option("--size", o.size, "Picture or window size, WIDTHxHEIGHT pixels")->capture_default_str();
}

}  // namespace

bool displayPresent() {
  const char* x = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  return (x != nullptr && *x != '\0') || (wayland != nullptr && *wayland != '\0');
}

CLI::App* addViewCommand(CLI::App& app, ViewOptions& o) {
  CLI::App* view = app.add_subcommand("view", "Watch a scenario run in a window (or play back a trajectory file)");
  addSceneOptions(*view, o.scene, "1280x800");
  view->add_option("--replay", o.replayPath,
                   "Play this trajectory file (crowdsim run --out) instead of running; name its scenario too to "
                   "draw its obstacles and agent sizes")
      ->check(kPathGiven);
  view->add_option("--quit-after", o.quitAfter, "Close the window after this many seconds")->check(kFiniteNonNegative);
  view->add_flag("--no-vsync", o.noVsync, "Do not wait for the display's refresh (to measure frames per second)");
  view->add_flag("--offscreen", o.offscreen,
                 "No window: draw offscreen (EGL) as fast as possible while the simulation runs, for --quit-after "
                 "seconds (default 10), then print the frame rate");
  view->footer(
      "Keys: space pause, N or . one step, + / - faster / slower, R reset, F fit, C colours, T trails,\n"
      "P screenshot, Esc or Q quit;\n"
      "drag to pan, wheel to zoom at the cursor, click an agent to show its route and neighbours.");
  return view;
}

CLI::App* addRenderCommand(CLI::App& app, RenderOptions& o) {
  CLI::App* render = app.add_subcommand("render", "Write PNG frames of a scenario (and an MP4 and a GIF with ffmpeg), no display needed");
  addSceneOptions(*render, o.scene, "1280x720");
  render->add_option("--start", o.start, "Steps to run before the first frame")
      ->check(kWholeNumber)
      ->check(CLI::Range(0, 1000000000))->capture_default_str();
  render->add_option("--frames", o.frames, "Frames to write")->check(kWholeNumber)->check(CLI::Range(1, 100000))->capture_default_str();
  render->add_option("--every", o.every, "Steps between frames")->check(kWholeNumber)->check(CLI::Range(1, 1000000))->capture_default_str();
  render->add_option("--out", o.outDir, "Folder for frame-00000.png, ... (made if missing)")
      ->check(kPathGiven)
      ->capture_default_str();
  render->add_option("--video", o.video, "auto: MP4 and GIF when ffmpeg is installed; none; mp4; gif")
      ->check(CLI::IsMember({"auto", "none", "mp4", "gif"}))
      ->capture_default_str();
  render->add_flag("-q,--quiet", o.quiet, "No progress line");
  render->add_flag("--fit-crowd", o.fitCrowd,
                   "Frame the obstacles and the crowd as it stands at the first frame (default: their goals too, "
                   "the whole journey)");
  return render;
}

#ifndef CROWD_WITH_VIEWER
namespace {
int missing(const char* command) {
  std::cerr << "crowdsim: error: '" << command << "' needs the viewer, which this build left out. Install "
            << "libglfw3-dev libepoxy-dev libpng-dev (and libimgui-dev for the overlay) and rebuild "
            << "(scripts/build.sh, or cmake -DCROWD_VIEWER=ON)\n";
  return kExitFailure;
}
}  // namespace
bool viewerBuilt() { return false; }
int runView(const ViewOptions&) { return missing("view"); }
int runRender(const RenderOptions&) { return missing("render"); }
#else
bool viewerBuilt() { return true; }
#endif

}  // namespace crowd::cli
