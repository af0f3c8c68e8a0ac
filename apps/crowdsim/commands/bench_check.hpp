// crowdsim bench --check: the sweep's figures against a stored results file. Times depend on the
// machine and the hour; what a step examines (neighbour candidates and ORCA half-planes per agent)
// does not, so a change to those is a change to the code, seen the day it lands: this is how a
// regression in the neighbour search (more candidates per agent, the grid built every step) shows
// on any machine, CI's included.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace crowd::cli {

/// The largest relative drift of a cost figure that still counts as the same figure: the stored
/// runs and this one differ only in threads and the machine, which change none of them.
constexpr double kCostFigureTolerance = 0.02;

/// The stored results file at `path` (written by bench --json). Throws std::invalid_argument
/// naming the file when it cannot be read or is not one.
nlohmann::json readStoredResults(const std::string& path);

/// Compares `results` (the sweep's points, as bench writes them) with the `stored` points of the
/// same scenario, agent count, backend and step count. Prints a line per point compared (and the
/// time beside the stored one, for information) and returns how many cost figures drifted past
/// the tolerance. Throws std::invalid_argument when the sweep met none of the stored points.
int checkAgainstStored(const nlohmann::json& results, const nlohmann::json& stored, const std::string& path);

}  // namespace crowd::cli
