// crowdsim route: solve every problem of a Moving AI scenario file with the grid A*.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace crowd::cli {

struct RouteOptions {
  std::string mapPath;   ///< A Moving AI .map file.
  std::string scenPath;  ///< Its .scen file.
  std::string outPath;   ///< Optional CSV: index,start_x,start_y,goal_x,goal_y,length,expanded,micros.
  bool cornerCutting = false;
  std::string heuristic = "octile";  ///< octile, euclidean or manhattan.
};

/// Adds the `route` subcommand to `app`, its options bound to `options`; returns it, so a caller
/// can test `if (*route)` after parsing.
CLI::App* addRouteCommand(CLI::App& app, RouteOptions& options);

/// Solves every problem and prints how many lengths matched the listed optimal ones and the time
/// per query; returns the exit code (0 once every problem is solved, matched or not). Throws, as
/// bad input or usage (exit code 2), ScenarioError for an --out path that cannot be written or
/// names an input (checkOutputPaths, before anything is read), and std::invalid_argument for a
/// map or scenario it cannot read (crowd::GridMapError, naming the line and column) or a problem
/// that does not fit the map; std::runtime_error when writing --out fails later.
int runRoute(const RouteOptions& options);

}  // namespace crowd::cli
