// 3D scenarios: a scenario file with "dimensions": 3, or the built-ins sphere and swarm. Every
// vector is [x, y, z]; agents are spheres (crowd/simulator3.hpp). The file format is described
// once, in docs/scenario-format.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <crowd/basic_scenario.hpp>
#include <crowd/scenario_spec.hpp>  // ScenarioError
#include <crowd/simulator.hpp>
#include <crowd/simulator3.hpp>

namespace crowd {

/// A 3D scenario ready to run: every agent generated (crowd/basic_scenario.hpp). A 3D world has
/// no obstacles, paths or maps yet.
struct Scenario3 : BasicScenario<Vec3> {};

/// The "dimensions" a scenario file's text declares: 2 (also when it says nothing) or 3.
/// Throws ScenarioError for text that is not a JSON object or a bad "dimensions".
int scenarioDimensions(std::string_view jsonText, const std::string& source);
/// As scenarioDimensions, for a file.
int scenarioFileDimensions(const std::string& path);

/// Reads and checks a 3D scenario file, generating its groups with `seed` (the file's own when
/// not given). Throws ScenarioError naming the file and the JSON pointer of the problem.
Scenario3 loadScenario3File(const std::string& path, std::optional<std::uint64_t> seed = std::nullopt);
/// As loadScenario3File, from text; `source` names it in messages.
Scenario3 parseScenario3(std::string_view jsonText, const std::string& source,
                         std::optional<std::uint64_t> seed = std::nullopt);

/// The 3D built-ins: sphere and swarm.
std::vector<std::string> builtinScenario3Names();
std::string builtinScenario3Description(const std::string& name);
bool isBuiltinScenario3(const std::string& name);
/// Builds a 3D built-in with `agents` agents (each has its own default). Throws ScenarioError for
/// an unknown name or an agent count it cannot make.
Scenario3 builtinScenario3(const std::string& name, std::optional<std::size_t> agents = std::nullopt,
                           std::uint64_t seed = 1);

/// Adds a warning for agents that start overlapping (and "no agents" for an empty scenario).
void addScenario3Warnings(Scenario3& scenario);

/// A simulator holding the scenario's agents (agent i gets id index i).
Simulator3 makeSimulator3(const Scenario3& scenario, int threads = 0, BackendKind backend = BackendKind::Cpu);

}  // namespace crowd
