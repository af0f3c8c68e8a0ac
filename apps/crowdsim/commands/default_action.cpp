// crowdsim with no command: the showcase (builtin evacuation) in a window where there is a
// display, else one picture of it mid-evacuation in crowd-picture/; a build without the viewer
// runs the circle and prints its summary, as `crowdsim run` would.
#include <cmath>
#include <cstdio>

#ifdef CROWD_WITH_VIEWER
#include <crowd/viewer/session.hpp>
#endif

#include "command.hpp"
#include "commands/run.hpp"
#include "commands/scene_options.hpp"

namespace crowd::cli {

int runDefault() {
#ifndef CROWD_WITH_VIEWER
  return runScenario(RunOptions{});
#else
  if (viewer::displayPresent()) return runView(ViewOptions{});
  RenderOptions render;
  render.frames = 1;
  render.video = "none";
  render.outDir = "crowd-picture";
  render.fitCrowd = true;
  const Scenario scenario = loadSceneTarget(render.scene);
  // One picture of the floor while the corridors are full.
  render.start = static_cast<int>(std::lround(kShowcaseSeconds / scenario.timeStep));
  std::printf(
      "crowdsim: no display for a window, so a picture: builtin %s, %zu agents after %g s (open it, or run "
      "'crowdsim view' where there is a display)\n",
      kShowcase, scenario.agents.size(), kShowcaseSeconds);
  return runRender(render);
#endif
}

}  // namespace crowd::cli
