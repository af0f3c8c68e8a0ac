// The options `view` and `render` share (scene_options.hpp).
#include "commands/scene_options.hpp"

#include <iostream>
#include <stdexcept>

#include "exit_codes.hpp"
#include "options.hpp"
#include "output_paths.hpp"
#include "strict_integer.hpp"
#include "targets.hpp"

namespace crowd::cli {

void addSceneOptions(CLI::App& command, SceneOptions& o, const char* defaultSize) {
  command
      .add_option("target", o.target,
                  std::string("A scenario file, or 'builtin NAME' (default: builtin ") + kShowcase + ")")
      ->expected(0, 2);
  addAgentsOption(command, o.agents);
  command.add_option("--seed", o.seed, "Seed for random placement and goals")->check(kWholeNumber);
  addThreadsOption(command, o.threads);
  addBackendOption(command, o.backend);
  command.add_option("--color-by", o.colorBy, "What agent colours show")
      ->check(CLI::IsMember({"speed", "group", "behavior", "density"}))
      ->capture_default_str();
  o.size = defaultSize;
  command.add_option("--size", o.size, "Picture or window size, WIDTHxHEIGHT pixels")->capture_default_str();
}

Scenario loadSceneTarget(const SceneOptions& o) {
  return loadScenarioTarget(o.target, o.agents, o.seed, kShowcase, std::nullopt);
}

int viewerMissing(const char* command) {
  std::cerr << "crowdsim: error: '" << command << "' needs the viewer, which this build left out. Install "
            << "libglfw3-dev libepoxy-dev libpng-dev (and libimgui-dev for the overlay) and rebuild "
            << "(scripts/build.sh, or cmake -DCROWD_VIEWER=ON)\n";
  return kExitFailure;
}

PictureSize parseSize(const std::string& text) {
  const std::size_t x = text.find('x');
  try {
    if (x == std::string::npos) throw std::invalid_argument("no x");
    std::size_t used = 0;
    const int w = std::stoi(text.substr(0, x), &used);
    if (used != x) throw std::invalid_argument("width");
    const int h = std::stoi(text.substr(x + 1), &used);
    if (used != text.size() - x - 1) throw std::invalid_argument("height");
    if (w < 16 || h < 16 || w > 16384 || h > 16384) throw std::invalid_argument("range");
    return PictureSize{w, h};
  } catch (const std::exception&) {
    throw std::invalid_argument("--size " + text +
                                ": expected WIDTHxHEIGHT, each 16 to 16384 pixels (e.g. 1280x720)");
  }
}

#ifdef CROWD_WITH_VIEWER
viewer::ColorBy colorByNamed(const std::string& name) {
  for (std::size_t k = 0; k < viewer::kColorByNames.size(); ++k) {
    if (name == viewer::kColorByNames[k]) return static_cast<viewer::ColorBy>(k);
  }
  throw std::invalid_argument("--color-by " + name + ": expected speed, group, behavior or density");
}
#endif

}  // namespace crowd::cli
