// crowdsim realism: re-enact a recorded pedestrian scene (ETH/UCY format) with ORCA and without
// avoidance, and compare both with the recording.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include <crowd/realism.hpp>

namespace crowd::cli {

struct RealismCommandOptions {
  std::string scenePath;  ///< "frame pedestrian x y" lines.
  RealismOptions run;     ///< Frame time, substeps, agent parameters, threads, seed.
  std::string pace = "schedule";  ///< run.pace by name: "schedule" or "mean".
  std::string outPath;    ///< The ORCA re-enactment in the recording's own format.
  std::string jsonPath;   ///< Every figure of the table, as JSON.
  std::string svgPath;    ///< A picture: the recorded paths under the simulated ones.
};

/// Adds the `realism` subcommand to `app`, its options bound to `options`.
CLI::App* addRealismCommand(CLI::App& app, RealismCommandOptions& options);

/// Runs both re-enactments, prints the comparison table and writes the outputs asked for;
/// returns the exit code. Throws std::invalid_argument (bad input or usage: exit code 2) for a
/// recording it cannot read, bad options or an output path that cannot be written, and
/// std::runtime_error when writing an output fails.
int runRealism(const RealismCommandOptions& options);

}  // namespace crowd::cli
