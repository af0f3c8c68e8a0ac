// crowdsim run: its options, for the default action too (crowdsim with no command runs the
// circle in a build without the viewer).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace crowd::cli {

struct RunOptions {
  std::vector<std::string> target;  ///< FILE, or "builtin" NAME; empty: builtin circle, 2,000 agents.
  std::optional<std::size_t> agents;
  std::optional<std::int64_t> steps;
  int threads = 0;
  std::optional<std::uint64_t> seed;
  std::string backend = "auto";
  std::string outPath;
  std::int64_t outEvery = 1;      ///< --out-every: keep steps 0, K, 2K, ... in --out.
  std::optional<double> outFrom;  ///< --out-from: seconds; keep steps from then on.
  std::optional<double> outTo;    ///< --out-to: seconds; keep steps up to then.
  std::string metricsPath;
  bool allSteps = false;
  bool quiet = false;
  bool exactRvo2 = false;
  std::string avoidance;  ///< "orca" or "none" overrides every agent's; empty keeps the scenario's.
  bool orca = false;      ///< --orca: shorthand for --avoidance orca.
  std::string
      model;  ///< --model: every agent's motion model (model_override.hpp); empty keeps the scenario's.
  /// Where set, also given the metrics document --metrics writes (as its JSON text), so that an
  /// ensemble (commands/ensemble.cpp) tabulates the very figures a single run reports.
  std::string* metricsText = nullptr;
};

/// Runs the scenario, writes the outputs asked for and prints the summary; returns the exit
/// code. Throws ScenarioError or std::invalid_argument for bad input (before anything is
/// written), RunInterrupted when stopped, std::runtime_error when writing fails.
int runScenario(const RunOptions& options);

}  // namespace crowd::cli
