// Options shared by the crowdsim subcommands.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include <crowd/scenario.hpp>
#include <crowd/scenario3.hpp>
#include <crowd/simulator.hpp>

namespace crowd::cli {

/// Exit codes: 0 success, 1 a failure while running, 2 bad usage or bad input, 130 interrupted.
inline constexpr int kExitFailure = 1;
inline constexpr int kExitBadInput = 2;
/// Stopped by Ctrl-C or a termination request (128 + SIGINT, as shells report it).
inline constexpr int kExitInterrupted = 130;

struct BenchOptions {
  std::vector<std::string> scenarios{"circle", "random"};
  std::vector<std::size_t> agents{1000, 10000, 100000};
  std::vector<std::string> backends;  // Empty: the CPU, and the GPU when there is one.
  int steps = 20;
  int warmup = 3;
  int threads = 0;
  std::uint64_t seed = 1;
  std::string jsonPath;
  bool exactRvo2 = false;
};

/// Loads FILE or "builtin NAME" (`target`), or the built-in `defaultName` (with `defaultAgents`,
/// unless --agents) when `target` is empty. Throws ScenarioError.
Scenario loadScenarioTarget(const std::vector<std::string>& target, std::optional<std::size_t> agents,
                            std::optional<std::uint64_t> seed, const char* defaultName,
                            std::optional<std::size_t> defaultAgents);

/// Whether `target` (FILE or "builtin NAME") is a 3D world: a 3D built-in, or a file that says
/// "dimensions": 3. Throws ScenarioError for a file that cannot be read.
bool isTarget3d(const std::vector<std::string>& target);
/// The text of scenario file `path`, read once per run (a pipe can be read only once): every
/// loader above goes through it. Throws ScenarioError.
const std::string& scenarioText(const std::string& path);
/// Loads a 3D `target` (isTarget3d). Throws ScenarioError.
Scenario3 loadScenario3Target(const std::vector<std::string>& target, std::optional<std::size_t> agents,
                              std::optional<std::uint64_t> seed);

/// Throws std::invalid_argument when `backend` (an option's text) is "cuda" and no usable GPU is
/// there, saying why; commands call it before anything is loaded or written.
inline void requireBackend(const std::string& backend) {
  std::string why;
  if (backend == "cuda" && !cudaBackendAvailable(&why)) {
    throw std::invalid_argument("--backend cuda: " + why + "; use --backend cpu or auto");
  }
}

/// Adds the `bench` subcommand's options to `app`.
void addBenchOptions(CLI::App& app, BenchOptions& options);
/// Runs the benchmark sweep; returns the exit code.
int runBench(const BenchOptions& options);

}  // namespace crowd::cli
