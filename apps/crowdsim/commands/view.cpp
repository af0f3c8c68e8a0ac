// crowdsim view: a window that shows a scenario running, planar or 3D, or a trajectory file
// playing back (--replay); --offscreen draws without one and reports the frame rate. The window
// itself is the viewer's (crowd/viewer/session.hpp): this file reads the options, resolves the
// target and hands both over.
#include <memory>
#include <optional>
#include <stdexcept>

#ifdef CROWD_WITH_VIEWER
#include <iostream>

#include <crowd/viewer/replay.hpp>
#include <crowd/viewer/session.hpp>
#endif

#include "command.hpp"
#include "commands/scene_options.hpp"
#include "exit_codes.hpp"
#include "options.hpp"
#include "output_paths.hpp"
#include "strict_integer.hpp"
#include "targets.hpp"

namespace crowd::cli {
namespace {

void addViewOptions(CLI::App& view, ViewOptions& o) {
  addSceneOptions(view, o.scene, "1280x800");
  view.add_option(
          "--replay", o.replayPath,
          "Play this trajectory file (crowdsim run --out) instead of running; name its scenario too to "
          "draw its obstacles and agent sizes")
      ->check(kPathGiven);
  view.add_option("--quit-after", o.quitAfter, "Close the window after this many seconds")
      ->check(kFiniteNonNegative);
  view.add_flag("--no-vsync", o.noVsync,
                "Do not wait for the display's refresh (to measure frames per second)");
  view.add_flag(
      "--offscreen", o.offscreen,
      "No window: draw offscreen (EGL) as fast as possible while the simulation runs, for --quit-after "
      "seconds (default 10), then print the frame rate");
  view.footer(
      "Keys: space pause, N or . one step, + / - faster / slower, R reset, F fit, C colours, T trails,\n"
      "P screenshot, Esc or Q quit;\n"
      "drag to pan, wheel to zoom at the cursor, click an agent to show its route and neighbours.");
}

#ifdef CROWD_WITH_VIEWER
// Whether there is a display for a window; if not, says so on stderr (and what to do instead).
bool windowPossible() {
  if (viewer::displayPresent()) return true;
  std::cerr
      << "crowdsim: error: no display for a window (DISPLAY is not set). Use 'crowdsim render' to write "
         "pictures without one, or run under xvfb-run.\n";
  return false;
}

viewer::DisplaySettings displaySettings(const ViewOptions& o, PictureSize size) {
  viewer::DisplaySettings display;
  display.width = size.width;
  display.height = size.height;
  display.quitAfter = o.quitAfter;
  display.noVsync = o.noVsync;
  display.program = "crowdsim";
  return display;
}

// A 3D world: it runs live (no replay), coloured by speed.
int runView3(const ViewOptions& o, const viewer::SimulationSettings& simulation, PictureSize size) {
  if (!o.replayPath.empty())
    throw std::invalid_argument("--replay plays planar trajectories; a 3D world runs live");
  Scenario3 scenario = loadScenario3Target(o.scene.target, o.scene.agents, o.scene.seed);
  warn(scenario.warnings);
  viewer::Session3 session({std::move(scenario)}, simulation, displaySettings(o, size));
  if (o.offscreen) {
    session.drawOffscreen();
    return kExitSuccess;
  }
  if (!windowPossible()) return kExitFailure;
  session.showWindow();
  return kExitSuccess;
}
#endif

}  // namespace

int runView(const ViewOptions& o) {
#ifndef CROWD_WITH_VIEWER
  (void)o;
  return viewerMissing("view");
#else
  const viewer::SimulationSettings simulation{o.scene.threads, backendNamed(o.scene.backend)};
  requireBackend(simulation.backend);
  const PictureSize size = parseSize(o.scene.size);
  if (!o.scene.target.empty() && isTarget3d(o.scene.target)) return runView3(o, simulation, size);
  viewer::DisplaySettings display = displaySettings(o, size);
  display.colorBy = colorByNamed(o.scene.colorBy);
  if (!o.offscreen && !windowPossible()) return kExitFailure;
  // A replay alone, a replay drawn with its scenario's obstacles and agents, or a live run.
  std::optional<viewer::Replay> replay;
  if (!o.replayPath.empty()) replay = viewer::Replay::load(o.replayPath);
  std::optional<Scenario> scenario;
  if (!o.scene.target.empty() || o.replayPath.empty()) scenario = loadSceneTarget(o.scene);
  if (replay && scenario && replay->agentCount() != scenario->agents.size()) {
    std::cerr << "crowdsim: warning: " << o.replayPath << " has " << replay->agentCount() << " agents, "
              << scenario->name << " " << scenario->agents.size() << "; is it that scenario's run?\n";
  }
  viewer::Session session({std::move(scenario), std::move(replay)}, simulation, display);
  if (o.offscreen) {
    session.drawOffscreen();
  } else {
    session.showWindow();
  }
  return kExitSuccess;
#endif
}

Command viewCommand() {
  auto options = std::make_shared<ViewOptions>();
  return Command{"view", "Watch a scenario run in a window (or play back a trajectory file)",
                 [options](CLI::App& app) { addViewOptions(app, *options); },
                 [options] { return runView(*options); }};
}

}  // namespace crowd::cli
