// Target resolution (targets.hpp): FILE or `builtin NAME`, planar or 3D.
#include "targets.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>

namespace crowd::cli {

Scenario loadScenarioTarget(const std::vector<std::string>& target, std::optional<std::size_t> agents,
                            std::optional<std::uint64_t> seed, const char* defaultName,
                            std::optional<std::size_t> defaultAgents) {
  if (target.empty()) return builtinScenario(defaultName, agents ? agents : defaultAgents, seed.value_or(1));
  if (target[0] == "builtin") {
    if (target.size() != 2) throw ScenarioError("usage: builtin NAME (see 'crowdsim scenarios')");
    return builtinScenario(target[1], agents, seed.value_or(1));
  }
  if (target.size() != 1) {
    throw ScenarioError("expected one scenario file or 'builtin NAME', got " + std::to_string(target.size()) +
                        " arguments");
  }
  if (agents) throw ScenarioError("--agents applies to built-in scenarios; a file lists its own agents");
  return expandScenario(parseScenarioSpec(scenarioText(target[0]), target[0]), seed);
}

bool isTarget3d(const std::vector<std::string>& target) {
  if (target.size() == 2 && target[0] == "builtin") return isBuiltinScenario3(target[1]);
  return target.size() == 1 && target[0] != "builtin" &&
         scenarioDimensions(scenarioText(target[0]), target[0]) == 3;
}

Scenario3 loadScenario3Target(const std::vector<std::string>& target, std::optional<std::size_t> agents,
                              std::optional<std::uint64_t> seed) {
  if (target[0] == "builtin") return builtinScenario3(target[1], agents, seed.value_or(1));
  if (agents) throw ScenarioError("--agents applies to built-in scenarios; a file lists its own agents");
  return parseScenario3(scenarioText(target[0]), target[0], seed);
}

const std::string& scenarioText(const std::string& path) {
  // Kept for the process: the file is read once, however many times its kind and contents are
  // asked for.
  static std::map<std::string, std::string> read;
  const auto found = read.find(path);
  if (found != read.end()) return found->second;
  try {
    return read.emplace(path, readScenarioFileText(path)).first->second;
  } catch (const ScenarioError& error) {
    // `crowdsim run circle` meant the built-in: name the way to it.
    std::error_code ignored;
    const std::vector<std::string> planar = builtinScenarioNames();
    const bool builtin =
        std::find(planar.begin(), planar.end(), path) != planar.end() || isBuiltinScenario3(path);
    if (builtin && !std::filesystem::exists(path, ignored)) {
      throw ScenarioError(std::string(error.what()) + " (for the built-in scenario, write 'builtin " + path +
                          "')");
    }
    throw;
  }
}

void warn(const std::vector<std::string>& warnings) {
  for (const std::string& w : warnings) std::cerr << "crowdsim: warning: " << w << "\n";
}

}  // namespace crowd::cli
