// What an ensemble runs: every combination of the varied parameters (`--vary KEY=V1,V2`), each
// with every seed. A run is numbered by its place in that order, the combinations outermost (the
// last --vary changing fastest) and the seeds innermost, so that its number, its seed and its
// parameters are the same however the runs are shared out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace crowd::cli {

/// One --vary: a parameter of the run and the values it takes, as written.
struct Variation {
  std::string key;
  std::vector<std::string> values;
};

/// The keys --vary takes, each a `crowdsim run` option that changes the outcome: agents (of a
/// built-in), model, avoidance and steps.
std::vector<std::string> variationKeys();

/// "KEY=V1,V2,...". Throws std::invalid_argument for an unknown key (listing the known ones), no
/// or an empty value, a value repeated, or a value that is no value of the key (agents and steps
/// whole numbers, agents at least 1; model and avoidance names run takes).
Variation parseVariation(std::string_view text);

/// One run of the ensemble.
struct PlannedRun {
  std::size_t index = 0;  ///< Its place in the ensemble, from 0.
  std::uint64_t seed = 0;
  std::size_t combination = 0;      ///< Which combination of the varied values, from 0.
  std::vector<std::string> values;  ///< One per variation, in the order of --vary.
};

/// The ensemble's runs in order. Throws std::invalid_argument for a key varied twice, or for
/// more runs than kMaxEnsembleSeeds allows.
std::vector<PlannedRun> planRuns(const std::vector<std::uint64_t>& seeds,
                                 const std::vector<Variation>& variations);

}  // namespace crowd::cli
