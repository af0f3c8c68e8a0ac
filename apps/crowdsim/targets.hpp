// What a command runs: a scenario FILE or `builtin NAME`, planar or 3D, as `run`, `view` and
// `render` take it (and `validate` a file). A file is read once however often its kind and
// contents are asked for, so that a pipe (crowdsim run /dev/stdin) works too.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <crowd/scenario.hpp>
#include <crowd/scenario3.hpp>

namespace crowd::cli {

/// Loads FILE or "builtin NAME" (`target`), or the built-in `defaultName` (with `defaultAgents`,
/// unless --agents) when `target` is empty. Throws ScenarioError.
Scenario loadScenarioTarget(const std::vector<std::string>& target, std::optional<std::size_t> agents,
                            std::optional<std::uint64_t> seed, const char* defaultName,
                            std::optional<std::size_t> defaultAgents);

/// Whether `target` (FILE or "builtin NAME") is a 3D world: a 3D built-in, or a file that says
/// "dimensions": 3. Throws ScenarioError for a file that cannot be read.
bool isTarget3d(const std::vector<std::string>& target);

/// Loads a 3D `target` (isTarget3d). Throws ScenarioError.
Scenario3 loadScenario3Target(const std::vector<std::string>& target, std::optional<std::size_t> agents,
                              std::optional<std::uint64_t> seed);

/// The text of scenario file `path`, read once per run (a pipe can be read only once): every
/// loader above goes through it. Throws ScenarioError.
const std::string& scenarioText(const std::string& path);

/// Prints a scenario's warnings on stderr, "crowdsim: warning: ...".
void warn(const std::vector<std::string>& warnings);

}  // namespace crowd::cli
