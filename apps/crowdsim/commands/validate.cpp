// crowdsim validate: reads a scenario file (planar or 3D) as `run` would, reports its warnings
// and what it holds, or refuses it naming the problem (exit code 2), without running it.
#include <cstdio>
#include <memory>
#include <string>

#include <crowd/scenario.hpp>
#include <crowd/scenario3.hpp>

#include "command.hpp"
#include "exit_codes.hpp"
#include "targets.hpp"

namespace crowd::cli {
namespace {

int validate(const std::string& path) {
  const std::string& text = scenarioText(path);
  if (scenarioDimensions(text, path) == 3) {
    const Scenario3 scenario = parseScenario3(text, path);
    warn(scenario.warnings);
    std::printf("%s: ok: 3D, %zu agents, %lld steps of %g s\n", path.c_str(), scenario.agents.size(),
                static_cast<long long>(scenario.steps), static_cast<double>(scenario.timeStep));
    return kExitSuccess;
  }
  const Scenario scenario = expandScenario(parseScenarioSpec(text, path));
  warn(scenario.warnings);
  std::printf("%s: ok: %zu agents, %zu obstacles, %zu circles, %zu paths, %lld steps of %g s\n", path.c_str(),
              scenario.agents.size(), scenario.obstacles.size(), scenario.circles.size(),
              scenario.paths.size(), static_cast<long long>(scenario.steps),
              static_cast<double>(scenario.timeStep));
  return kExitSuccess;
}

}  // namespace

Command validateCommand() {
  auto path = std::make_shared<std::string>();
  return Command{"validate", "Check a scenario file and report problems",
                 [path](CLI::App& app) { app.add_option("file", *path, "The scenario file")->required(); },
                 [path] { return validate(*path); }};
}

}  // namespace crowd::cli
