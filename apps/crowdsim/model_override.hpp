// `--model` for the commands that run scenarios (bench, run): every agent's motion model replaced
// by one named on the command line, so that one scenario compares the models side by side.
#pragma once

#include <string>
#include <vector>

#include <crowd/scenario.hpp>

namespace crowd::cli {

/// The names --model accepts: the motion models (orca, none, csm, socialforce) and
/// "orca-density", ORCA with the preferred speed taken from the local density.
std::vector<std::string> modelOverrideNames();

/// Gives every agent of `scenario` the model named `name` (one of modelOverrideNames()). The
/// social force model's stiff body force needs a short step: a longer time step is cut to 0.01 s
/// (and the steps multiplied to simulate as long).
/// The density-aware speed needs room in the neighbour list: maxNeighbors and neighborDist are
/// raised to what its check asks for where lower.
void overrideModel(Scenario& scenario, const std::string& name);

}  // namespace crowd::cli
